import { parentPort, workerData } from 'node:worker_threads';
import { openSqliteDatabase } from '../eventstore/sqlite-database.js';
import { type CheckpointAdvance, UniqueIndexViolationError } from './read-model-store.js';
import { type EncodedWrites, SqliteDocumentWriter } from './sqlite-document-writer.js';

/** What a bulk load sends its writer thread, and what comes back. */
export interface BulkBatch {
  seq: number;
  writes: EncodedWrites;
  checkpoints: CheckpointAdvance[];
}
export interface BulkBatchDone {
  seq: number;
  error?: { name: string; message: string; projection?: string; unique?: { collection: string; id: string; fields: string[] } };
}
export interface BulkWriterSettings {
  path: string;
  pragmas: string[];
}

const settings = workerData as BulkWriterSettings;
const db = openSqliteDatabase(settings.path, { durability: 'normal' });
for (const pragma of settings.pragmas) db.pragma(pragma);
const writer = new SqliteDocumentWriter(db);
let failed = false;

parentPort!.on('message', (message: BulkBatch | 'close') => {
  if (message === 'close') {
    db.close();
    parentPort!.close();
    return;
  }
  // A batch sent after one that failed must not be committed: it may build on what was refused.
  if (failed) {
    parentPort!.postMessage({ seq: message.seq, error: { name: 'Error', message: 'not committed: an earlier batch of this load failed' } } satisfies BulkBatchDone);
    return;
  }
  try {
    writer.commit(message.writes, message.checkpoints);
    parentPort!.postMessage({ seq: message.seq } satisfies BulkBatchDone);
  } catch (error) {
    failed = true;
    const { name, message: text } = error instanceof Error ? error : { name: 'Error', message: String(error) };
    const projection = error instanceof Error && 'projection' in error && typeof error.projection === 'string' ? error.projection : undefined;
    const unique = error instanceof UniqueIndexViolationError ? { collection: error.collection, id: error.id, fields: [...error.fields] } : undefined;
    parentPort!.postMessage({ seq: message.seq, error: { name, message: text, ...(projection ? { projection } : {}), ...(unique ? { unique } : {}) } } satisfies BulkBatchDone);
  }
});
