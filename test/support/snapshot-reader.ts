import { parentPort, workerData } from 'node:worker_threads';
import { openSqliteDatabase } from '../../src/eventstore/sqlite-database.js';

/**
 * A reader on another thread (as another process's long read would be) that holds the snapshot it
 * began with until the WalCheckpointer's gated step is over: it then lets its snapshot go while
 * counted as a writer waiting at the gate, so the checkpointer's next gated step (a RESTART) comes
 * after it, whatever the machine's load. Cells of the gate: 0 the lock, 1 the writers waiting.
 */
const { path, gate } = workerData as { path: string; gate: SharedArrayBuffer };
const cells = new Int32Array(gate);
const db = openSqliteDatabase(path);
db.exec('BEGIN');
db.prepare('SELECT COUNT(*) FROM t').get();
Atomics.add(cells, 1, 1);
parentPort!.postMessage('reading');
// Until the gate is let go (the checkpointer's gated PASSIVE): asleep while it is free, or, found
// held already, while it is held.
if (Atomics.wait(cells, 0, 0) === 'not-equal') Atomics.wait(cells, 0, 1);
db.exec('COMMIT');
db.close();
Atomics.sub(cells, 1, 1);
Atomics.notify(cells, 1);
parentPort!.postMessage('done');
