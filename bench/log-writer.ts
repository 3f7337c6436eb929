/**
 * Where a ping's append goes inside the embedded log's writer (a diagnostic; not in `npm run bench`).
 * SqliteLogWriter commits groups of 64 pings over 200 streams, each a monitor's ping stream behind
 * a check of its monitor stream, as bench:pings' peak makes them. Variants in the same run:
 *   - as Vigil runs: synchronous = FULL, each ping stream kept to its newest 1,000 (retention);
 *   - without retention (the baseline): no old event is blanked on each append;
 *   - synchronous = NORMAL: the same without the fsync on each commit (not safe; for the split only).
 * The WAL is not checkpointed meanwhile (in the server a thread of its own does that).
 *   npm run bench:log-writer [-- --groups 400]
 */
import { parseArgs } from 'node:util';
import { openSqliteDatabase } from '../src/eventstore/sqlite-database.js';
import { type LogWrite, SqliteLogWriter } from '../src/eventstore/sqlite-log-writer.js';
import { makeTempDir } from '../test/support/temp-dir.js';

const { values } = parseArgs({ options: { groups: { type: 'string', default: '400' } } });
const GROUPS = Number(values.groups);
const GROUP_SIZE = 64;
const STREAMS = 200;
const RETENTION = 1000;

/** A PingReceived as the decider writes it, ~600 bytes of JSON. */
const ping = {
  monitor_id: 'm', project_id: 'p', event: 'SUCCESS', run_id: null, exit_code: null, duration_ms: null, message: null, payload: null,
  payload_truncated: false, payload_bytes: null, request_ip: '127.0.0.1', request_ua: 'autocannon', ping_id: '019aa0c0-0000-7000-8000-000000000000',
  received_at: new Date().toISOString(), total_pings_received: 1, retention_count: RETENTION, duration_assertion: null, started_at: null, evaluated: true,
  closed_start_ping_id: null, consecutive_failures: 0, consecutive_misses: 0, last_success_at: null, last_checkin_at: null, next_expected_at: null,
};

function microsecondsPerPing(variant: { durability: 'full' | 'normal'; retention: boolean }): number {
  const dir = makeTempDir('vigil-bench-log-writer');
  const db = openSqliteDatabase(`${dir.path}/vigil.db`, { durability: variant.durability, autocheckpoint: false });
  const writer = new SqliteLogWriter(db);
  const now = () => new Date().toISOString();
  const revisions = new Array<number>(STREAMS).fill(-1);
  if (variant.retention) writer.commit(Array.from({ length: STREAMS }, (_, s): LogWrite => ({ kind: 'setMaxCount', streamName: `pings-${s}`, maxCount: RETENTION })), now());
  const group = (): LogWrite[] =>
    Array.from({ length: GROUP_SIZE }, (): LogWrite => {
      const s = Math.floor(Math.random() * STREAMS);
      const expectedRevision = revisions[s] === -1 ? 'no_stream' : revisions[s]!;
      revisions[s]! += 1;
      return {
        kind: 'appendAll',
        appends: [
          { streamName: `monitor-${s}`, events: [], expectedRevision: 'any' },
          { streamName: `pings-${s}`, events: [{ type: 'PingReceived', data: ping, metadata: { kind: 'system' } }], expectedRevision },
        ],
      };
    });
  // Past the retention window first, so that every measured append pushes an old event out.
  for (let i = 0; i < (STREAMS * RETENTION * 1.2) / GROUP_SIZE; i++) writer.commit(group(), now());
  const started = performance.now();
  for (let i = 0; i < GROUPS; i++) writer.commit(group(), now());
  const elapsed = performance.now() - started;
  db.close();
  dir.remove();
  return (elapsed * 1000) / (GROUPS * GROUP_SIZE);
}

const variants = [
  { name: 'as Vigil runs (FULL, retention)', durability: 'full', retention: true },
  { name: 'without retention (baseline)', durability: 'full', retention: false },
  { name: 'NORMAL, retention (no fsync)', durability: 'normal', retention: true },
] as const;
const measured = new Map<string, number[]>(variants.map((v) => [v.name, []]));
// Interleaved, twice: the machine's speed drifts between runs more than the variants differ.
for (let round = 0; round < 2; round++) for (const v of variants) measured.get(v.name)!.push(microsecondsPerPing(v));
console.log(`${GROUPS} groups of ${GROUP_SIZE} pings over ${STREAMS} streams (retention ${RETENTION}), best of 2 interleaved runs:`);
const best = (name: string) => Math.min(...measured.get(name)!);
const baseline = best(variants[1].name);
for (const v of variants) console.log(`  ${v.name.padEnd(34)} ${best(v.name).toFixed(1).padStart(6)} µs per ping   ${(best(v.name) / baseline).toFixed(2)}x the baseline`);
