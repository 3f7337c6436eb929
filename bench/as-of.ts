/**
 * `as_of` queries against a project whose log grows from --events to --more-events (20,000 and
 * 200,000 by default): how long one takes, and what ten of them running back to back do to the
 * pings the same server answers meanwhile. The server is its own process, started as `npm start`
 * starts it (every role, the projector on its own thread); this process seeds and drives the load.
 * At each size:
 *   1. latency of GET /v1/incidents?project_id=&as_of= (the middle of the log's time, and now), of
 *      the same list without as_of (the baseline), and of GET /v1/monitors/<id>?as_of=, one at a time;
 *   2. pings paced at --ping-rate for --seconds, alone (the baseline), then beside ten connections
 *      sending as_of queries back to back: the pings' p50/p99, and how many as_of were answered;
 *   3. the server's RSS before and after the as_of load.
 * The project: --monitors heartbeat monitors, pinged in rounds a minute apart by the test clock;
 * every --fail-every-th round each monitor fails once (an incident opens) and recovers the next.
 *   npm run bench:as-of [-- --events 20000 --more-events 200000 --monitors 50 --fail-every 10 --seconds 10 --ping-rate 200]
 * The result goes to bench/results/as-of.json and bench/RESULTS.md.
 */
import autocannon from 'autocannon';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { receivePing } from '../src/app/monitors.js';
import type { IncomingPing } from '../src/domain/monitors/monitor.js';
import { makeTempDir } from '../test/support/temp-dir.js';
import { ALL_SCOPES, TestClock, TestVigil } from '../test/support/test-vigil.js';
import { pacedLoad } from './paced-load.js';
import { recordResult } from './results.js';
import { startServer } from './server-process.js';
import { percentiles } from './stats.js';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '20000' },
    'more-events': { type: 'string', default: '200000' },
    monitors: { type: 'string', default: '50' },
    'fail-every': { type: 'string', default: '10' },
    seconds: { type: 'string', default: '10' },
    'ping-rate': { type: 'string', default: '200' },
    samples: { type: 'string', default: '30' },
  },
});
const sizes = [Number(values.events), Number(values['more-events'])];
const monitorCount = Number(values.monitors);
const failEvery = Number(values['fail-every']);
const seconds = Number(values.seconds);
const pingRate = Number(values['ping-rate']);
const samples = Number(values.samples);
const PARALLEL_AS_OF = 10;
const MINUTE = 60_000;
const loadAtStart = loadavg()[0]!;
const dir = makeTempDir('vigil-bench-as-of');
const env = { VIGIL_DATA_DIR: dir.path, VIGIL_RATE_LIMIT_REQUESTS: '1000000', VIGIL_LOG_LEVEL: 'silent' };
/** The seeded history starts this long ago, so that all of it lies before the server's pings. */
const HISTORY_STARTS_AGO_MS = 60 * 24 * 60 * MINUTE;

/** The project's setup; its pings are recorded through the command side, as the Ping API records them. */
const seeding = await TestVigil.reopen(dir.path, env, TestClock.atWallTime());
seeding.clock.advance(-HISTORY_STARTS_AGO_MS);
// Issued by the seeding clock, long ago: valid for long enough to be used now.
const key = await seeding.accountKey(await seeding.user('bench@example.com'), ALL_SCOPES, 365);
const projectId: string = (await seeding.request('POST', '/v1/projects', { key, body: { name: 'As of' } })).body.project.id;
const monitorIds: string[] = [];
for (let i = 0; i < monitorCount; i++) {
  const created = await seeding.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: `m${i}`, type: 'JOB_HEARTBEAT', schedule: '365d', alert_enabled: false } });
  monitorIds.push(created.body.monitor.id);
}
const firstTime = seeding.clock.now().toISOString();
await seeding.stopKeepingData();

const SYSTEM = { kind: 'system', user_id: null, api_key_id: null, request_id: null } as const;
const ping = (kind: 'SUCCESS' | 'FAILURE'): Omit<IncomingPing, 'ping_id'> => ({
  event: kind, run_id: null, exit_code: kind === 'FAILURE' ? 1 : null, duration_ms: null, message: null,
  payload: null, payload_truncated: false, payload_bytes: null, request_ip: '127.0.0.1', request_ua: 'bench',
});
let round = 0;

/** Pings every monitor round after round (a minute apart) until the log holds `events` events. */
async function seedUpTo(events: number): Promise<void> {
  const vigil = await TestVigil.reopen(dir.path, env, TestClock.atWallTime());
  vigil.clock.advance(round * MINUTE - HISTORY_STARTS_AGO_MS);
  try {
    while ((await vigil.vigil.stores.events.headPosition()) < events) {
      for (let batch = 0; batch < 20; batch++, round++) {
        const kind = round % failEvery === 0 ? 'FAILURE' : 'SUCCESS';
        await Promise.all(monitorIds.map((id) => receivePing(vigil.commands, id, ping(kind), SYSTEM)));
        vigil.clock.advance(MINUTE);
      }
    }
    await vigil.vigil.projector!.waitForPosition(await vigil.vigil.stores.events.headPosition(), 600_000);
  } finally {
    // Kept for the server: stop, not remove.
    await vigil.stopKeepingData();
  }
}

/** One request at a time: ms each, after a few to warm up. */
async function timed(url: string, count: number): Promise<{ p50: number; p99: number; max: number }> {
  const took: number[] = [];
  for (let i = 0; i < count + 3; i++) {
    const started = performance.now();
    const response = await fetch(url, { headers: { 'X-API-Key': key } });
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
    if (i >= 3) took.push(performance.now() - started);
  }
  const { p50, p99, max } = percentiles(took);
  return { p50: round1(p50), p99: round1(p99), max: round1(max) };
}

const round1 = (n: number) => Math.round(n * 10) / 10;

interface SizeResult {
  events: number;
  incidents: number;
  asOfMiddle: { p50: number; p99: number; max: number };
  asOfNow: { p50: number; p99: number; max: number };
  listNow: { p50: number; p99: number; max: number };
  monitorAsOf: { p50: number; p99: number; max: number };
  pingsAlone: { p50: number; p99: number; rate: number; errors: number };
  pingsBeside: { p50: number; p99: number; rate: number; errors: number };
  asOfAnswered: number;
  asOfUnderLoadP99: number;
  rssBeforeMib: number;
  rssAfterMib: number;
}

const results: SizeResult[] = [];
for (const size of sizes) {
  const seedStarted = Date.now();
  await seedUpTo(size);
  console.log(`seeded to ${size} events in ${((Date.now() - seedStarted) / 1000).toFixed(0)} s`);
  const server = await startServer(env);
  try {
    const events = Number((await (await fetch(`${server.url}/readyz`)).json() as { checks: { event_store: { head_position: number } } }).checks.event_store.head_position);
    const lastTime = new Date(Date.parse(firstTime) + round * MINUTE).toISOString();
    const middle = new Date((Date.parse(firstTime) + Date.parse(lastTime)) / 2).toISOString();
    const list = `${server.url}/v1/incidents?project_id=${projectId}`;
    const incidents = ((await (await fetch(list, { headers: { 'X-API-Key': key } })).json()) as { pagination: { total: number } }).pagination.total;
    const asOfMiddle = await timed(`${list}&as_of=${middle}`, samples);
    const asOfNow = await timed(`${list}&as_of=${lastTime}`, samples);
    const listNow = await timed(list, samples);
    const monitorAsOf = await timed(`${server.url}/v1/monitors/${monitorIds[0]}?as_of=${middle}`, samples);

    const pingPaths = monitorIds.map((id) => `/v1/ping/${id}`);
    // Warm: each monitor's state folded once, as on a server that has been up a while.
    await pacedLoad({ url: server.url, paths: pingPaths, ratePerSecond: pingRate, seconds: 2, connections: 16 });
    const pingsAlone = await pacedLoad({ url: server.url, paths: pingPaths, ratePerSecond: pingRate, seconds, connections: 16 });
    const rssBeforeMib = server.rssMib();
    const asOfPaths = [`/v1/incidents?project_id=${projectId}&as_of=${middle}`, `/v1/incidents?project_id=${projectId}&as_of=${lastTime}`];
    let next = 0;
    const [pingsBeside, asOfLoad] = await Promise.all([
      pacedLoad({ url: server.url, paths: pingPaths, ratePerSecond: pingRate, seconds, connections: 16 }),
      autocannon({
        url: server.url,
        connections: PARALLEL_AS_OF,
        duration: seconds,
        headers: { 'X-API-Key': key },
        requests: [{ setupRequest: (request) => ({ ...request, path: asOfPaths[next++ % asOfPaths.length]! }) }],
      }),
    ]);
    const rssAfterMib = server.rssMib();
    if (asOfLoad.non2xx > 0) throw new Error(`${asOfLoad.non2xx} as_of queries failed`);
    results.push({
      events, incidents, asOfMiddle, asOfNow, listNow, monitorAsOf,
      pingsAlone: { p50: pingsAlone.p50, p99: pingsAlone.p99, rate: Math.round(pingsAlone.rate), errors: pingsAlone.errors },
      pingsBeside: { p50: pingsBeside.p50, p99: pingsBeside.p99, rate: Math.round(pingsBeside.rate), errors: pingsBeside.errors },
      asOfAnswered: asOfLoad.requests.total, asOfUnderLoadP99: asOfLoad.latency.p99, rssBeforeMib, rssAfterMib,
    });
    const r = results.at(-1)!;
    console.log(
      `${events} events, ${incidents} incidents in the project:\n` +
        `  GET /v1/incidents?as_of=<middle>   p50 ${r.asOfMiddle.p50} ms  p99 ${r.asOfMiddle.p99} ms  max ${r.asOfMiddle.max} ms\n` +
        `  GET /v1/incidents?as_of=<now>      p50 ${r.asOfNow.p50} ms  p99 ${r.asOfNow.p99} ms  max ${r.asOfNow.max} ms\n` +
        `  GET /v1/incidents (no as_of)       p50 ${r.listNow.p50} ms  p99 ${r.listNow.p99} ms  max ${r.listNow.max} ms\n` +
        `  GET /v1/monitors/<id>?as_of=       p50 ${r.monitorAsOf.p50} ms  p99 ${r.monitorAsOf.p99} ms  max ${r.monitorAsOf.max} ms\n` +
        `  pings at ${pingRate}/s alone          p50 ${r.pingsAlone.p50} ms  p99 ${r.pingsAlone.p99} ms  (${r.pingsAlone.rate}/s, ${r.pingsAlone.errors} errors)\n` +
        `  pings beside ${PARALLEL_AS_OF} as_of loops     p50 ${r.pingsBeside.p50} ms  p99 ${r.pingsBeside.p99} ms  (${r.pingsBeside.rate}/s, ${r.pingsBeside.errors} errors); ` +
        `${r.asOfAnswered} as_of answered, p99 ${r.asOfUnderLoadP99} ms\n` +
        `  server RSS ${r.rssBeforeMib} MiB before the as_of load, ${r.rssAfterMib} MiB after`,
    );
  } finally {
    await server.stop();
  }
}
dir.remove();

const [small, large] = results as [SizeResult, SizeResult];
const figure = (r: SizeResult, prefix: string) => ({
  [`${prefix}_as_of_p50_ms`]: r.asOfMiddle.p50,
  [`${prefix}_as_of_p99_ms`]: r.asOfMiddle.p99,
  [`${prefix}_monitor_as_of_p50_ms`]: r.monitorAsOf.p50,
  [`${prefix}_ping_p99_ms`]: r.pingsBeside.p99,
  [`${prefix}_rss_growth_mib`]: r.rssAfterMib - r.rssBeforeMib,
});
const ratio = large.pingsBeside.p99 / Math.max(large.pingsAlone.p99, 0.1);
recordResult({
  name: 'as-of',
  date: new Date().toISOString(),
  command: `npm run bench:as-of -- --events ${sizes[0]} --more-events ${sizes[1]} --monitors ${monitorCount} --fail-every ${failEvery} --seconds ${seconds} --ping-rate ${pingRate}`,
  figures: { small_events: small.events, large_events: large.events, ...figure(small, 'small'), ...figure(large, 'large') },
  baseline: {
    name: 'the same without as_of: the incident list now, pings alone',
    figures: {
      small_as_of_p50_ms: small.listNow.p50, small_as_of_p99_ms: small.listNow.p99, small_ping_p99_ms: small.pingsAlone.p99,
      large_as_of_p50_ms: large.listNow.p50, large_as_of_p99_ms: large.listNow.p99, large_ping_p99_ms: large.pingsAlone.p99,
    },
  },
  ratio: Math.round(ratio * 100) / 100,
  target: {
    description: `as_of at ${sizes[1]} events within 3x of its time at ${sizes[0]} (bounded, not proportional to the log), and ping p99 beside ${PARALLEL_AS_OF} as_of loops within 3x of it alone`,
    met: large.asOfMiddle.p50 <= 3 * Math.max(small.asOfMiddle.p50, 1) && ratio <= 3,
  },
  notes: [
    `${monitorCount} heartbeat monitors in one project, pinged in rounds a minute apart; each fails every ${failEvery}th round (an incident) and recovers the next. ${small.incidents} and ${large.incidents} incidents at the two sizes.`,
    `Pings paced at ${pingRate}/s for ${seconds} s (16 connections); ${PARALLEL_AS_OF} connections send as_of queries back to back meanwhile (closed loop). Load average at start ${loadAtStart.toFixed(1)}.`,
  ],
});
