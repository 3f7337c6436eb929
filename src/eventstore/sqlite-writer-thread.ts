import { parentPort, workerData } from 'node:worker_threads';
import { openSqliteDatabase } from './sqlite-database.js';
import { type LogWrite, type LogWriteOutcome, SqliteLogWriter } from './sqlite-log-writer.js';
import { WriteGate } from './write-gate.js';

/** A group of writes for the writer thread (or the word to close), and what it answers. */
export type WriterRequest = { writes: LogWrite[]; created: string } | 'close';
export type WriterReply = { ok: true; outcomes: LogWriteOutcome[] } | { ok: false; message: string; code: string | null };

/**
 * The thread that owns the embedded log's writing connection. A commit blocks for its fsync
 * (synchronous = FULL); here that wait keeps this thread busy, not the one answering HTTP.
 */
function serve(path: string, gate: WriteGate, autocheckpointPages: number): void {
  const port = parentPort;
  if (!port) throw new Error('sqlite-writer-thread runs as a worker thread');
  const db = openSqliteDatabase(path);
  db.pragma(`wal_autocheckpoint = ${autocheckpointPages}`);
  const writer = new SqliteLogWriter(db, gate);
  port.on('message', (request: WriterRequest) => {
    if (request === 'close') {
      db.close();
      port.close();
      return;
    }
    let reply: WriterReply;
    try {
      reply = { ok: true, outcomes: writer.commit(request.writes, request.created) };
    } catch (error) {
      const code = error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : null;
      reply = { ok: false, message: error instanceof Error ? error.message : String(error), code };
    }
    port.postMessage(reply);
  });
}

const path: unknown = (workerData as Record<string, unknown> | null)?.['path'];
if (typeof path !== 'string') throw new Error('sqlite-writer-thread needs workerData.path');
const gateBuffer: unknown = (workerData as Record<string, unknown> | null)?.['writeGate'];
const autocheckpointPages: unknown = (workerData as Record<string, unknown> | null)?.['autocheckpointPages'];
if (typeof autocheckpointPages !== 'number' || !Number.isInteger(autocheckpointPages)) throw new Error('sqlite-writer-thread needs workerData.autocheckpointPages');
serve(path, new WriteGate(gateBuffer instanceof SharedArrayBuffer ? gateBuffer : undefined), autocheckpointPages);
