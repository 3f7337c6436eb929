/**
 * Ping ingestion on the embedded store, against a bare Node http server measured the same way in
 * the same run. Each server is its own process, started as `npm start` starts Vigil (every role,
 * default log level, logs to /dev/null), and this process only drives the load, so the load
 * generator never competes with a server inside one event loop. Per round:
 *   1. Vigil `GET /v1/ping/<id>` over many monitors, closed loop at full speed (autocannon): its peak;
 *   1b. each of the other tools' ping URLs (src/api/peers: Healthchecks, Uptime Kuma, a Sentry
 *      check-in) on the same monitors in the same server, at full speed, each right after a /v1/ping phase of its own and judged against it;
 *   2. Vigil at half of that peak, paced evenly (open loop, see paced-load.ts), for the latency there;
 *   3. the bare server at full speed, then at the same paced rate (the floor of that latency);
 *   4. the durable floor at full speed (durable-floor-server.ts): node:http plus one indexed SQLite
 *      row per ping, group-committed, the least a log that can be read back by stream costs here;
 *   5. the disk's own fdatasync latency (fsync-probe.ts), the floor under a durable answer.
 * Each phase starts once Vigil's read models have caught up with its log, so that none begins with
 * the projector's backlog from the phase before. Each phase also reads the server's CPU time (Linux
 * /proc), so CPU per request can be compared
 * even when other work on the machine takes cores away from both sides, and the bytes it wrote to
 * the disk (WAL, checkpoints into the file): the write amplification of a ping. Medians over the rounds.
 * The monitors keep the default retention (200 pings), and before the first round each is pinged
 * past it, so that every measured ping pushes an older one out of the log, as in a deployment that
 * has run for a while (without that, the first round's pings mostly did not, and a median depended
 * on how many rounds there were: 14.7 against 17.0 KB written per ping). Afterwards each
 * monitor's stream must have recorded at least as many pings as were acknowledged for it, and keep
 * the acknowledged ones in the newer half of its window (ping ids are time-ordered), all that it
 * keeps being in the ping history: 0 lost is the rule.
 * The result goes to bench/results/pings.json and bench/RESULTS.md.
 *   npm run bench:pings [-- --connections 64 --seconds 10 --monitors 200 --rounds 3 --skip-peers --peers sentry,healthchecks --peer-pairs 1
 *                          --server-env VIGIL_SQLITE_WRITER=thread --profile DIR --perf DIR --node-option X --paced-rate N]
 * --peers runs only the named peers (healthchecks, uptime_kuma, sentry, and the reference phases
 * v1_same_ping and v1_get_again), --skip-peers none;
 * --peer-pairs N measures each peer N times a round, each time beside a /v1/ping phase of its own,
 * the peer's phase after it in odd pairs and before it in even ones;
 * --server-env (repeatable) sets a variable for the Vigil server; --profile writes its CPU profiles
 * to DIR; --perf DIR has Linux perf (Debian's linux-perf) sample Vigil's and the durable floor's
 * threads on the CPU during their peak phases, Vigil's at half of its peak and each peer's phase
 * and the /v1/ping phase beside it, to
 * DIR/<server>-<round>.perf.data (read them with bench/perf-summary.ts: V8's profiles count time a
 * thread waits for a core or the disk as its own); --node-option (repeatable) passes a flag to its
 * node, e.g. --node-option=--import=./probe.ts;
 * --paced-rate paces the second phase at that many pings/s instead of half the peak, so that two
 * variants are compared at the same load (CPU and disk per ping grow as groups shrink).
 */
import autocannon from 'autocannon';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { loadConfig } from '../src/main/config.js';
import { startVigil } from '../src/main/vigil.js';
import { freePort } from '../test/support/server-process.js';
import { makeTempDir } from '../test/support/temp-dir.js';
import { TestClock, TestVigil } from '../test/support/test-vigil.js';
import { keptPings } from '../src/queries/pings.js';
import { builtServer, compiledModules } from './built-server.js';
import { probeFsync } from './fsync-probe.js';
import { pacedLoad } from './paced-load.js';
import { recordResult } from './results.js';
import type { ServerLatency } from './server-latency.js';
import { median } from './stats.js';

const { values } = parseArgs({
  options: {
    connections: { type: 'string', default: '64' },
    seconds: { type: 'string', default: '10' },
    monitors: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '3' },
    'server-env': { type: 'string', multiple: true, default: [] },
    profile: { type: 'string' },
    perf: { type: 'string' },
    'node-option': { type: 'string', multiple: true, default: [] },
    'paced-rate': { type: 'string' },
    'skip-peers': { type: 'boolean', default: false },
    peers: { type: 'string' },
    'peer-pairs': { type: 'string', default: '1' },
  },
});
const connections = Number(values.connections);
const duration = Number(values.seconds);
const monitorCount = Number(values.monitors);
const rounds = Number(values.rounds);
/** Pairs of phases (/v1/ping, then the peer) per peer and round: each pair's ratio counts in the median, as the machine's noise is larger than what is measured. */
const peerPairs = Number(values['peer-pairs']);
const serverEnv = Object.fromEntries(
  values['server-env'].map((pair) => {
    const at = pair.indexOf('=');
    if (at < 1) throw new Error(`--server-env wants NAME=value, not ${pair}`);
    return [pair.slice(0, at), pair.slice(at + 1)];
  }),
);
// Said at once, not after the seeding.
if (values.perf && spawnSync('perf', ['--version']).status !== 0) throw new Error('--perf needs Linux perf on the PATH (Debian: apt-get install linux-perf)');
const WARMUP_SECONDS = 2;
/** Vigil's default `retention_count`: the pings a monitor keeps in the log. */
const RETENTION = 200;

interface LoadResult {
  rate: number;
  p50: number;
  p99: number;
  errors: number;
  /** The server's CPU time (all its threads) per answered request, in µs; NaN where /proc is missing. */
  cpuPerRequestUs: number;
  /**
   * Its main thread's alone (HTTP, the doors, the commands' decisions), in µs. Less noisy than a
   * phase's rate for telling two doors apart: the projector, whose work a faster phase defers past
   * its end, runs on a thread of its own.
   */
  mainThreadUsPerRequest: number;
  /** KB the server sent to the disk per answered request (/proc/<pid>/io write_bytes); NaN without it. */
  diskKbPerRequest: number;
  /** The same requests timed inside the server (see server-latency.ts). */
  inServer: ServerLatency;
}

interface ServerProcess {
  url: string;
  pid: number;
  /** CPU seconds the server process has used so far (user + system), from /proc; NaN elsewhere. */
  cpuSeconds: () => number;
  /** The same for its main thread alone. */
  mainThreadCpuSeconds: () => number;
  /** Bytes the server process has caused to be written to storage so far, from /proc; NaN elsewhere. */
  writtenBytes: () => number;
  /** What server-latency.ts measured in the server since the last call. */
  latency: () => Promise<ServerLatency>;
  /** Once the server has no work left over from the phase before (see readModelsCaughtUp). */
  settled: () => Promise<void>;
  stop: () => Promise<void>;
}

/** Every monitor pinged `RETENTION` times, round-robin: from then on, each ping drops its monitor's oldest. */
async function pingPastRetention(server: ServerProcess, paths: string[], onBody: (body: string) => void): Promise<void> {
  let next = 0;
  const result = await autocannon({
    url: server.url,
    connections,
    amount: paths.length * RETENTION,
    requests: [{ setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length]! }), onResponse: (status: number, body: string) => (status === 200 ? onBody(body) : undefined) }],
  });
  if (result.non2xx + result.errors + result.timeouts > 0) throw new Error('pinging the monitors past their retention failed');
}

/** Closed loop at full speed: every connection sends its next request as soon as the last is answered. */
async function drive(server: ServerProcess, paths: string[], options: { seconds: number; onBody?: (body: string) => void; request?: (path: string) => { method?: 'POST'; body?: string | Buffer } }): Promise<LoadResult> {
  let next = 0;
  const { onBody } = options;
  const shape = options.request ?? (() => ({}));
  await server.settled();
  await server.latency();
  const cpuBefore = server.cpuSeconds();
  const mainThreadBefore = server.mainThreadCpuSeconds();
  const writtenBefore = server.writtenBytes();
  const result = await autocannon({
    url: server.url,
    connections,
    duration: options.seconds,
    requests: [
      {
        setupRequest: (request) => {
          const path = paths[next++ % paths.length]!;
          return { ...request, path, ...shape(path) };
        },
        ...(onBody ? { onResponse: (status: number, body: string) => (status === 200 ? onBody(body) : undefined) } : {}),
      },
    ],
  });
  return {
    rate: result.requests.total / options.seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
    cpuPerRequestUs: ((server.cpuSeconds() - cpuBefore) * 1e6) / result.requests.total,
    mainThreadUsPerRequest: ((server.mainThreadCpuSeconds() - mainThreadBefore) * 1e6) / result.requests.total,
    diskKbPerRequest: (server.writtenBytes() - writtenBefore) / 1024 / result.requests.total,
    inServer: await server.latency(),
  };
}

async function paced(server: ServerProcess, paths: string[], ratePerSecond: number, onBody?: (body: string) => void): Promise<LoadResult> {
  await server.settled();
  await server.latency();
  const cpuBefore = server.cpuSeconds();
  const mainThreadBefore = server.mainThreadCpuSeconds();
  const writtenBefore = server.writtenBytes();
  const result = await pacedLoad({ url: server.url, paths, ratePerSecond, seconds: duration, connections, ...(onBody ? { onBody } : {}) });
  const answered = result.rate * duration;
  return {
    ...result,
    cpuPerRequestUs: ((server.cpuSeconds() - cpuBefore) * 1e6) / answered,
    mainThreadUsPerRequest: ((server.mainThreadCpuSeconds() - mainThreadBefore) * 1e6) / answered,
    diskKbPerRequest: (server.writtenBytes() - writtenBefore) / 1024 / answered,
    inServer: await server.latency(),
  };
}

/**
 * Vigil's read models caught up with its log, as /readyz reports them: the projector sits behind
 * the log at full speed (it lets the log's writer go first), and it ended phases up to 35,000
 * events behind. Without waiting, each phase began with the one before's backlog and the
 * projector catching up beside it, so a phase was slowed by the load of the phase before it (the
 * same Sentry code measured 74-93% of the /v1/ping phase beside it).
 */
async function readModelsCaughtUp(url: string): Promise<void> {
  const deadline = Date.now() + 300_000;
  for (;;) {
    const { checks } = (await (await fetch(`${url}/readyz`)).json()) as { checks?: { event_store?: { head_position?: number }; read_store?: { committed_position?: number } } };
    const head = checks?.event_store?.head_position;
    const committed = checks?.read_store?.committed_position;
    if (head === undefined || committed === undefined) throw new Error('/readyz did not report the log head and the read models\' position');
    if (committed >= head) return;
    if (Date.now() > deadline) throw new Error(`the read models did not catch up with the log in 5 minutes (${committed} of ${head})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Starts `node <args>` with PORT set and server-latency.ts preloaded (compiled: see latencyPreload), waits until `readyPath`
 * answers, and stops it with SIGTERM. `settles` says whether it has read models to wait for.
 */
async function startServer(args: string[], env: NodeJS.ProcessEnv, readyPath: string, settles = false): Promise<ServerProcess> {
  const port = await freePort();
  const latencyFile = `${dir.path}/server-latency-${port}.json`;
  const child: ChildProcess = spawn(process.execPath, [`--import=${latencyPreload}`, ...args], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', BENCH_LATENCY_FILE: latencyFile },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Should this process die mid-run, its servers go with it.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 30_000; ; ) {
    try {
      if ((await fetch(`${url}${readyPath}`)).ok) break;
    } catch (error) {
      if (Date.now() > deadline || child.exitCode !== null) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    pid: child.pid!,
    cpuSeconds: () => processCpuSeconds(child.pid),
    mainThreadCpuSeconds: () => processCpuSeconds(child.pid, child.pid),
    writtenBytes: () => processWrittenBytes(child.pid),
    latency: async () => {
      rmSync(latencyFile, { force: true });
      child.kill('SIGUSR2');
      for (const deadline = Date.now() + 10_000; !existsSync(latencyFile); ) {
        if (Date.now() > deadline) throw new Error('the server did not report its latency (is bench/server-latency.ts preloaded?)');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return JSON.parse(readFileSync(latencyFile, 'utf8')) as ServerLatency;
    },
    settled: () => (settles ? readModelsCaughtUp(url) : Promise.resolve()),
    stop: async () => {
      process.off('exit', killOnExit);
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * With --perf: `phase` runs while Linux perf samples the server's threads on the CPU (cpu-clock,
 * with call chains; the server runs with --perf-basic-prof so that its JavaScript has names).
 */
async function sampledOnCpu<T>(server: ServerProcess, name: string, phase: () => Promise<T>): Promise<T> {
  if (!values.perf) return phase();
  mkdirSync(values.perf, { recursive: true });
  const recorder = spawn('perf', ['record', '-e', 'cpu-clock', '-F', '999', '-g', '-p', String(server.pid), '-o', `${values.perf}/${name}.perf.data`], { stdio: ['ignore', 'ignore', 'inherit'] });
  const stopped = once(recorder, 'exit');
  try {
    return await phase();
  } finally {
    recorder.kill('SIGINT');
    await stopped;
  }
}

/**
 * utime + stime of a process, fields 14 and 15 of /proc/<pid>/stat, in clock ticks of 1/100 s; of
 * one of its threads with `thread` (its main thread's id is the process's).
 */
function processCpuSeconds(pid: number | undefined, thread?: number): number {
  try {
    const stat = readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/** `write_bytes` of /proc/<pid>/io: what the process sent (or dirtied for) storage, all threads. */
function processWrittenBytes(pid: number | undefined): number {
  try {
    const line = readFileSync(`/proc/${pid}/io`, 'utf8').split('\n').find((l) => l.startsWith('write_bytes:'));
    return line ? Number(line.slice('write_bytes:'.length)) : NaN;
  } catch {
    return NaN;
  }
}

const BARE_SERVER = `
  require('node:http').createServer((request, response) => {
    response.writeHead(200, { 'Content-Type': 'application/json' });
    response.end('{"ok":true}');
  }).listen(Number(process.env.PORT), process.env.HOST);
`;

const loadAtStart = loadavg()[0]!;
const dir = makeTempDir('vigil-bench-pings');
/** server-latency.ts as plain JavaScript: Vigil runs from its build, without tsx (see builtServer). */
const latencyPreload = compiledModules(`${dir.path}/preload`, 'server-latency', 'stats');
const seed = await TestVigil.reopen(dir.path, {}, TestClock.atWallTime());
const key = await seed.accountKey(await seed.user('bench@example.com'), ['manage_projects', 'manage_monitors']);
const benchProject = (await seed.request('POST', '/v1/projects', { key, body: { name: 'Bench' } })).body.project;
const projectId: string = benchProject.id;
const pingKey: string = benchProject.ping_key;
const monitorIds: string[] = [];
for (let i = 0; i < monitorCount; i++) {
  const created = await seed.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: `m${i}`, type: 'JOB_HEARTBEAT', schedule: '1h' } });
  monitorIds.push(created.body.monitor.id);
}
await seed.stopKeepingData();

const perfArgs = values.perf ? ['--perf-basic-prof'] : [];
const serverNodeArgs = [...(values.profile ? ['--cpu-prof', `--cpu-prof-dir=${values.profile}`] : []), ...perfArgs, ...values['node-option']];
const pingPaths = monitorIds.map((id) => `/v1/ping/${id}`);
/** The ping ids acknowledged, by monitor. */
const acknowledged = new Map<string, Set<string>>(monitorIds.map((id) => [id, new Set()]));
const acknowledge = (body: string) => {
  const answer = JSON.parse(body);
  acknowledged.get(answer.monitor_id)?.add(answer.ping_id);
};

/**
 * The other tools' clients (src/api/peers), each against the same monitors in the same server
 * right after /v1/ping's peak: Healthchecks' `/ping/<uuid>`, Uptime Kuma's `/api/push/<token>`,
 * and a Sentry check-in envelope by slug (`m<i>`, the monitors' slugs) with the ping key as
 * `sentry_key`. Their answers carry no ping id: what they record is counted with the rest.
 */
interface PeerLoad {
  name: string;
  paths: string[];
  request?: (path: string) => { method?: 'POST'; body?: string | Buffer };
  /** Shown for comparison, with no target of its own. */
  reference?: true;
}
const CHECK_IN_ID = '8f3c2a1b9d7e4f6a8b0c1d2e3f4a5b6c';
/** What a check-in says beyond the fields Vigil maps, which the door keeps as the ping's payload. */
const CHECK_IN_REST = '{"environment":"production","contexts":{"trace":{"trace_id":"4bf92f3577b34da6a3ce929d0e0e4736","span_id":"00f067aa0ba902b7"}}}';
/** Shaped as @sentry/node sends a `captureCheckIn` ok: an SDK header, the run, its duration, the environment and the trace. */
const sentryEnvelope = (slug: string) =>
  `{"sent_at":"2026-11-29T00:00:00.000Z","sdk":{"name":"sentry.javascript.node","version":"10.0.0"}}\n{"type":"check_in"}\n` +
  `{"check_in_id":"${CHECK_IN_ID}","monitor_slug":"${slug}","status":"ok","duration":1.25,${CHECK_IN_REST.slice(1)}`;
/**
 * Each monitor's check-in envelope, made once: the load generator shares the machine's cores with
 * the server, and building a body for each request took from the server what a GET phase's does not.
 */
const checkInBodies = monitorIds.map((_id, i) => Buffer.from(sentryEnvelope(`m${i}`)));
/** A POST of each monitor's check-in to its path, by the path's position among the monitors'. */
function postingCheckIns(paths: string[]): Pick<PeerLoad, 'paths' | 'request'> {
  const bodies = new Map(paths.map((path, i) => [path, checkInBodies[i]!]));
  return { paths, request: (path) => ({ method: 'POST', body: bodies.get(path)! }) };
}
const ALL_PEER_LOADS: PeerLoad[] = values['skip-peers']
  ? []
  : [
      { name: 'healthchecks', paths: monitorIds.map((id) => `/ping/${id}`) },
      { name: 'uptime_kuma', paths: monitorIds.map((id) => `/api/push/${id}?status=up`) },
      { name: 'sentry', ...postingCheckIns(monitorIds.map((_id, i) => `/api/1/envelope/?sentry_key=${pingKey}&slug=m${i}`)) },
      // The very ping the Sentry door records for a check-in (its run, its duration, the rest of
      // the check-in as the payload), sent to Vigil's own Ping API: what that ping costs here
      // whichever door it comes through, apart from what the Sentry door costs.
      {
        name: 'v1_same_ping',
        paths: pingPaths.map((path) => `${path}?run_id=${CHECK_IN_ID}&duration_ms=1250`),
        request: () => ({ method: 'POST', body: CHECK_IN_REST }),
        reference: true,
      },
      // The /v1/ping phase itself again: what two phases of the very same requests differ by on
      // this machine, the resolution of every share above.
      { name: 'v1_get_again', paths: pingPaths, reference: true },
    ];
/** --peers names the peers to run (all by default): more rounds of one peer in the same time. */
const chosenPeers = values.peers?.split(',').map((name) => name.trim());
const unknownPeer = chosenPeers?.find((name) => !ALL_PEER_LOADS.some((load) => load.name === name));
if (unknownPeer !== undefined) throw new Error(`--peers: no peer is named ${unknownPeer} (${ALL_PEER_LOADS.map((load) => load.name).join(', ')})`);
const PEER_LOADS = chosenPeers ? ALL_PEER_LOADS.filter((load) => chosenPeers.includes(load.name)) : ALL_PEER_LOADS;
const peerRuns = new Map<string, LoadResult[]>(PEER_LOADS.map((load) => [load.name, []]));
/**
 * /v1/ping again right before each peer, on the same monitors: each peer is judged against the
 * phase beside it, not against the first peak, since later phases run on a longer log, a busier
 * compactor and a warmer (or busier) machine than the first.
 */
const peerBaselineRuns = new Map<string, LoadResult[]>(PEER_LOADS.map((load) => [load.name, []]));
const bareRuns: LoadResult[] = [];
const bareHalfRuns: LoadResult[] = [];
const peakRuns: LoadResult[] = [];
const floorRuns: LoadResult[] = [];
const fsyncRuns: { p50: number; p99: number }[] = [];
const halfRuns: (LoadResult & { offered: number })[] = [];
for (let round = 0; round < rounds; round++) {
  const vigil = await startServer([...serverNodeArgs, builtServer()], { ...serverEnv, VIGIL_DATA_DIR: dir.path }, '/healthz', true);
  if (round === 0) await pingPastRetention(vigil, pingPaths, acknowledge);
  await drive(vigil, pingPaths, { seconds: WARMUP_SECONDS, onBody: acknowledge });
  const peak = await sampledOnCpu(vigil, `vigil-${round + 1}`, () => drive(vigil, pingPaths, { seconds: duration, onBody: acknowledge }));
  peakRuns.push(peak);
  for (const load of PEER_LOADS) {
    const shaped = load.request ? { request: load.request } : {};
    for (let pair = 0; pair < peerPairs; pair++) {
      const sample = `${round + 1}${peerPairs > 1 ? `-${pair + 1}` : ''}`;
      const v1Phase = async () => {
        await drive(vigil, pingPaths, { seconds: WARMUP_SECONDS, onBody: acknowledge });
        peerBaselineRuns.get(load.name)!.push(await sampledOnCpu(vigil, `vigil-beside-${load.name}-${sample}`, () => drive(vigil, pingPaths, { seconds: duration, onBody: acknowledge })));
      };
      const peerPhase = async () => {
        await drive(vigil, load.paths, { seconds: WARMUP_SECONDS, ...shaped });
        peerRuns.get(load.name)!.push(await sampledOnCpu(vigil, `vigil-${load.name}-${sample}`, () => drive(vigil, load.paths, { seconds: duration, ...shaped })));
      };
      // In turn first and second (v1, peer, peer, v1…): a phase runs on a longer log than the one
      // before it, and the second of two phases of the very same requests measured 88-131% of the
      // first (median 106%), a lean that would otherwise count for or against every peer alike.
      if (pair % 2 === 0) {
        await v1Phase();
        await peerPhase();
      } else {
        await peerPhase();
        await v1Phase();
      }
    }
  }
  const offered = values['paced-rate'] ? Number(values['paced-rate']) : Math.max(1, Math.round(peak.rate / 2));
  halfRuns.push({ ...(await sampledOnCpu(vigil, `vigil-half-${round + 1}`, () => paced(vigil, pingPaths, offered, acknowledge))), offered });
  await vigil.stop();

  const bare = await startServer(['-e', BARE_SERVER], {}, '/');
  await drive(bare, ['/'], { seconds: WARMUP_SECONDS });
  bareRuns.push(await drive(bare, ['/'], { seconds: duration }));
  bareHalfRuns.push(await paced(bare, ['/'], offered));
  await bare.stop();

  const floorFile = `${dir.path}/durable-floor-${round}.db`;
  const floor = await startServer(['--import=tsx', ...perfArgs, new URL('./durable-floor-server.ts', import.meta.url).pathname], { FLOOR_DB: floorFile }, '/');
  await drive(floor, pingPaths, { seconds: WARMUP_SECONDS });
  floorRuns.push(await sampledOnCpu(floor, `floor-${round + 1}`, () => drive(floor, pingPaths, { seconds: duration })));
  await floor.stop();
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${floorFile}${suffix}`, { force: true });
  fsyncRuns.push(probeFsync(dir.path));
  const shares = (name: string) => peerRuns.get(name)!.slice(-peerPairs).map((run, i, runs) => `${((run.rate / peerBaselineRuns.get(name)!.at(i - runs.length)!.rate) * 100).toFixed(0)}%`);
  const mainThreadAbove = (name: string) =>
    peerRuns.get(name)!.slice(-peerPairs).map((run, i, runs) => (run.mainThreadUsPerRequest - peerBaselineRuns.get(name)!.at(i - runs.length)!.mainThreadUsPerRequest).toFixed(0));
  const peerLine = PEER_LOADS.map(
    (load) => `, ${load.name} ${peerRuns.get(load.name)!.at(-1)!.rate.toFixed(0)} req/s (${shares(load.name).join(' ')} of /v1/ping; main thread ${mainThreadAbove(load.name).join(' ')} µs above it)`,
  ).join('');
  console.log(`round ${round + 1}/${rounds}: vigil ${peak.rate.toFixed(0)} req/s${peerLine}, bare ${bareRuns.at(-1)!.rate.toFixed(0)} req/s, durable floor ${floorRuns.at(-1)!.rate.toFixed(0)} req/s`);
}

// Whatever the server acknowledged must be in the log after it stopped; the projector brings the
// history up to it. Retention has dropped most pings' data by now, but a stream's revision still
// counts every ping it recorded.
const checker = await startVigil(loadConfig({ VIGIL_DATA_DIR: dir.path, VIGIL_LOG_LEVEL: 'silent' }), { roles: ['projector'], logger: pino({ level: 'silent' }), processMetrics: false });
await checker.projector!.waitForPosition(await checker.stores.events.headPosition(), 120_000);
const pingCheck = { acknowledged: 0, recorded: 0, lost: 0, keptNotInHistory: 0 };
for (const monitorId of monitorIds) {
  const acknowledgedHere = acknowledged.get(monitorId)!;
  const kept = await checker.stores.events.readStream(`pings-${monitorId}`);
  const recordedHere = kept.length === 0 ? 0 : kept.at(-1)!.revision + 1;
  const inHistory = new Set((await keptPings(checker.stores.events, monitorId)).map((ping) => ping.ping_id));
  pingCheck.acknowledged += acknowledgedHere.size;
  pingCheck.recorded += recordedHere;
  // More recorded than acknowledged is no loss: answers in flight when a phase ended go unread.
  pingCheck.lost += Math.max(0, acknowledgedHere.size - recordedHere);
  const keptIds = new Set(kept.map((event) => String(event.data['ping_id'])));
  // Every acknowledged ping newer than the middle of what is kept must be kept (with nothing dropped
  // yet, every one): ids are time-ordered, but two pings that arrive together may be recorded in
  // either order, so the edge of the window is no sharp line.
  const sortedKept = [...keptIds].sort();
  const keptFrom = recordedHere > kept.length ? sortedKept[Math.floor(sortedKept.length / 2)]! : '';
  for (const pingId of acknowledgedHere) if (pingId >= keptFrom && !keptIds.has(pingId)) pingCheck.lost += 1;
  for (const pingId of keptIds) if (!inHistory.has(pingId)) pingCheck.keptNotInHistory += 1;
}
await checker.stop();
dir.remove();

const summary = (runs: LoadResult[]) => ({
  rate: median(runs.map((r) => r.rate)),
  p50: median(runs.map((r) => r.p50)),
  p99: median(runs.map((r) => r.p99)),
  errors: runs.reduce((sum, r) => sum + r.errors, 0),
  cpuPerRequestUs: median(runs.map((r) => r.cpuPerRequestUs)),
  mainThreadUsPerRequest: median(runs.map((r) => r.mainThreadUsPerRequest)),
  diskKbPerRequest: median(runs.map((r) => r.diskKbPerRequest)),
  inServer: {
    requests: median(runs.map((r) => r.inServer.requests)),
    p50_ms: median(runs.map((r) => r.inServer.p50_ms)),
    p99_ms: median(runs.map((r) => r.inServer.p99_ms)),
    loop_delay_p99_ms: median(runs.map((r) => r.inServer.loop_delay_p99_ms)),
    loop_delay_max_ms: median(runs.map((r) => r.inServer.loop_delay_max_ms)),
  },
});
const bare = summary(bareRuns);
const bareHalf = summary(bareHalfRuns);
const peak = summary(peakRuns);
const floor = summary(floorRuns);
const half = { ...summary(halfRuns), offered: median(halfRuns.map((r) => r.offered)) };
const fsync = { p50: median(fsyncRuns.map((r) => r.p50)), p99: median(fsyncRuns.map((r) => r.p99)) };
const ratio = peak.rate / bare.rate;
const peers = PEER_LOADS.map((load) => {
  const runs = peerRuns.get(load.name)!;
  const beside = peerBaselineRuns.get(load.name)!;
  // The median of each pair's ratio to the /v1/ping phase beside it.
  return {
    name: load.name,
    reference: load.reference ?? false,
    ...summary(runs),
    beside: summary(beside),
    ofV1Ping: median(runs.map((run, i) => run.rate / beside[i]!.rate)),
    // The median of each pair's difference, as the share is of each pair's ratio.
    mainThreadUsAboveV1Ping: median(runs.map((run, i) => run.mainThreadUsPerRequest - beside[i]!.mainThreadUsPerRequest)),
  };
});
// Judged against the durable floor, the least a log readable by stream costs a ping here (same run).
const targets = [
  { what: 'peak at least 0.6x the durable floor', met: peak.rate >= 0.6 * floor.rate, value: `${(peak.rate / floor.rate).toFixed(2)}x` },
  { what: 'server CPU at most 60 µs per ping', met: peak.cpuPerRequestUs <= 60, value: `${peak.cpuPerRequestUs.toFixed(0)} µs` },
  { what: 'disk at most 15 KB per ping at peak', met: peak.diskKbPerRequest <= 15, value: `${peak.diskKbPerRequest.toFixed(1)} KB` },
  { what: 'p99 under 10 ms at half of peak, at the load generator', met: half.p99 < 10, value: `${half.p99} ms` },
  { what: 'no acknowledged ping lost', met: pingCheck.lost === 0, value: String(pingCheck.lost) },
  ...peers.filter((p) => !p.reference).map((p) => ({ what: `${p.name} peak within 10% of /v1/ping's`, met: p.ofV1Ping >= 0.9 && p.errors === 0, value: `${(p.ofV1Ping * 100).toFixed(0)}% of the /v1/ping phase beside it, ${p.errors} errors` })),
];
const met = targets.every((t) => t.met);
const settings = Object.entries(serverEnv).map(([name, value]) => `${name}=${value}`).join(' ') || 'defaults';

const row = (name: string, r: LoadResult) =>
  `${name.padEnd(42)} ${r.rate.toFixed(0).padStart(7)} req/s   p50 ${String(r.p50).padStart(5)} ms   p99 ${String(r.p99).padStart(6)} ms   ` +
  `server CPU ${r.cpuPerRequestUs.toFixed(0).padStart(4)} µs/request (main thread ${r.mainThreadUsPerRequest.toFixed(0)})   disk ${r.diskKbPerRequest.toFixed(1).padStart(5)} KB/request   errors ${r.errors}\n` +
  `${''.padEnd(42)} in the server: p50 ${r.inServer.p50_ms.toFixed(1).padStart(5)} ms   p99 ${r.inServer.p99_ms.toFixed(1).padStart(5)} ms   ` +
  `event loop blocked p99 ${r.inServer.loop_delay_p99_ms.toFixed(1)} ms, max ${r.inServer.loop_delay_max_ms.toFixed(1)} ms`;
console.log(`${connections} connections, ${duration} s per phase, medians of ${rounds} round(s); servers in their own processes, load from this one; Vigil with ${settings}`);
console.log(row('bare node:http (baseline)', bare));
console.log(row('durable floor (one indexed row per ping)', floor));
console.log(row(`vigil GET /v1/ping peak (${monitorCount} monitors)`, peak));
for (const p of peers) {
  console.log(row(`vigil GET /v1/ping beside ${p.name}`, p.beside));
  console.log(row(`vigil ${p.name} peak (same monitors)`, p));
}
console.log(row(`vigil at half of peak (${half.offered} req/s paced)`, half));
console.log(row('bare node:http at that paced rate', bareHalf));
console.log(`the disk under the data dir: fdatasync of 16 KB p50 ${fsync.p50.toFixed(2)} ms, p99 ${fsync.p99.toFixed(2)} ms (the floor under a durable answer)`);
console.log(
  `ratio: vigil at ${(ratio * 100).toFixed(0)}% of the bare server, the durable floor at ${((floor.rate / bare.rate) * 100).toFixed(0)}%; ` +
    `CPU per request ${(peak.cpuPerRequestUs / bare.cpuPerRequestUs).toFixed(1)}x the bare server's`,
);
for (const t of targets) console.log(`target: ${t.what}: ${t.value}, ${t.met ? 'met' : 'NOT met'}`);
console.log(
  `acknowledged pings: ${pingCheck.acknowledged}; recorded in the log: ${pingCheck.recorded}; lost: ${pingCheck.lost}` +
    `; of those retention keeps, not in the ping history: ${pingCheck.keptNotInHistory}`,
);

const round1 = (n: number) => Math.round(n * 10) / 10;
recordResult({
  name: 'pings',
  date: new Date().toISOString(),
  command: `npm run bench:pings -- --connections ${connections} --seconds ${duration} --monitors ${monitorCount} --rounds ${rounds}${values['server-env'].map((pair) => ` --server-env ${pair}`).join('')}${values['skip-peers'] ? ' --skip-peers' : ''}${values.peers ? ` --peers ${values.peers}` : ''}${peerPairs !== 1 ? ` --peer-pairs ${peerPairs}` : ''}`,
  figures: {
    req_per_s: Math.round(peak.rate),
    peak_to_durable_floor: Math.round((peak.rate / floor.rate) * 100) / 100,
    p50_ms: peak.p50,
    p99_ms: peak.p99,
    server_cpu_us_per_request: Math.round(peak.cpuPerRequestUs),
    server_main_thread_us_per_request: Math.round(peak.mainThreadUsPerRequest),
    server_disk_kb_per_request: round1(peak.diskKbPerRequest),
    half_peak_paced_req_per_s: half.offered,
    half_peak_p50_ms: round1(half.p50),
    half_peak_p99_ms: round1(half.p99),
    half_peak_in_server_p50_ms: round1(half.inServer.p50_ms),
    half_peak_in_server_p99_ms: round1(half.inServer.p99_ms),
    half_peak_loop_blocked_p99_ms: round1(half.inServer.loop_delay_p99_ms),
    half_peak_server_disk_kb_per_request: round1(half.diskKbPerRequest),
    acknowledged: pingCheck.acknowledged,
    recorded: pingCheck.recorded,
    lost: pingCheck.lost,
    kept_not_in_history: pingCheck.keptNotInHistory,
    errors: peak.errors + half.errors,
    connections,
    ...Object.fromEntries(
      peers.flatMap((p) => [
        [`${p.name}_req_per_s`, Math.round(p.rate)],
        [`${p.name}_v1_ping_beside_req_per_s`, Math.round(p.beside.rate)],
        [`${p.name}_percent_of_v1_ping`, Math.round(p.ofV1Ping * 100)],
        [`${p.name}_p99_ms`, p.p99],
        [`${p.name}_server_cpu_us_per_request`, Math.round(p.cpuPerRequestUs)],
        [`${p.name}_main_thread_us_above_v1_ping`, Math.round(p.mainThreadUsAboveV1Ping)],
        [`${p.name}_errors`, p.errors],
      ]),
    ),
  },
  baseline: {
    name: 'bare node:http, same connections, same run',
    figures: {
      req_per_s: Math.round(bare.rate),
      p50_ms: bare.p50,
      p99_ms: bare.p99,
      server_cpu_us_per_request: Math.round(bare.cpuPerRequestUs),
      half_peak_p50_ms: round1(bareHalf.p50),
      half_peak_p99_ms: round1(bareHalf.p99),
      half_peak_in_server_p99_ms: round1(bareHalf.inServer.p99_ms),
      durable_floor_req_per_s: Math.round(floor.rate),
      durable_floor_p99_ms: floor.p99,
      durable_floor_server_cpu_us_per_request: Math.round(floor.cpuPerRequestUs),
      durable_floor_server_disk_kb_per_request: round1(floor.diskKbPerRequest),
      durable_floor_percent_of_bare: Math.round((floor.rate / bare.rate) * 100),
      disk_fdatasync_p50_ms: Math.round(fsync.p50 * 100) / 100,
      disk_fdatasync_p99_ms: Math.round(fsync.p99 * 100) / 100,
    },
  },
  ratio: Math.round(ratio * 1000) / 1000,
  target: {
    description: `ping ingestion on the embedded store, against the durable floor of the same run: peak at least 0.6x the floor, server CPU at most 60 µs and disk at most 15 KB per ping, p99 under 10 ms at half of peak, zero acknowledged pings lost${peers.length > 0 ? "; the other tools' ping URLs (Healthchecks, Uptime Kuma, Sentry check-ins) each within 10% of /v1/ping's peak" : ''}`,
    met,
  },
  notes: [
    `Targets, each: ${targets.map((t) => `${t.what}: ${t.value}, ${t.met ? 'met' : 'not met'}`).join('; ')}.`,
    `Vigil with ${settings}: every role, info logging to /dev/null, ${monitorCount} JOB_HEARTBEAT monitors at the default retention (200 pings), pinged round-robin past it before the first round, so that each measured ping also drops its monitor's oldest from the log; medians of ${rounds} round(s), ${duration} s per phase.`,
    ...(peers.length > 0
      ? [
          "Other tools' clients: in the same server, each at full speed on the same monitors for the same time, beside a /v1/ping phase of its own, and judged against that phase: in turn after and before it (v1, peer, peer, v1…), each after a warm-up of its own, as a later phase runs on a longer log and a busier compactor than the one before it: Healthchecks GET /ping/<monitor id>, Uptime Kuma GET /api/push/<monitor id>?status=up, Sentry POST /api/1/envelope/?sentry_key=<ping key> with one check_in item as @sentry/node sends it (status ok, duration, environment, trace) by the monitor's slug. For comparison, with no target: v1_same_ping, the ping the Sentry door records for that check-in sent to Vigil's own Ping API (POST /v1/ping/<monitor id>?run_id=<check_in_id>&duration_ms=1250 with the rest of the check-in as its body, kept as the payload), what that ping costs whichever door it comes through; v1_get_again, the /v1/ping phase's own requests again, the spread between two phases of the same load. Every phase starts once the read models have caught up with the log. <peer>_main_thread_us_above_v1_ping: the server's main-thread CPU per request in the peer's phase less that of the /v1/ping phase beside it, median of the pairs: what the door costs where the doors run, apart from the projector's thread, whose work a faster phase defers past its end.",
        ]
      : []),
    'Peak: autocannon, closed loop. Half of peak: requests due at evenly spaced moments, latency counted from when each was due (autocannon overallRate sends each second as one burst).',
    'Disk fdatasync: 500 syncs of a 16 KB write in the data dir after each round (bench/fsync-probe.ts). A ping is answered once its group commit has synced; one arriving during a commit waits for that one and then its own, so about twice the fdatasync p99 is the floor under the ping p99 on this disk.',
    'In the server: each request timed from Node having parsed its headers to the last byte of its answer handed to the socket (bench/server-latency.ts, preloaded into both servers). The latency above it is what the load generator saw, on the same cores: the difference is the generator waiting for a core while the server keeps the machine busy, and requests waiting in their socket while the server\'s event loop is blocked ("event loop blocked": timer delay sampled every 2 ms). The target is judged on what the load generator saw.',
    'Durable floor (bench/durable-floor-server.ts): node:http writing each ping as one row of a SQLite log with a (stream, revision) index, a group commit per turn of the event loop, synchronous = FULL, each answered after its commit; no hashing, authentication, retention or read model. It is what a log that can be read back by stream costs a ping here before any of Vigil\'s own work, so the share of the bare server it reaches bounds what Vigil could reach.',
    'Server CPU per request: user + system time of the server process (all threads) over the phase, divided by the requests answered; it does not depend on how many cores other work left free.',
    `Load average (1 min) ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end: other work on the machine takes cores from both sides and widens the spread between rounds.`,
  ],
});
if (pingCheck.lost > 0 || pingCheck.keptNotInHistory > 0) process.exitCode = 1;
