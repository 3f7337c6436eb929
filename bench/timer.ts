/**
 * 100,000 heartbeat monitors in 100 projects (1,000 each), every one missing its check-in each
 * round: deadlines fall evenly over the round, the period is the round, so round after round the
 * timer records 100,000 misses. The api, projector and timer roles run in this process as in
 * `npm start`: the projector on a worker thread of its own, the others on the main thread. Prints:
 * - how late each miss was recorded against its deadline (p50/p99/max), per round;
 * - RSS sampled every second, per round, to show whether memory is flat from round to round;
 * - API latency of GET /v1/monitors?project_id= (all 1,000 monitors of a project) and
 *   GET /v1/incidents?project_id= (first page), sampled lightly during the rounds and then
 *   back to back once they are over.
 * Baselines from the same run: the process idle before the first deadline (CPU, RSS), and
 * GET /v1/projects/<id> (one document) for the API.
 *   npm run bench:timer [-- --projects 100 --per-project 1000 --round-seconds 120 --rounds 3 --profile FILE]
 * --profile writes a CPU profile of this process's main thread (the api and the timer; the projector
 * has a thread of its own) over the rounds only, seeding left out, to FILE (.cpuprofile).
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { MONITOR_DEFAULTS } from '../src/domain/monitors/monitor-config.js';
import { loadConfig } from '../src/main/config.js';
import { startProjectorWorker } from '../src/main/projector-worker.js';
import { startVigil } from '../src/main/vigil.js';
import { newThreadLinks } from '../src/main/thread-links.js';
import { readModelLag } from '../src/projector/read-model-lag.js';
import { allProjections } from '../projections/index.js';
import { makeTempDir } from '../test/support/temp-dir.js';
import { ALL_SCOPES, TestClock, TestVigil } from '../test/support/test-vigil.js';
import { recordResult } from './results.js';
import { percentiles } from './stats.js';

const { values } = parseArgs({
  options: {
    projects: { type: 'string', default: '100' },
    'per-project': { type: 'string', default: '1000' },
    'round-seconds': { type: 'string', default: '120' },
    rounds: { type: 'string', default: '3' },
    requests: { type: 'string', default: '200' },
    profile: { type: 'string' },
  },
});
const projectCount = Number(values.projects);
const perProject = Number(values['per-project']);
const count = projectCount * perProject;
const roundMs = Number(values['round-seconds']) * 1000;
const rounds = Number(values.rounds);
const quietRequests = Number(values.requests);
const TARGET_MONITORS = 100_000;
const TARGET_LATENESS_MS = 1000;
const dir = makeTempDir('vigil-bench-timer');
const env = { VIGIL_DATA_DIR: dir.path, PORT: '0', HOST: '127.0.0.1', VIGIL_LOG_LEVEL: 'silent', VIGIL_RATE_LIMIT_REQUESTS: '1000000' };
const mib = (bytes: number) => Math.round(bytes / 2 ** 20);

// Seed: a user with a read key, its projects through the command side, then MonitorCreated events
// as the decider writes them, the first deadlines from now+leadMs spread over one round.
const seedStarted = Date.now();
const seeding = await TestVigil.reopen(dir.path, env, TestClock.atWallTime());
const owner = await seeding.user('bench@example.com');
const key = await seeding.accountKey(owner, ALL_SCOPES);
const projectIds: string[] = [];
for (let p = 0; p < projectCount; p++) projectIds.push(await seeding.project(owner, `Project ${p}`));
// Room for seeding (about 2 s per 1,000 monitors on a busy 2-core machine) and an idle baseline after it.
const leadMs = 30_000 + count * 0.6;
const start = Date.now() + leadMs;
let pending: Promise<unknown>[] = [];
for (let i = 0; i < count; i++) {
  const monitorId = randomUUID();
  const due = new Date(start + Math.floor((i * roundMs) / count));
  const config = { ...MONITOR_DEFAULTS, name: `m${i}`, slug: `m${i}`, type: 'JOB_HEARTBEAT', schedule: `${roundMs / 1000}s`, grace_period_seconds: 0, uptime: null };
  const data = { monitor_id: monitorId, project_id: projectIds[i % projectCount]!, config, created_at: new Date(due.getTime() - roundMs).toISOString(), next_expected_at: due.toISOString() };
  pending.push(seeding.vigil.stores.events.appendToStream(`monitor-${monitorId}`, [{ type: 'MonitorCreated', data }]));
  if (pending.length === 2000) {
    await Promise.all(pending);
    pending = [];
  }
}
await Promise.all(pending);
await seeding.vigil.projector!.waitForPosition(await seeding.vigil.stores.events.headPosition(), 600_000);
await seeding.stopKeepingData();
const seedSeconds = (Date.now() - seedStarted) / 1000;

// As src/main/server.ts starts them; the projector's thread reads its configuration from the environment.
Object.assign(process.env, env);
const threads = newThreadLinks();
const projectorThread = await startProjectorWorker(() => {}, threads);
const vigil = await startVigil(loadConfig(env), { roles: ['api', 'timer'], logger: pino({ level: 'silent' }), threads, walCheckpoints: 'own-thread' });
const get = async (path: string): Promise<number> => {
  const started = performance.now();
  const response = await fetch(`${vigil.url}${path}`, { headers: { 'X-API-Key': key } });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`GET ${path}: ${response.status}`);
  return performance.now() - started;
};
const projectAt = (n: number) => projectIds[n % projectIds.length]!;
const paths = {
  project: (n: number) => `/v1/projects/${projectAt(n)}`,
  monitors: (n: number) => `/v1/monitors?project_id=${projectAt(n)}`,
  incidents: (n: number) => `/v1/incidents?project_id=${projectAt(n)}`,
};

const rssSeries: { at: number; rss: number; heap: number }[] = [];
const sampleMemory = () => {
  const { rss, heapUsed } = process.memoryUsage();
  rssSeries.push({ at: Date.now(), rss, heap: heapUsed });
};
sampleMemory();
const sampler = setInterval(sampleMemory, 1000);
// How far the read models trail the log, each second: the timer reads its deadlines from them.
const lagSeries: { at: number; lag: number }[] = [];
const lagSampler = setInterval(() => {
  const at = Date.now();
  readModelLag(vigil.stores.events, vigil.stores.readModels, allProjections(), { clock: () => new Date(), countUpTo: Number.MAX_SAFE_INTEGER }).then(
    (lag) => lagSeries.push({ at, lag: lag.events ?? 0 }),
    () => {},
  );
}, 1000);

const idleFor = Math.max(1000, start - Date.now() - 1000);
if (idleFor < 10_000) console.warn(`seeding ran into the deadlines: only ${(idleFor / 1000).toFixed(0)} s of idle baseline`);
const idleCpuStart = process.cpuUsage();
await new Promise((resolve) => setTimeout(resolve, idleFor));
const idleCpu = process.cpuUsage(idleCpuStart);
const idlePeakRss = Math.max(...rssSeries.map((s) => s.rss));

// During the rounds, one request at a time every 250 ms: what a user sees while the timer works.
const underLoad = { monitors: [] as number[], incidents: [] as number[] };
let probing = true;
const probe = (async () => {
  for (let n = 0; probing; n++) {
    if (n % 2 === 0) underLoad.monitors.push(await get(paths.monitors(n)));
    else underLoad.incidents.push(await get(paths.incidents(n)));
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
})();

// Others may be running on the machine: the load average goes with the figures.
const loadAtStart = loadavg()[0]!;
const profiler = values.profile ? new Session() : null;
if (profiler) {
  profiler.connect();
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.start');
}
const busyCpuStart = process.cpuUsage();
const busyStarted = performance.now();
const headBefore = await vigil.stores.events.headPosition();
const roundEnds: number[] = [];
const marked: number[] = [];
for (let round = 1; round <= rounds; round++) {
  // A round is done when every monitor counts at least this many misses (the first of the next
  // round come due before the last of this one), or its deadlines are two minutes past.
  const giveUp = start + round * roundMs + 120_000;
  // The count reads every monitor document on the server's own thread (about 250 ms at 100,000,
  // a fifth of that thread when asked every second), and no monitor can be done before the
  // round's last deadline: so the bench waits for it rather than compete with the timer it measures.
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, start + round * roundMs - Date.now())));
  let done = 0;
  while (Date.now() < giveUp) {
    done = await vigil.stores.readModels.count('monitors', { consecutive_misses: { $gte: round } });
    if (done >= count) break;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  marked.push(done);
  roundEnds.push(Date.now());
  console.log(`round ${round}: ${done} of ${count} monitors at ${round} misses, RSS ${mib(process.memoryUsage().rss)} MiB`);
}
probing = false;
await probe;
const busyCpu = process.cpuUsage(busyCpuStart);
if (profiler) {
  const { profile } = await profiler.post('Profiler.stop');
  writeFileSync(values.profile!, JSON.stringify(profile));
  profiler.disconnect();
}
const loadAtEnd = loadavg()[0]!;
const busySeconds = (performance.now() - busyStarted) / 1000;

const quiet = { project: [] as number[], monitors: [] as number[], incidents: [] as number[] };
for (let n = 0; n < quietRequests; n++) {
  quiet.project.push(await get(paths.project(n)));
  quiet.monitors.push(await get(paths.monitors(n)));
  quiet.incidents.push(await get(paths.incidents(n)));
}
clearInterval(sampler);
clearInterval(lagSampler);
sampleMemory();

const lateness: number[][] = Array.from({ length: rounds }, () => []);
const lateMisses: { deadline: number; late: number }[][] = Array.from({ length: rounds }, () => []);
const lastRecorded: number[] = Array.from({ length: rounds }, () => 0);
for (let after = headBefore; ; ) {
  const page = await vigil.stores.events.readAll({ after, maxCount: 5000 });
  if (page.length === 0) break;
  after = page.at(-1)!.position;
  for (const event of page) {
    const round = Number(event.data['consecutive_misses']);
    if (event.type === 'CheckInMissed' && round >= 1 && round <= rounds) {
      const deadline = Date.parse(String(event.data['deadline_at']));
      const late = Date.parse(event.created) - deadline;
      lastRecorded[round - 1] = Math.max(lastRecorded[round - 1]!, Date.parse(event.created));
      lateness[round - 1]!.push(late);
      if (late > TARGET_LATENESS_MS) lateMisses[round - 1]!.push({ deadline, late });
    }
  }
}
const incidentsOpen = await vigil.stores.readModels.count('incidents', {});
await vigil.stop();
await projectorThread.stop();
dir.remove();

const roundStats = lateness.map((samples, r) => {
  const from = r === 0 ? start : roundEnds[r - 1]!;
  const memory = rssSeries.filter((s) => s.at >= from && s.at <= roundEnds[r]!);
  return { ...percentiles(samples), recorded: samples.length, peakRss: Math.max(...memory.map((s) => s.rss)), endHeap: memory.at(-1)?.heap ?? NaN };
});
const all = percentiles(lateness.flat());
const peakRss = Math.max(...rssSeries.map((s) => s.rss));
const cpuPercent = (usage: NodeJS.CpuUsage, seconds: number) => Math.round(((usage.user + usage.system) / 1e6 / seconds) * 100);
const p = (samples: number[]) => percentiles(samples.map((v) => Math.round(v * 10) / 10));
const api = {
  projectQuiet: p(quiet.project),
  monitorsQuiet: p(quiet.monitors),
  incidentsQuiet: p(quiet.incidents),
  monitorsBusy: p(underLoad.monitors),
  incidentsBusy: p(underLoad.incidents),
};
const rssGrowth = mib(roundStats.at(-1)!.peakRss - roundStats[0]!.peakRss);

console.log(`seeded ${count} monitors in ${projectCount} projects in ${seedSeconds.toFixed(0)} s; ${rounds} rounds of ${roundMs / 1000} s; ${incidentsOpen} incidents`);
for (const [r, stats] of roundStats.entries()) {
  console.log(
    `round ${r + 1}: ${stats.recorded} misses recorded, lateness p50 ${stats.p50} ms, p99 ${stats.p99} ms, max ${stats.max} ms; ` +
      `peak RSS ${mib(stats.peakRss)} MiB, heap at the end ${mib(stats.endHeap)} MiB`,
  );
}
// Where the time went when it went wrong: the stretches of deadlines recorded late, and the read
// models' lag (the timer finds its deadlines there) over the round.
for (let r = 0; r < rounds; r++) {
  const roundStart = start + r * roundMs;
  const seconds = (at: number) => `${((at - roundStart) / 1000).toFixed(1)} s`;
  const stretches: { from: number; to: number; misses: number; worst: number }[] = [];
  for (const miss of lateMisses[r]!.sort((a, b) => a.deadline - b.deadline)) {
    const last = stretches.at(-1);
    if (last && miss.deadline - last.to < 2000) Object.assign(last, { to: miss.deadline, misses: last.misses + 1, worst: Math.max(last.worst, miss.late) });
    else stretches.push({ from: miss.deadline, to: miss.deadline, misses: 1, worst: miss.late });
  }
  const lags = lagSeries.filter((s) => s.at >= roundStart && s.at < roundStart + roundMs + 60_000);
  const worstLag = lags.reduce((worst, s) => (s.lag > worst.lag ? s : worst), { at: roundStart, lag: 0 });
  // While the timer keeps up this is just the deadlines' rate; behind, it is how fast it can go.
  const perSecond = Math.round(lateness[r]!.length / ((lastRecorded[r]! - roundStart) / 1000));
  console.log(
    `round ${r + 1}: ${perSecond} misses/s from the first deadline to the last miss recorded; read models at most ${worstLag.lag} events behind the log (at ${seconds(worstLag.at)}); ` +
      (stretches.length === 0
        ? `no miss later than ${TARGET_LATENESS_MS} ms`
        : `misses later than ${TARGET_LATENESS_MS} ms: ` + stretches.map((s) => `${s.misses} with deadlines ${seconds(s.from)}–${seconds(s.to)} (worst ${s.worst} ms)`).join('; ')),
  );
}
console.log(`baseline, idle before the deadlines (${(idleFor / 1000).toFixed(0)} s): CPU ${cpuPercent(idleCpu, idleFor / 1000)}%, peak RSS ${mib(idlePeakRss)} MiB`);
console.log(`load average (1 min) ${loadAtStart.toFixed(2)} at the first deadline, ${loadAtEnd.toFixed(2)} after the last round`);
console.log(`during the rounds: CPU ${cpuPercent(busyCpu, busySeconds)}% over ${busySeconds.toFixed(0)} s, peak RSS ${mib(peakRss)} MiB; RSS from round 1 to round ${rounds}: ${rssGrowth >= 0 ? '+' : ''}${rssGrowth} MiB`);
const row = (name: string, s: { p50: number; p99: number; max: number }, n: number) => console.log(`${name.padEnd(58)} p50 ${s.p50} ms, p99 ${s.p99} ms, max ${s.max} ms (${n} requests)`);
row('baseline, GET /v1/projects/<id>, after the rounds', api.projectQuiet, quiet.project.length);
row(`GET /v1/monitors?project_id= (${perProject} monitors), after the rounds`, api.monitorsQuiet, quiet.monitors.length);
row('GET /v1/incidents?project_id=, after the rounds', api.incidentsQuiet, quiet.incidents.length);
row('GET /v1/monitors?project_id=, during the rounds', api.monitorsBusy, underLoad.monitors.length);
row('GET /v1/incidents?project_id=, during the rounds', api.incidentsBusy, underLoad.incidents.length);

recordResult({
  name: `timer-${count >= 1000 ? `${Math.round(count / 1000)}k` : count}`,
  date: new Date().toISOString(),
  command: `node --import=tsx bench/timer.ts --projects ${projectCount} --per-project ${perProject} --round-seconds ${roundMs / 1000} --rounds ${rounds} --requests ${quietRequests}`,
  figures: {
    monitors: count,
    rounds,
    lateness_p50_ms: all.p50,
    lateness_p99_ms: all.p99,
    lateness_max_ms: all.max,
    ...Object.fromEntries(roundStats.map((s, r) => [`round_${r + 1}_lateness_p99_ms`, s.p99])),
    misses_recorded: lateness.flat().length,
    cpu_percent: cpuPercent(busyCpu, busySeconds),
    peak_rss_mib: mib(peakRss),
    ...Object.fromEntries(roundStats.map((s, r) => [`round_${r + 1}_peak_rss_mib`, mib(s.peakRss)])),
    rss_growth_first_to_last_round_mib: rssGrowth,
    get_monitors_p50_ms: api.monitorsQuiet.p50,
    get_monitors_p99_ms: api.monitorsQuiet.p99,
    get_incidents_p50_ms: api.incidentsQuiet.p50,
    get_incidents_p99_ms: api.incidentsQuiet.p99,
    get_monitors_during_rounds_p99_ms: api.monitorsBusy.p99,
    get_incidents_during_rounds_p99_ms: api.incidentsBusy.p99,
  },
  baseline: {
    name: 'idle before the deadlines; GET /v1/projects/<id>',
    figures: {
      cpu_percent: cpuPercent(idleCpu, idleFor / 1000),
      peak_rss_mib: mib(idlePeakRss),
      get_project_p50_ms: api.projectQuiet.p50,
      get_project_p99_ms: api.projectQuiet.p99,
    },
  },
  ratio: Number((api.monitorsQuiet.p99 / api.projectQuiet.p99).toFixed(1)),
  ...(count >= TARGET_MONITORS
    ? { target: { description: `every round's MISSED recorded within ${TARGET_LATENESS_MS.toLocaleString('en-US')} ms of its deadline (plus grace) at p99, at ${TARGET_MONITORS.toLocaleString('en-US')} monitors`, met: roundStats.every((s) => s.p99 < TARGET_LATENESS_MS) } }
    : {}),
  notes: [
    `The issue bounds the lateness only (the target); the other figures it asks for at ${TARGET_MONITORS.toLocaleString('en-US')} monitors have no bound. The ratio is GET /v1/monitors p99 over GET /v1/projects/<id> p99 (a list of ${perProject} monitors against one document).`,
    `Load average (1 min) ${loadAtStart.toFixed(2)} at the first deadline, ${loadAtEnd.toFixed(2)} after the last round, on a machine others may share: a busy one takes CPU from the timer, and a round the timer cannot keep up with shows as lateness growing through it and into the next.`,
    `RSS every second through ${rounds} rounds of ${count.toLocaleString('en-US')} misses each; flat memory shows as the same peak each round. Seeding took ${seedSeconds.toFixed(0)} s; ${incidentsOpen.toLocaleString('en-US')} incidents at the end.`,
  ],
});
