/**
 * Read-your-writes with roles in separate processes: an API process and a projector process on one
 * embedded file, nothing in memory between them, as with EventStoreDB and MongoDB. While pings
 * arrive in the background at --ping-rate, one client pings its own monitor and then lists that
 * monitor's pings, in three ways taken in turn (so that all three see the same load):
 *   - without a token: what split mode does now (no wait); how often the list misses the ping;
 *   - with its ping's Vigil-Position in Vigil-Min-Position: waits for its own write only;
 *   - baseline, with the newest token any ping has been answered with: waits for the log's head,
 *     as every request did before the token (it read the head, then polled the checkpoints).
 * Latency of the list request, p50/p99, for --seconds per way.
 *   npm run bench:read-your-writes [-- --seconds 10 --ping-rate 100 --monitors 20]
 * The result goes to bench/results/read-your-writes.json and bench/RESULTS.md.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { minPositionOf } from '../src/api/position-token.js';
import { childEnv, spawnServer } from '../test/support/server-process.js';
import { makeTempDir } from '../test/support/temp-dir.js';
import { ALL_SCOPES, TestClock, TestVigil } from '../test/support/test-vigil.js';
import { recordResult } from './results.js';
import { percentiles } from './stats.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    'ping-rate': { type: 'string', default: '100' },
    monitors: { type: 'string', default: '20' },
  },
});
const seconds = Number(values.seconds);
const pingRate = Number(values['ping-rate']);
const monitorCount = Number(values.monitors);
const loadAtStart = loadavg()[0]!;
const dir = makeTempDir('vigil-bench-ryw');
const env = { VIGIL_DATA_DIR: dir.path, VIGIL_RATE_LIMIT_REQUESTS: '1000000', VIGIL_LOG_LEVEL: 'silent' };

const seeding = await TestVigil.reopen(dir.path, env, TestClock.atWallTime());
const key = await seeding.accountKey(await seeding.user('bench@example.com'), ALL_SCOPES, 365);
const projectId: string = (await seeding.request('POST', '/v1/projects', { key, body: { name: 'Read your writes' } })).body.project.id;
const monitorIds: string[] = [];
for (let i = 0; i <= monitorCount; i++) {
  const created = await seeding.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: `m${i}`, type: 'JOB_HEARTBEAT', schedule: '1h', alert_enabled: false } });
  monitorIds.push(created.body.monitor.id);
}
await seeding.stopKeepingData();
const [ownMonitor, ...backgroundMonitors] = monitorIds as [string, ...string[]];

const api = await spawnServer({ ...env, VIGIL_ROLES: 'api' });
const projector: ChildProcess = spawn(process.execPath, ['--import=tsx', 'src/main/server.ts'], {
  env: childEnv({ ...env, VIGIL_ROLES: 'projector' }),
  stdio: ['ignore', 'ignore', 'inherit'],
});
const killOnExit = () => {
  api.child.kill('SIGKILL');
  projector.kill('SIGKILL');
};
process.once('exit', killOnExit);

const ping = async (monitorId: string) => {
  const response = await fetch(`${api.url}/v1/ping/${monitorId}`);
  const body = (await response.json()) as { ping_id: string };
  return { token: response.headers.get('Vigil-Position')!, pingId: body.ping_id };
};
const listPings = async (headers: Record<string, string>) => {
  const started = performance.now();
  const response = await fetch(`${api.url}/v1/monitors/${ownMonitor}/pings?limit=5`, { headers: { 'X-API-Key': key, ...headers } });
  const body = (await response.json()) as { data?: { id: string }[] };
  return { ms: performance.now() - started, status: response.status, ids: (body.data ?? []).map((p) => p.id) };
};

// The projector process follows the log once a read with a fresh token is answered.
for (;;) {
  const { token } = await ping(ownMonitor);
  if ((await listPings({ 'Vigil-Min-Position': token })).status === 200) break;
}

// Background pings, paced; the newest token any of them was answered with stands for the log's head.
let newest = { token: '', position: 0 };
let backgroundSent = 0;
const backgroundStarted = performance.now();
let stopBackground = false;
const background = (async () => {
  const inFlight = new Set<Promise<void>>();
  while (!stopBackground) {
    const dueAt = backgroundStarted + (backgroundSent * 1000) / pingRate;
    const wait = dueAt - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const sent = ping(backgroundMonitors[backgroundSent % backgroundMonitors.length]!).then(({ token }) => {
      const position = minPositionOf(token)!;
      if (position > newest.position) newest = { token, position };
    });
    backgroundSent += 1;
    inFlight.add(sent);
    void sent.finally(() => inFlight.delete(sent));
  }
  await Promise.all(inFlight);
})();

type Way = 'no_token' | 'own_token' | 'head';
const samples: Record<Way, { ms: number[]; seen: number; errors: number }> = {
  no_token: { ms: [], seen: 0, errors: 0 },
  own_token: { ms: [], seen: 0, errors: 0 },
  head: { ms: [], seen: 0, errors: 0 },
};
const ways: Way[] = ['no_token', 'own_token', 'head'];
const measuredUntil = performance.now() + seconds * 3 * 1000;
for (let turn = 0; performance.now() < measuredUntil; turn++) {
  const way = ways[turn % ways.length]!;
  const own = await ping(ownMonitor);
  const headers: Record<string, string> =
    way === 'no_token' ? {} : { 'Vigil-Min-Position': way === 'own_token' || minPositionOf(own.token)! > newest.position ? own.token : newest.token };
  const listed = await listPings(headers);
  const sample = samples[way];
  if (listed.status !== 200) sample.errors += 1;
  else {
    sample.ms.push(listed.ms);
    if (listed.ids.includes(own.pingId)) sample.seen += 1;
  }
}
stopBackground = true;
await background;
const backgroundRate = backgroundSent / ((performance.now() - backgroundStarted) / 1000);

api.child.kill('SIGTERM');
projector.kill('SIGTERM');
await api.exited;
process.off('exit', killOnExit);
dir.remove();

const round1 = (n: number) => Math.round(n * 10) / 10;
/** The list request's latency and how often it held the client's own ping, one way. */
const figuresOf = (way: Way, prefix = ''): Record<string, number> => {
  const { p50, p99 } = percentiles(samples[way].ms);
  return {
    [`${prefix}p50_ms`]: round1(p50),
    [`${prefix}p99_ms`]: round1(p99),
    [`${prefix}sees_own_ping_percent`]: round1((100 * samples[way].seen) / Math.max(1, samples[way].ms.length)),
    [`${prefix}errors`]: samples[way].errors,
  };
};
// The token's way shares its rows with the baseline's; the way without one gets rows of its own.
const figures: Record<string, number> = {
  ...figuresOf('own_token'),
  ...figuresOf('no_token', 'no_token_'),
  requests_per_way: samples.own_token.ms.length,
  background_pings_per_s: round1(backgroundRate),
};
const head = figuresOf('head');
const path = recordResult({
  name: 'read-your-writes',
  date: new Date().toISOString(),
  command: `npm run bench:read-your-writes -- --seconds ${seconds} --ping-rate ${pingRate} --monitors ${monitorCount}`,
  figures,
  baseline: { name: 'waiting for the log head, as every request did before the token', figures: head },
  ratio: Math.round((Number(figures['p50_ms']) / Number(head['p50_ms'])) * 100) / 100,
  notes: [
    `An API process and a projector process (VIGIL_ROLES=api, VIGIL_ROLES=projector) on one embedded file: the API learns of the projector's commits only by reading its checkpoints. ${monitorCount} monitors pinged in the background at ${pingRate}/s; one client pings its own monitor, then lists its pings, one request at a time, the three ways in turn. Load average at start ${loadAtStart.toFixed(1)}.`,
    'Measured: the list with its own ping\'s token (p50_ms…) and without a token (no_token_…). The head baseline sends the newest token any ping was answered with: a reader that waits for every write acknowledged before it, as reads waited for the log head before. It polls the checkpoints with today\'s backoff, so before the token each read also paid a head read (one SQLite call here, an EventStoreDB round trip in production).',
    'Across processes on the embedded file, the projector finds new events by polling the log every 100 ms (nothing signals it from another process), then lingers up to 20 ms (VIGIL_PROJECTOR_LINGER_MS) unless a reader of its own process waits: most of a token\'s wait here is that, not the API\'s polling of the checkpoints.',
  ],
});
console.log(JSON.stringify({ figures, baseline: head }, null, 2));
console.log(`written to ${path}`);
