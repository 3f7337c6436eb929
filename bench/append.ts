/**
 * Appends to the embedded event store: one at a time (each its own fsync'd transaction, the
 * baseline) against many in flight (group commit), in the same run on the same machine.
 *   npm run bench:append [-- --events 20000 --concurrency 64]
 */
import { parseArgs } from 'node:util';
import { openSqliteDatabase } from '../src/eventstore/sqlite-database.js';
import { SqliteEventStore } from '../src/eventstore/sqlite-event-store.js';
import { makeTempDir } from '../test/support/temp-dir.js';
import { recordResult } from './results.js';

const { values } = parseArgs({ options: { events: { type: 'string', default: '20000' }, concurrency: { type: 'string', default: '64' } } });
const total = Number(values.events);
const concurrency = Number(values.concurrency);
const dir = makeTempDir('vigil-bench-append');
const db = openSqliteDatabase(`${dir.path}/vigil.db`);
const store = new SqliteEventStore(db);
const event = (n: number) => ({ type: 'PingReceived', data: { monitor_id: `m-${n % 1000}`, event: 'SUCCESS', received_at: new Date().toISOString() } });

async function sequential(count: number): Promise<number> {
  const started = performance.now();
  for (let n = 0; n < count; n++) await store.appendToStream(`seq-${n % 1000}`, [event(n)]);
  return count / ((performance.now() - started) / 1000);
}

async function concurrent(count: number): Promise<{ rate: number; p50: number; p99: number; commits: number }> {
  const latencies: number[] = [];
  const commitsBefore = store.commitCount;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const n = next++;
        const t0 = performance.now();
        await store.appendToStream(`con-${n % 1000}`, [event(n)]);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  return { rate: count / seconds, p50: at(0.5), p99: at(0.99), commits: store.commitCount - commitsBefore };
}

const baselineCount = Math.max(200, Math.floor(total / 10));
const baseline = await sequential(baselineCount);
const grouped = await concurrent(total);
console.log(`machine: ${process.platform} ${process.arch}, node ${process.version}, synchronous=FULL, WAL`);
console.log(`one at a time (baseline): ${baselineCount} appends, ${baseline.toFixed(0)} appends/s`);
console.log(
  `group commit, ${concurrency} in flight: ${total} appends, ${grouped.rate.toFixed(0)} appends/s, ` +
    `p50 ${grouped.p50.toFixed(2)} ms, p99 ${grouped.p99.toFixed(2)} ms, ${grouped.commits} transactions`,
);
console.log(`ratio: ${(grouped.rate / baseline).toFixed(1)}x the baseline`);
await store.close();
db.close();
dir.remove();

recordResult({
  name: 'append',
  date: new Date().toISOString(),
  command: `node --import=tsx bench/append.ts --events ${total} --concurrency ${concurrency}`,
  figures: {
    appends: total,
    appends_per_s: Math.round(grouped.rate),
    p50_ms: Number(grouped.p50.toFixed(2)),
    p99_ms: Number(grouped.p99.toFixed(2)),
    transactions: grouped.commits,
  },
  baseline: { name: 'one append at a time', figures: { appends: baselineCount, appends_per_s: Math.round(baseline) } },
  ratio: Number((grouped.rate / baseline).toFixed(1)),
  notes: [`${concurrency} appends in flight share each fsync'd transaction (group commit); synchronous=FULL, WAL.`],
});
