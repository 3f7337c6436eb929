/**
 * How large the embedded file's WAL grows under a writer that never stops, with each part of the
 * WalCheckpointer on and off, side by side (the largest WAL seen after any commit):
 *   1. writers of this process, which take turns through the write gate: the gated last PASSIVE
 *      step on (the checkpointer holds the writers' gate) and off (it holds a gate of its own);
 *   2. writers it cannot hold at the gate (another process on the file): a RESTART once the WAL is
 *      past --restart-after frames on, and off.
 * The writer commits --commit-kb at a time, --mb in all, yielding now and then: for a moment to its
 * thread's other work, or, outside the gate, for a millisecond as another process's requests would.
 * How soon the checkpointer gets in between such commits depends on the machine and its load, so
 * this is a benchmark, not a spec (test/eventstore/wal-checkpointer.spec.ts checks the steps).
 *   npm run bench:wal [-- --mb 32 --commit-kb 40 --interval-ms 10 --restart-after 1000]
 */
import { statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { openSqliteDatabase } from '../src/eventstore/sqlite-database.js';
import { WalCheckpointer } from '../src/eventstore/wal-checkpointer.js';
import { WriteGate } from '../src/eventstore/write-gate.js';
import { makeTempDir } from '../test/support/temp-dir.js';

const { values } = parseArgs({
  options: {
    mb: { type: 'string', default: '32' },
    'commit-kb': { type: 'string', default: '40' },
    'interval-ms': { type: 'string', default: '10' },
    'restart-after': { type: 'string', default: '1000' },
  },
});
const ROW = 'x'.repeat(4000);
const rowsPerCommit = Math.max(1, Math.round((Number(values['commit-kb']) * 1000) / ROW.length));
const commits = Math.round((Number(values.mb) * 1_000_000) / (rowsPerCommit * ROW.length));
const intervalMs = Number(values['interval-ms']);
const restartAfter = Number(values['restart-after']);
const NEVER = 1_000_000_000;

/** The largest WAL (bytes) seen after any commit of a steady writer, through `writerGate` or none. */
async function largestWal(writerGate: WriteGate | null, checkpointerGate: WriteGate, restartAfterFrames: number): Promise<number> {
  const dir = makeTempDir('vigil-bench-wal');
  const path = `${dir.path}/vigil.db`;
  const db = openSqliteDatabase(path, { autocheckpoint: false });
  const checkpointer = WalCheckpointer.start(path, { intervalMs, writeGate: checkpointerGate, restartAfterFrames });
  try {
    db.exec('CREATE TABLE t (doc TEXT)');
    const insert = db.prepare('INSERT INTO t (doc) VALUES (?)');
    const commit = db.transaction(() => {
      for (let i = 0; i < rowsPerCommit; i++) insert.run(ROW);
    });
    const write = () => (writerGate ? writerGate.hold(() => commit()) : commit());
    // Once the checkpointer's thread is at work (it copied a first commit into the file).
    write();
    for (const until = Date.now() + 10_000; statSync(path).size <= rowsPerCommit * ROW.length && Date.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 10));
    let largest = 0;
    for (let n = 0; n < commits; n++) {
      write();
      if (n % 8 === 0) await new Promise((resolve) => (writerGate ? setImmediate(resolve) : setTimeout(resolve, 1)));
      largest = Math.max(largest, statSync(`${path}-wal`).size);
    }
    return largest;
  } finally {
    await checkpointer.stop();
    db.close();
    dir.remove();
  }
}

const mb = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;
console.log(`${commits} commits of ${rowsPerCommit} rows (~${Math.round((rowsPerCommit * ROW.length) / 1000)} KB), checkpoints every ${intervalMs} ms; load average ${loadavg()[0]!.toFixed(1)}`);
const shared = new WriteGate();
const rows: [string, number, number][] = [
  ['writers through the gate: gated last PASSIVE', await largestWal(shared, shared, NEVER), await largestWal(new WriteGate(), new WriteGate(), NEVER)],
  [`writers outside the gate: RESTART past ${restartAfter} frames`, await largestWal(null, new WriteGate(), restartAfter), await largestWal(null, new WriteGate(), NEVER)],
];
console.log(`${'largest WAL'.padEnd(58)}${'on'.padStart(10)}${'off'.padStart(10)}`);
for (const [what, on, off] of rows) console.log(`${what.padEnd(58)}${mb(on).padStart(10)}${mb(off).padStart(10)}`);
