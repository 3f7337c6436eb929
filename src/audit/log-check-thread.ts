import { parentPort, workerData } from 'node:worker_threads';
import { openSqliteDatabase } from '../eventstore/sqlite-database.js';
import type { LogCheckRequest, LogHead } from './log-check.js';
import { verifyLog } from './verify-log.js';
import { planCompaction } from '../eventstore/log-compaction.js';
import type { WorkerReply } from './worker-client.js';

/** The thread behind LogCheckThread: the embedded log's head and its verification, one request at a time. */
function serve(path: string): void {
  const port = parentPort;
  if (!port) throw new Error('log-check-thread runs as a worker thread');
  const db = openSqliteDatabase(path);
  const head = (): LogHead => {
    const row = db.prepare<[], { position: number; created: string; hash: string; chain: string }>('SELECT position, created, hash, chain FROM es_events ORDER BY position DESC LIMIT 1').get();
    return row ? { position: row.position, time: row.created, hash: row.hash, chain: row.chain } : { position: 0, time: null, hash: null, chain: null };
  };
  port.on('message', (request: LogCheckRequest) => {
    let reply: WorkerReply;
    try {
      const value = request.kind === 'head' ? head() : request.kind === 'verify' ? verifyLog(db) : planCompaction(db, request.limits);
      reply = { id: request.id, ok: true, value };
    } catch (error) {
      reply = { id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(reply);
  });
}

const path: unknown = workerData?.['path'];
if (typeof path !== 'string') throw new Error('log-check-thread needs workerData.path');
serve(path);
