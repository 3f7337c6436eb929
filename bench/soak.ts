/**
 * What a year looks like: a few hundred heartbeat monitors pinged at their interval for months of
 * simulated time. The clock is the server's injected one, moved an interval at a time: every
 * ping, missed deadline, retention drop and compaction happens as it would, only the idle time
 * between them is skipped. The server runs in this process as `npm start` runs it (the api, the
 * projector, the timer), its compactor driven once a simulated day. Prints, per simulated month:
 * the store's size on disk (file + WAL, after a checkpoint), RSS, the ping p99 and the CPU per
 * ping, beside the first month's; and whether `verify` passes at the end.
 *   npm run bench:soak [-- --monitors 300 --interval-minutes 60 --months 12 --retention 100]
 * The baseline is the first month: every figure must stay flat after it.
 */
import { statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { verifyLog } from '../src/audit/verify-log.js';
import { ALL_SCOPES, TestVigil } from '../test/support/test-vigil.js';
import { recordResult } from './results.js';
import { percentiles } from './stats.js';

const { values } = parseArgs({
  options: {
    monitors: { type: 'string', default: '300' },
    'interval-minutes': { type: 'string', default: '60' },
    months: { type: 'string', default: '12' },
    retention: { type: 'string', default: '100' },
  },
});
const monitorCount = Number(values.monitors);
const intervalMs = Number(values['interval-minutes']) * 60_000;
const months = Number(values.months);
const MONTH_MS = 30 * 24 * 3_600_000;
const DAY_MS = 24 * 3_600_000;

const vigil = await TestVigil.start({ logger: (await import('pino')).pino({ level: 'warn' }) });
const key = await vigil.accountKey(await vigil.user('soak@example.com'), ALL_SCOPES);
const projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Soak' } })).body.project.id;
const monitors: string[] = [];
for (let m = 0; m < monitorCount; m += 1) {
  const body = { project_id: projectId, name: `Job ${m}`, type: 'JOB_HEARTBEAT', schedule: `${Number(values['interval-minutes'])}m`, grace_period_seconds: 300, retention_count: Number(values.retention) };
  const created = await vigil.request('POST', '/v1/monitors', { key, body });
  if (created.status !== 201) throw new Error(`could not create a monitor: ${created.text}`);
  monitors.push(created.body.monitor.id);
}
const db = vigil.vigil.stores.sqliteDb!;
const storeBytes = () => {
  db.pragma('wal_checkpoint(TRUNCATE)');
  return statSync(`${vigil.dataDir}/vigil.db`).size + (statSync(`${vigil.dataDir}/vigil.db-wal`, { throwIfNoEntry: false })?.size ?? 0);
};

interface Month { month: number; pings: number; store_mib: number; rss_mib: number; ping_p99_ms: number; cpu_us_per_ping: number; log_rows: number }
const rows: Month[] = [];
let sinceCompaction = 0;
for (let month = 1; month <= months; month += 1) {
  const latencies: number[] = [];
  const cpuBefore = process.cpuUsage();
  let pings = 0;
  for (let elapsed = 0; elapsed < MONTH_MS; elapsed += intervalMs) {
    vigil.clock.advance(intervalMs);
    // A tenth of the monitors at a time: jobs of one crontab do not all ping in the same millisecond.
    for (let from = 0; from < monitors.length; from += Math.ceil(monitors.length / 10)) {
      await Promise.all(monitors.slice(from, from + Math.ceil(monitors.length / 10)).map(async (id) => {
        const started = performance.now();
        const answer = await vigil.request('GET', `/v1/ping/${id}`);
        latencies.push(performance.now() - started);
        if (answer.status !== 200) throw new Error(`ping answered ${answer.status}`);
      }));
    }
    pings += monitors.length;
    await vigil.tick();
    sinceCompaction += intervalMs;
    if (sinceCompaction >= DAY_MS) {
      sinceCompaction = 0;
      // As the server's loop would have, many times over, during that simulated day.
      for (let outcome = await vigil.vigil.compactor!.compactOnce(); ; outcome = await vigil.vigil.compactor!.compactOnce()) {
        if (process.env["SOAK_DEBUG"]) console.log(outcome);
        if (outcome.kind === "refused") throw new Error(`compaction refused: ${outcome.reason}`);
        if (outcome.kind !== "compacted") break;
      }
    }
  }
  const cpu = process.cpuUsage(cpuBefore);
  const row: Month = {
    month,
    pings,
    store_mib: storeBytes() / 2 ** 20,
    rss_mib: process.memoryUsage().rss / 2 ** 20,
    ping_p99_ms: percentiles(latencies).p99,
    cpu_us_per_ping: (cpu.user + cpu.system) / pings,
    log_rows: db.prepare<[], { n: number }>('SELECT count(*) AS n FROM es_events').get()!.n,
  };
  rows.push(row);
  console.log(`month ${String(month).padStart(2)}: ${row.pings} pings, store ${row.store_mib.toFixed(1)} MiB, RSS ${row.rss_mib.toFixed(0)} MiB, ping p99 ${row.ping_p99_ms.toFixed(2)} ms, CPU ${row.cpu_us_per_ping.toFixed(0)} µs/ping, ${row.log_rows} log rows`);
}
const verified = verifyLog(db);
console.log(`verify: ${verified.ok ? 'ok' : `broken: ${verified.first_break?.reason}`} (${verified.events_checked} events checked)`);
await vigil.stop();

const first = rows[0]!;
const last = rows.at(-1)!;
const figures = (m: Month) => ({ store_mib: m.store_mib, rss_mib: m.rss_mib, ping_p99_ms: m.ping_p99_ms, cpu_us_per_ping: m.cpu_us_per_ping, log_rows: m.log_rows });
recordResult({
  name: 'soak',
  date: new Date().toISOString(),
  command: `npm run bench:soak -- --monitors ${monitorCount} --interval-minutes ${values['interval-minutes']} --months ${months} --retention ${values.retention}`,
  figures: figures(last),
  baseline: { name: 'the first simulated month', figures: figures(first) },
  ratio: last.store_mib / first.store_mib,
  target: { description: 'store size, RSS and CPU per ping flat after the first month, and verify passing', met: verified.ok && last.store_mib <= first.store_mib * 1.1 && last.cpu_us_per_ping <= first.cpu_us_per_ping * 1.25 },
  notes: [
    `${monitorCount} heartbeat monitors pinged every ${values['interval-minutes']} minutes with retention ${values.retention}: ${first.pings} pings a simulated month, ${months} months.`,
    ...rows.map((m) => `month ${m.month}: store ${m.store_mib.toFixed(1)} MiB, RSS ${m.rss_mib.toFixed(0)} MiB, ping p99 ${m.ping_p99_ms.toFixed(2)} ms, CPU ${m.cpu_us_per_ping.toFixed(0)} µs per ping, ${m.log_rows} log rows`),
    `verify at the end: ${verified.ok ? 'passes' : `fails (${verified.first_break?.reason})`}.`,
  ],
});
