/**
 * 100,000 heartbeat monitors whose deadlines fall over two minutes, all missed; the timer and
 * projector run as in `npm start`. Prints how late each MISSED was recorded against its deadline
 * (p50/p99/max), and the process's peak RSS and CPU while the deadlines fell due. The baseline is
 * the same process idle for the same time before the deadlines start.
 *   npm run bench:timer [-- --monitors 100000 --spread-seconds 120]
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { MONITOR_DEFAULTS } from '../src/domain/monitors/monitor-config.js';
import { loadConfig } from '../src/main/config.js';
import { startVigil } from '../src/main/vigil.js';
import { makeTempDir } from '../test/support/temp-dir.js';

const { values } = parseArgs({ options: { monitors: { type: 'string', default: '100000' }, 'spread-seconds': { type: 'string', default: '120' } } });
const count = Number(values.monitors);
const spreadMs = Number(values['spread-seconds']) * 1000;
const dir = makeTempDir('vigil-bench-timer');
const env = { VIGIL_DATA_DIR: dir.path, PORT: '0', HOST: '127.0.0.1', VIGIL_LOG_LEVEL: 'silent' };

// Seed: MonitorCreated events as the decider writes them, deadlines from now+leadMs over the spread.
const seeding = await startVigil(loadConfig(env), { roles: ['projector'], logger: pino({ level: 'silent' }) });
const leadMs = 20_000 + count / 5;
const start = Date.now() + leadMs;
const projectId = randomUUID();
let pending: Promise<unknown>[] = [];
for (let i = 0; i < count; i++) {
  const monitorId = randomUUID();
  const due = new Date(start + Math.floor((i * spreadMs) / count));
  const config = { ...MONITOR_DEFAULTS, name: `m${i}`, slug: `m${i}`, type: 'JOB_HEARTBEAT', schedule: '1h', grace_period_seconds: 0, uptime: null };
  pending.push(
    seeding.stores.events.appendToStream(`monitor-${monitorId}`, [
      {
        type: 'MonitorCreated',
        data: { monitor_id: monitorId, project_id: projectId, config, created_at: new Date(due.getTime() - 3_600_000).toISOString(), next_expected_at: due.toISOString() },
      },
    ]),
  );
  if (pending.length === 2000) {
    await Promise.all(pending);
    pending = [];
  }
}
await Promise.all(pending);
await seeding.projector!.waitForPosition(await seeding.stores.events.headPosition(), 600_000);
await seeding.stop();
const seeded = Date.now();

const vigil = await startVigil(loadConfig(env), { roles: ['projector', 'timer'], logger: pino({ level: 'silent' }) });
const sample = () => ({ cpu: process.cpuUsage(), at: performance.now() });
let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
const idleFor = Math.max(1000, start - Date.now() - 1000);
const idleStart = sample();
await new Promise((resolve) => setTimeout(resolve, idleFor));
const idleCpu = process.cpuUsage(idleStart.cpu);
const idleRss = peakRss;
const busyStart = sample();
const headBefore = await vigil.stores.events.headPosition();
// Wait until every monitor has its miss recorded (or give up after the spread plus two minutes).
const giveUp = Date.now() + spreadMs + 120_000 + leadMs;
let missed = 0;
while (Date.now() < giveUp) {
  missed = await vigil.stores.readModels.count('monitors', { consecutive_misses: 1 });
  if (missed >= count) break;
  await new Promise((resolve) => setTimeout(resolve, 500));
}
const busyCpu = process.cpuUsage(busyStart.cpu);
const busySeconds = (performance.now() - busyStart.at) / 1000;
clearInterval(sampler);

const lateness: number[] = [];
for (let after = headBefore; ; ) {
  const page = await vigil.stores.events.readAll({ after, maxCount: 5000 });
  if (page.length === 0) break;
  after = page.at(-1)!.position;
  for (const event of page) if (event.type === 'CheckInMissed') lateness.push(Date.parse(event.created) - Date.parse(String(event.data['deadline_at'])));
}
lateness.sort((a, b) => a - b);
const at = (q: number) => lateness[Math.min(lateness.length - 1, Math.floor(q * lateness.length))] ?? NaN;
await vigil.stop();
dir.remove();

const cpuPercent = (usage: NodeJS.CpuUsage, seconds: number) => (((usage.user + usage.system) / 1e6 / seconds) * 100).toFixed(0);
console.log(`machine: ${process.platform} ${process.arch}, node ${process.version}; seeded ${count} monitors in ${((seeded - (start - leadMs)) / 1000).toFixed(0)} s`);
console.log(`MISSED recorded: ${lateness.length} of ${count} (monitors marked: ${missed})`);
console.log(`lateness vs deadline: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${lateness.at(-1)} ms`);
console.log(`baseline, idle before the deadlines (${(idleFor / 1000).toFixed(0)} s): CPU ${cpuPercent(idleCpu, idleFor / 1000)}%, peak RSS ${(idleRss / 2 ** 20).toFixed(0)} MiB`);
console.log(`while ${count} deadlines fell due over ${spreadMs / 1000} s: CPU ${cpuPercent(busyCpu, busySeconds)}% over ${busySeconds.toFixed(0)} s, peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MiB`);
