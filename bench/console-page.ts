/**
 * The console's project page for a project of --monitors monitors (1,000 by default), each with
 * --runs finished runs (30: a full sparkline) and every tenth one DOWN with an open incident: how
 * long the server takes to answer it and how many bytes go over the wire, beside the REST API
 * listing the same monitors (`GET /v1/monitors?project_id=`, one answer) in the same run.
 * The server is its own process, started as `npm start` starts it; requests go one at a time from
 * this process, as a browser asking for gzip (`Accept-Encoding: gzip, deflate, br`) sends them, and
 * the bytes counted are the response's headers and body as sent.
 *   npm run bench:console [-- --monitors 1000 --runs 30 --samples 30]
 * Target: the page under 3× the API listing's time, and under 300 KB transferred.
 * The result goes to bench/results/console-project-page-1000-monitors.json and bench/RESULTS.md.
 */
import { request } from 'node:http';
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { receivePing } from '../src/app/monitors.js';
import type { IncomingPing } from '../src/domain/monitors/monitor.js';
import { postKeySignIn } from '../test/support/people.js';
import { makeTempDir } from '../test/support/temp-dir.js';
import { ALL_SCOPES, TestClock, TestVigil } from '../test/support/test-vigil.js';
import { recordResult } from './results.js';
import { startServer } from './server-process.js';
import { percentiles } from './stats.js';

const { values } = parseArgs({
  options: {
    monitors: { type: 'string', default: '1000' },
    runs: { type: 'string', default: '30' },
    samples: { type: 'string', default: '30' },
  },
});
const monitorCount = Number(values.monitors);
const runs = Number(values.runs);
const samples = Number(values.samples);
const MINUTE = 60_000;
const dir = makeTempDir('vigil-bench-console');
const env = { VIGIL_DATA_DIR: dir.path, VIGIL_RATE_LIMIT_REQUESTS: '1000000', VIGIL_LOG_LEVEL: 'silent' };

// The seed runs on a clock `runs` hours in the past, so that the server (on the wall clock) finds
// each monitor's last run a while ago and its next one due.
const seeding = await TestVigil.reopen(dir.path, env, TestClock.atWallTime());
seeding.clock.advance(-(runs + 1) * 60 * MINUTE);
const key = await seeding.accountKey(await seeding.user('bench@example.com'), ALL_SCOPES, 365);
const projectId: string = (await seeding.request('POST', '/v1/projects', { key, body: { name: 'One thousand jobs' } })).body.project.id;
const monitorIds: string[] = [];
const seedStarted = Date.now();
for (let i = 0; i < monitorCount; i++) {
  const created = await seeding.request('POST', '/v1/monitors', {
    key,
    body: { project_id: projectId, name: `nightly-export-${String(i).padStart(4, '0')}`, type: 'JOB_BASIC', schedule: '0 * * * *', timezone: 'Europe/Berlin', grace_period_seconds: 600, alert_enabled: false },
  });
  if (created.status !== 201) throw new Error(`monitor ${i}: ${created.status} ${JSON.stringify(created.body)}`);
  monitorIds.push(created.body.monitor.id);
}
const SYSTEM = { kind: 'system', user_id: null, api_key_id: null, request_id: null } as const;
const ping = (event: 'START' | 'SUCCESS' | 'FAILURE', runId: string): Omit<IncomingPing, 'ping_id'> => ({
  event, run_id: runId, exit_code: event === 'FAILURE' ? 1 : null, duration_ms: null, message: null,
  payload: null, payload_truncated: false, payload_bytes: null, request_ip: '127.0.0.1', request_ua: 'bench',
});
for (let run = 0; run < runs; run++) {
  const last = run === runs - 1;
  await Promise.all(monitorIds.map((id) => receivePing(seeding.commands, id, ping('START', `run-${run}`), SYSTEM)));
  seeding.clock.advance(MINUTE + run * 1000);
  await Promise.all(monitorIds.map((id, i) => receivePing(seeding.commands, id, ping(last && i % 10 === 0 ? 'FAILURE' : 'SUCCESS', `run-${run}`), SYSTEM)));
  seeding.clock.advance(59 * MINUTE - run * 1000);
}
await seeding.vigil.projector!.waitForPosition(await seeding.vigil.stores.events.headPosition(), 600_000);
await seeding.stopKeepingData();
console.log(`seeded ${monitorCount} monitors × ${runs} runs in ${((Date.now() - seedStarted) / 1000).toFixed(0)} s`);

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  wireBytes: number;
}

/** One GET over a fresh connection; counts the bytes of the status line, headers and body as sent. */
function get(url: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { 'Accept-Encoding': 'gzip, deflate, br', ...headers } }, (res) => {
      let body = 0;
      res.on('data', (chunk: Buffer) => (body += chunk.length));
      res.on('end', () => {
        const head = res.rawHeaders.reduce((sum, part) => sum + Buffer.byteLength(part) + 2, 0) + 2 + `HTTP/1.1 ${res.statusCode} ${res.statusMessage}\r\n`.length;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, wireBytes: head + body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

async function timed(label: string, fetchOnce: () => Promise<number>): Promise<{ p50: number; p99: number; bytes: number }> {
  const took: number[] = [];
  let bytes = 0;
  for (let i = 0; i < samples + 3; i++) {
    const started = performance.now();
    bytes = await fetchOnce();
    if (i >= 3) took.push(performance.now() - started);
  }
  const { p50, p99 } = percentiles(took);
  console.log(`${label}: p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, ${(bytes / 1024).toFixed(1)} KiB on the wire`);
  return { p50: round1(p50), p99: round1(p99), bytes };
}

const round1 = (n: number) => Math.round(n * 10) / 10;

const server = await startServer(env);
const url = server.url;

try {
  const signIn = await postKeySignIn(url, { api_key: key });
  const cookie = `vigil_session=${/vigil_session=([^;]+)/.exec(signIn.headers.get('set-cookie') ?? '')?.[1] ?? ''}`;

  const pageUrl = `${url}/projects/${projectId}`;
  const first = await get(pageUrl, { Cookie: cookie });
  if (first.status !== 200) throw new Error(`the project page answered ${first.status}`);
  const pageText = await (await fetch(pageUrl, { headers: { Cookie: cookie } })).text();
  const rows = (pageText.match(/<tr[ >]/g) ?? []).length - 1;
  if (rows < monitorCount) throw new Error(`the project page shows ${rows} rows, not ${monitorCount}`);

  const loadAtTiming = loadavg()[0]!;
  const page = await timed('project page (1 request)', async () => (await get(pageUrl, { Cookie: cookie })).wireBytes);
  const api = await timed('GET /v1/monitors for the project (one request: the list is not paginated)', async () => {
    const answer = await get(`${url}/v1/monitors?project_id=${projectId}`, { 'X-API-Key': key });
    if (answer.status !== 200) throw new Error(`GET /v1/monitors answered ${answer.status}`);
    return answer.wireBytes;
  });
  const ratio = Math.round((page.p50 / api.p50) * 100) / 100;
  const kb = page.bytes / 1000;
  const met = ratio < 3 && kb < 300;
  console.log(`page / API listing (p50): ${ratio}×, ${kb.toFixed(0)} KB → target ${met ? 'met' : 'NOT met'}`);
  recordResult({
    name: `Console project page, ${monitorCount} monitors`,
    date: new Date().toISOString(),
    command: `npm run bench:console -- --monitors ${monitorCount} --runs ${runs} --samples ${samples}`,
    figures: { page_p50_ms: page.p50, page_p99_ms: page.p99, page_wire_kb: Math.round(kb * 10) / 10, monitors: monitorCount },
    baseline: {
      name: 'GET /v1/monitors?project_id= for the same project (all its monitors in one answer)',
      figures: { page_p50_ms: api.p50, page_p99_ms: api.p99, page_wire_kb: Math.round(api.bytes / 100) / 10 },
    },
    ratio,
    target: { description: 'the project page under 3× the API listing of the same monitors, and under 300 KB on the wire', met },
    notes: [
      `${monitorCount} JOB_BASIC monitors, ${runs} runs each (a full sparkline), one in ten DOWN with an open incident; one request at a time over a fresh connection, Accept-Encoding: gzip, deflate, br.`,
      'Bytes are the status line, headers and body as sent on the wire.',
      `Load average (1 min) when the timing began: ${loadAtTiming.toFixed(1)} on ${String(availableParallelism())} cores; the ratio is the figure to compare, both sides run on the same machine at the same time.`,
    ],
  });
} finally {
  await server.stop();
  dir.remove();
}
