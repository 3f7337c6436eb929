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
 * The thread of a WalCheckpointer. Each interval, two PASSIVE checkpoints on its own connection:
 * the first beside the writers, copying what the WAL holds; the second holding the process's write
 * gate, copying what was appended meanwhile and what readers' snapshots kept the first from
 * copying (10–22 ms at p50 under bench:pings: the writers' remaining stall). Only a WAL copied to
 * its end, with no writer in the
 * middle of adding to it, lets the next writer start it over from its beginning: without the second
 * step the writers always stayed a few frames ahead, and under a steady ping load the WAL grew
 * by ~100 MB a second (2.4 GB in 25 s of bench:pings).
 */
function run(path: string, intervalMs: number, gate: WriteGate, restartAfterFrames: number): void {
  const port = parentPort;
  if (!port) throw new Error('wal-checkpoint-thread runs as a worker thread');
  const db = openSqliteDatabase(path, { autocheckpoint: false });
  const checkpoint = () => {
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
      const [finished] = gate.hold(() => db.pragma('wal_checkpoint(PASSIVE)')) as CheckpointResult[];
      // Writers the gate does not hold (other processes on the file) can keep the WAL from ever
      // being found copied: past this size, RESTART waits for them (SQLite's busy timeout) and
      // starts it over. A reader that holds on to an old snapshot can still keep it from shrinking.
      if (finished && finished.log > restartAfterFrames) gate.hold(() => db.pragma('wal_checkpoint(RESTART)'));
    } catch (error) {
      // Busy or failing now, maybe not at the next interval; the writers never depend on it.
      console.error('WAL checkpoint failed', error);
    }
  };
  const timer = setInterval(checkpoint, intervalMs);
  port.once('message', () => {
    clearInterval(timer);
    checkpoint();
    db.close();
    port.close();
  });
}

const { path, intervalMs, writeGate, restartAfterFrames } = (workerData ?? {}) as Record<string, unknown>;
if (typeof path !== 'string' || typeof intervalMs !== 'number' || typeof restartAfterFrames !== 'number') {
  throw new Error('wal-checkpoint-thread needs workerData.path, intervalMs and restartAfterFrames');
}
run(path, intervalMs, new WriteGate(writeGate instanceof SharedArrayBuffer ? writeGate : undefined), restartAfterFrames);
