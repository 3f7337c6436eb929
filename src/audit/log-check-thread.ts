import { parentPort, workerData } from 'node:worker_threads';
import { openSqliteDatabase } from '../eventstore/sqlite-database.js';
import type { LogCheckRequest } from './log-check.js';
import { verifyLog } from './verify-log.js';
import { planCompaction } from '../eventstore/log-compaction.js';
import type { WorkerReply } from './worker-client.js';

/** The thread behind LogCheckThread: the embedded log's verification, one request at a time. */
function serve(path: string): void {
  const port = parentPort;
  if (!port) throw new Error('log-check-thread runs as a worker thread');
  const db = openSqliteDatabase(path);
  port.on('message', (request: LogCheckRequest) => {
    let reply: WorkerReply;
    try {
      const value = request.kind === 'verify' ? verifyLog(db) : planCompaction(db, request.limits);
      reply = { id: request.id, ok: true, value };
    } catch (error) {
      reply = { id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(reply);
  });
}

const path: unknown = (workerData as Record<string, unknown> | null)?.['path'];
if (typeof path !== 'string') throw new Error('log-check-thread needs workerData.path');
serve(path);
