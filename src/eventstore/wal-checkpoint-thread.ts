import { closeSync, fdatasyncSync, openSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { openSqliteDatabase } from './sqlite-database.js';
import { WriteGate } from './write-gate.js';

/** What `PRAGMA wal_checkpoint` answers: frames in the WAL (`log`) and how many are copied. */
interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

/**
 * Each pass copies and flushes what was appended during the one before it, so less is left for
 * the gated pass, which every ping arriving meanwhile waits out. Four rather than two, at
 * bench:pings' paced 2,500 pings/s (three interleaved pairs): the server's p99 8.3 / 8.0 / 6.6
 * against 9.1 / 10.4 / 7.9 ms, the load generator's 15.3 / 14.9 / 13.6 against 20.1 / 22.3 / 15.4.
 */
const PASSES_BESIDE_WRITERS = 4;

/**
 * How long a RESTART waits for what holds it back (SQLite's busy timeout on this connection) and,
 * when it had to give up, how long until it tries again. RESTART takes the write lock first and
 * then waits for the readers of older snapshots: a long read in another process (`vigil verify`,
 * a backup) would hold every writer for as long as it waits. With the connection's usual 5 s,
 * every log commit waited ~5 s while such a reader lived; now at most this, once a second.
 */
const RESTART_WAIT_MS = 50;
const RESTART_RETRY_AFTER_MS = 1000;

/**
 * The thread of a WalCheckpointer. Each interval:
 *  1. beside the writers, PASSIVE checkpoints copy what the WAL holds into the database file, and
 *     this thread flushes what they copied to disk (fdatasync on a descriptor of its own);
 *  2. holding the process's write gate, a last PASSIVE copies what was appended meanwhile.
 * Only a WAL copied to its end, with no writer in the middle of adding to it, lets the next writer
 * start it over from its beginning: without the second step the writers always stayed a few
 * frames ahead, and under a steady ping load the WAL grew by ~100 MB a second (2.4 GB in 25 s of
 * bench:pings).
 *
 * Why the flush in step 1: SQLite syncs the database file only in a pass that reaches the WAL's
 * end (until then the WAL still holds every frame copied), and with writers appending that is
 * only ever the gated pass. So the gated pass used to flush all that the first had copied, ~6,000
 * random pages under bench:pings at half of peak, while the writers waited: 20 ms at p50, and
 * the log's commits waited up to 23-36 ms at p99. Flushed beforehand, the gated pass's own sync
 * has only the few hundred pages it copied, and it held the gate ~4.5 ms at p50 (timed inside
 * the server).
 */
function run(path: string, intervalMs: number, gate: WriteGate, restartAfterFrames: number): void {
  const port = parentPort;
  if (!port) throw new Error('wal-checkpoint-thread runs as a worker thread');
  const db = openSqliteDatabase(path, { autocheckpoint: false });
  // Only the RESTART waits on this connection; its PASSIVE checkpoints never do.
  db.pragma(`busy_timeout = ${RESTART_WAIT_MS}`);
  let restartNotBefore = 0;
  // Said once when checkpoints start failing and once when they work again: a full disk fails
  // every interval (five times a second) until space is freed.
  let failing = false;
  // Read-only is enough: on Linux, fdatasync flushes the file's pages whoever wrote them.
  const file = openSync(path, 'r');
  const checkpoint = () => {
    try {
      for (let pass = 0; pass < PASSES_BESIDE_WRITERS; pass++) {
        db.pragma('wal_checkpoint(PASSIVE)');
        fdatasyncSync(file);
      }
      const [finished] = gate.holdAfterWaiters(() => db.pragma('wal_checkpoint(PASSIVE)')) as CheckpointResult[];
      // Writers the gate does not hold (other processes on the file) can keep the WAL from ever
      // being found copied: past this size, RESTART waits for them (briefly, see above) and
      // starts it over. A reader that holds on to an old snapshot keeps it from shrinking.
      if (finished && finished.log > restartAfterFrames && Date.now() >= restartNotBefore) {
        const [restarted] = gate.holdAfterWaiters(() => db.pragma('wal_checkpoint(RESTART)')) as CheckpointResult[];
        restartNotBefore = restarted?.busy ? Date.now() + RESTART_RETRY_AFTER_MS : 0;
      }
      if (failing) console.error('WAL checkpoints work again');
      failing = false;
    } catch (error) {
      // Busy or failing now, maybe not at the next interval; the writers never depend on it.
      if (!failing) console.error('WAL checkpoint failed; trying again every interval', error);
      failing = true;
    }
  };
  const timer = setInterval(checkpoint, intervalMs);
  port.once('message', () => {
    clearInterval(timer);
    checkpoint();
    db.close();
    closeSync(file);
    port.close();
  });
}

const { path, intervalMs, writeGate, restartAfterFrames } = (workerData ?? {}) as Record<string, unknown>;
if (typeof path !== 'string' || typeof intervalMs !== 'number' || typeof restartAfterFrames !== 'number') {
  throw new Error('wal-checkpoint-thread needs workerData.path, intervalMs and restartAfterFrames');
}
run(path, intervalMs, new WriteGate(writeGate instanceof SharedArrayBuffer ? writeGate : undefined), restartAfterFrames);
