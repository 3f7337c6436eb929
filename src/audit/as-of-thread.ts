import { parentPort, workerData } from 'node:worker_threads';
import { openSqliteDatabase } from '../eventstore/sqlite-database.js';
import { SqliteEventStore } from '../eventstore/sqlite-event-store.js';
import { SqliteReadModelStore } from '../readstore/sqlite-read-model-store.js';
import type { AsOfRequest } from './as-of-reader.js';
import type { WorkerReply } from './worker-client.js';
import { incidentsAsOf, monitorAsOf } from './as-of.js';

/**
 * The thread that answers `as_of` (see AsOfThread), on a connection of its own to the embedded
 * file, which it only reads. One query at a time: each runs to the end before the next message.
 */
function serve(path: string): void {
  const port = parentPort;
  if (!port) throw new Error('as-of-thread runs as a worker thread');
  const db = openSqliteDatabase(path);
  const readModels = new SqliteReadModelStore(db);
  const events = new SqliteEventStore(db);
  let queue = Promise.resolve();
  port.on('message', (request: AsOfRequest) => {
    queue = queue.then(async () => {
      let reply: WorkerReply;
      try {
        const value =
          request.kind === 'incidents'
            ? await incidentsAsOf(readModels, request.filter, request.asOf, request.page)
            : await monitorAsOf(events, request.monitorId, request.asOf);
        reply = { id: request.id, ok: true, value };
      } catch (error) {
        reply = { id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) };
      }
      port.postMessage(reply);
    });
  });
}

const path: unknown = (workerData as Record<string, unknown> | null)?.['path'];
if (typeof path !== 'string') throw new Error('as-of-thread needs workerData.path');
serve(path);
