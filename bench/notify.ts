/**
 * From incident opened to webhook received: 1,000 monitors each fail once (paced), every incident
 * pages one webhook channel on a local receiver, all roles in one process as in `npm start`.
 * The baseline is a direct POST of the same size to the same receiver, in the same run.
 *   npm run bench:notify [-- --incidents 1000 --rate 100]
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { loadConfig } from '../src/main/config.js';
import { startVigil } from '../src/main/vigil.js';
import { makeTempDir } from '../test/support/temp-dir.js';
import { TestClock, TestVigil } from '../test/support/test-vigil.js';
import { recordResult } from './results.js';

const { values } = parseArgs({ options: { incidents: { type: 'string', default: '1000' }, rate: { type: 'string', default: '100' } } });
const count = Number(values.incidents);
const rate = Number(values.rate);

const received = new Map<string, number>();
let onReceived: () => void = () => undefined;
const receiver = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const at = Date.now();
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (body.event === 'incident.opened') received.set(body.incident.id, at - Date.parse(body.incident.started_at));
    if (body.probe) received.set(body.probe, at - body.sent);
    response.writeHead(204).end();
    onReceived();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

const percentiles = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? NaN };
};

// Baseline: the same receiver, posted to directly.
for (let i = 0; i < 200; i++) {
  await fetch(receiverUrl, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ probe: `p${i}`, sent: Date.now(), pad: 'x'.repeat(900) }) });
}
const baseline = percentiles([...received.entries()].filter(([k]) => k.startsWith('p')).map(([, v]) => v));
received.clear();

const dir = makeTempDir('vigil-bench-notify');
const env = { VIGIL_DATA_DIR: dir.path, VIGIL_PRIVATE_TARGETS: 'allow', PORT: '0', HOST: '127.0.0.1', VIGIL_LOG_LEVEL: 'silent', VIGIL_RATE_LIMIT_REQUESTS: '1000000' };
const seed = await TestVigil.reopen(dir.path, env, TestClock.atWallTime());
const key = await seed.accountKey(await seed.user('bench@example.com'), ['manage_projects', 'manage_monitors', 'manage_notifications']);
const projectId = (await seed.request('POST', '/v1/projects', { key, body: { name: 'Bench' } })).body.project.id;
const channel = (await seed.request('POST', '/v1/notification-channels', { key, body: { project_id: projectId, name: 'hook', type: 'WEBHOOK', config: { url: receiverUrl } } })).body.channel.id;
const monitors: string[] = [];
for (let i = 0; i < count; i++) {
  const created = await seed.request('POST', '/v1/monitors', {
    key,
    body: { project_id: projectId, name: `m${i}`, type: 'JOB_BASIC', schedule: 'x', notification_channel_ids: [channel] },
  });
  monitors.push(created.body.monitor.id);
}
await seed.stopKeepingData();

const vigil = await startVigil(loadConfig(env), { roles: ['api', 'projector', 'timer', 'checker', 'notifier'], logger: pino({ level: 'silent' }) });
const allArrived = new Promise<void>((resolve) => {
  onReceived = () => received.size >= count && resolve();
});
const started = Date.now();
for (let i = 0; i < count; i++) {
  const due = started + (i * 1000) / rate;
  if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
  void fetch(`${vigil.url}/v1/ping/${monitors[i]}/fail`);
}
await Promise.race([allArrived, new Promise((resolve) => setTimeout(resolve, 60_000))]);
const measured = percentiles([...received.values()]);
await vigil.stop();
receiver.close();
dir.remove();

console.log(`machine: ${process.platform} ${process.arch}, node ${process.version}; ${count} incidents at ${rate}/s, notifier poll ${loadConfig(env).notify.pollMs} ms`);
console.log(`baseline, direct POST to the receiver: p50 ${baseline.p50} ms, p99 ${baseline.p99} ms`);
console.log(`incident opened → webhook received: p50 ${measured.p50} ms, p99 ${measured.p99} ms, max ${measured.max} ms (${received.size} of ${count} received)`);

recordResult({
  name: 'notify',
  date: new Date().toISOString(),
  command: `node --import=tsx bench/notify.ts --incidents ${count} --rate ${rate}`,
  figures: { incidents: count, received: received.size, p50_ms: measured.p50, p99_ms: measured.p99, max_ms: measured.max },
  baseline: { name: 'direct POST to the receiver', figures: { p50_ms: baseline.p50, p99_ms: baseline.p99 } },
  ratio: Number((measured.p50 / Math.max(baseline.p50, 1)).toFixed(1)),
  notes: [
    `From IncidentOpened's started_at to the webhook's arrival, all roles in one process, notifier poll ${loadConfig(env).notify.pollMs} ms.`,
    'The ratio is p50 over the baseline p50 (taken as at least 1 ms, the clock step).',
  ],
});
