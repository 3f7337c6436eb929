import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../eventstore/module-worker.js';
import { type CheckpointAdvance, CheckpointConflictError, UniqueIndexViolationError } from './read-model-store.js';
import type { BulkBatch, BulkBatchDone, BulkWriterSettings } from './sqlite-bulk-writer-thread.js';
import type { EncodedWrites } from './sqlite-document-writer.js';

/** A batch handed to the thread and not yet known to be committed. */
interface SentBatch {
  writes: EncodedWrites;
  /**
   * Where each document is in `writes`, by id, for the collections asked about so far: made on the
   * first question, because a rebuild never asks about most (every audit entry is new).
   */
  index: Map<string, Map<string, number>>;
  committed: Promise<void>;
}

/**
 * Batches the thread may hold at once. With one, the loader waited whenever a commit ran long (a
 * WAL checkpoint every few batches) although the thread kept up on average; a second absorbs that.
 */
const MAX_IN_FLIGHT = 2;

/**
 * A bulk load's writes, committed on a thread of their own (sqlite-bulk-writer-thread.ts, its own
 * connection to the file), so that SQLite's work overlaps with the projections computing the next
 * batches. Up to MAX_IN_FLIGHT batches are in flight; until the thread has committed them, their
 * documents are answered from here, so the loading side reads its own writes as if they were
 * committed. A batch that fails (a checkpoint moved by someone else, a unique index) fails a later
 * send or drain, and the thread commits nothing after it.
 */
export class SqliteBulkWriter {
  private seq = 0;
  /** Oldest first. */
  private readonly inFlight: SentBatch[] = [];
  private readonly waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  private readonly exited: Promise<void>;

  private constructor(private readonly thread: Worker) {
    this.exited = new Promise((resolve) => thread.once('exit', () => resolve()));
    thread.on('message', (done: BulkBatchDone) => {
      const waiter = this.waiting.get(done.seq);
      this.waiting.delete(done.seq);
      if (!done.error) waiter?.resolve();
      else if (done.error.name === 'CheckpointConflictError') waiter?.reject(new CheckpointConflictError(done.error.projection ?? 'unknown'));
      else if (done.error.unique) waiter?.reject(new UniqueIndexViolationError(done.error.unique.collection, done.error.unique.id, done.error.unique.fields));
      else waiter?.reject(Object.assign(new Error(done.error.message), { name: done.error.name }));
    });
    thread.on('error', (error) => {
      for (const waiter of this.waiting.values()) waiter.reject(error);
      this.waiting.clear();
    });
  }

  static start(settings: BulkWriterSettings): SqliteBulkWriter {
    return new SqliteBulkWriter(startModuleWorker(import.meta.url, 'sqlite-bulk-writer-thread', settings));
  }

  /** Hands a batch over once fewer than MAX_IN_FLIGHT are uncommitted; resolves when it is on its way. */
  async send(writes: EncodedWrites, checkpoints: CheckpointAdvance[]): Promise<void> {
    while (this.inFlight.length >= MAX_IN_FLIGHT) await this.settleOldest();
    const seq = ++this.seq;
    const committed = new Promise<void>((resolve, reject) => this.waiting.set(seq, { resolve, reject }));
    // Marked as handled here: a failure is raised by a later send or drain, not as unhandled.
    committed.catch(() => undefined);
    this.inFlight.push({ writes, index: new Map(), committed });
    this.thread.postMessage({ seq, writes, checkpoints } satisfies BulkBatch);
  }

  /** The document as the newest uncommitted batch that has it left it, if any (`json` null: deleted). */
  pending(collection: string, id: string): { position: number; json: string | null } | undefined {
    for (let b = this.inFlight.length - 1; b >= 0; b--) {
      const batch = this.inFlight[b]!;
      const i = documentsOf(batch, collection).get(id);
      if (i !== undefined) return { position: batch.writes.positions[i]!, json: batch.writes.jsons[i] ?? null };
    }
    return undefined;
  }

  /** Waits until everything sent is committed, and raises a failure if a batch failed. */
  async drain(): Promise<void> {
    while (this.inFlight.length > 0) await this.settleOldest();
  }

  /** Drains, then ends the thread and its connection, even when a batch failed. */
  async close(): Promise<void> {
    try {
      await this.drain();
    } finally {
      this.thread.postMessage('close');
      await this.exited;
    }
  }

  /** Waits for the oldest batch; if it failed, the ones after it (which the thread refused) go too. */
  private async settleOldest(): Promise<void> {
    const oldest = this.inFlight[0]!;
    try {
      await oldest.committed;
      if (this.inFlight[0] === oldest) this.inFlight.shift();
    } catch (error) {
      this.inFlight.length = 0;
      throw error;
    }
  }
}

function documentsOf(batch: SentBatch, collection: string): Map<string, number> {
  let documents = batch.index.get(collection);
  if (!documents) {
    documents = new Map();
    const { collections, ids } = batch.writes;
    for (let i = 0; i < ids.length; i++) if (collections[i] === collection) documents.set(ids[i]!, i);
    batch.index.set(collection, documents);
  }
  return documents;
}
