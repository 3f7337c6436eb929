import { parentPort, workerData } from 'node:worker_threads';
import { openSqliteDatabase } from './sqlite-database.js';

/** The thread of a WalCheckpointer: a PASSIVE checkpoint on its own connection every interval. */
function run(path: string, intervalMs: number): void {
  const port = parentPort;
  if (!port) throw new Error('wal-checkpoint-thread runs as a worker thread');
  const db = openSqliteDatabase(path, { autocheckpoint: false });
  const checkpoint = () => {
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
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

const { path, intervalMs } = (workerData ?? {}) as { path?: unknown; intervalMs?: unknown };
if (typeof path !== 'string' || typeof intervalMs !== 'number') throw new Error('wal-checkpoint-thread needs workerData.path and workerData.intervalMs');
run(path, intervalMs);
