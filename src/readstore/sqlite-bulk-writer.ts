import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../eventstore/module-worker.js';
import { type CheckpointAdvance, CheckpointConflictError } from './read-model-store.js';
import type { BulkBatch, BulkBatchDone, BulkWriterSettings } from './sqlite-bulk-writer-thread.js';
import type { EncodedWrites } from './sqlite-document-writer.js';

/**
 * A bulk load's writes, committed on a thread of their own (sqlite-bulk-writer-thread.ts, its own
 * connection to the file), so that SQLite's work overlaps with the projections computing the next
 * batch. One batch is in flight at a time; until the thread has committed it, its documents are
 * answered from here, so the loading side reads its own writes as if they were committed. A batch
 * that fails (a checkpoint moved by someone else) fails the next send or drain.
 */
export class SqliteBulkWriter {
  private seq = 0;
  private inFlight: Promise<void> | null = null;
  /** The batch in flight, and where each of its documents is in it, by collection and id. */
  private sent: EncodedWrites | null = null;
  private readonly sentIndex = new Map<string, Map<string, number>>();
  private readonly waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  private readonly exited: Promise<void>;

  private constructor(private readonly thread: Worker) {
    this.exited = new Promise((resolve) => thread.once('exit', () => resolve()));
    thread.on('message', (done: BulkBatchDone) => {
      const waiter = this.waiting.get(done.seq);
      this.waiting.delete(done.seq);
      if (!done.error) waiter?.resolve();
      else if (done.error.name === 'CheckpointConflictError') waiter?.reject(new CheckpointConflictError(done.error.projection ?? 'unknown'));
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

  /** Hands a batch over once the previous one is committed; resolves when it is on its way. */
  async send(writes: EncodedWrites, checkpoints: CheckpointAdvance[]): Promise<void> {
    await this.drain();
    let collection = '';
    let documents: Map<string, number> | undefined;
    for (let i = 0; i < writes.ids.length; i++) {
      if (documents === undefined || writes.collections[i] !== collection) {
        collection = writes.collections[i]!;
        documents = this.sentIndex.get(collection);
        if (!documents) this.sentIndex.set(collection, (documents = new Map()));
      }
      documents.set(writes.ids[i]!, i);
    }
    this.sent = writes;
    const seq = ++this.seq;
    this.inFlight = new Promise<void>((resolve, reject) => this.waiting.set(seq, { resolve, reject }));
    // Marked as handled here: a failure is raised by the next send or drain, not as unhandled.
    this.inFlight.catch(() => undefined);
    this.thread.postMessage({ seq, writes, checkpoints } satisfies BulkBatch);
  }

  /** The document sent in the batch still being committed, if any (`json` null: deleted). */
  pending(collection: string, id: string): { position: number; json: string | null } | undefined {
    const i = this.sentIndex.get(collection)?.get(id);
    if (i === undefined || !this.sent) return undefined;
    return { position: this.sent.positions[i]!, json: this.sent.jsons[i] ?? null };
  }

  /** Waits until everything sent is committed, and raises a failure if a batch failed. */
  async drain(): Promise<void> {
    const inFlight = this.inFlight;
    if (!inFlight) return;
    try {
      await inFlight;
    } finally {
      if (this.inFlight === inFlight) {
        this.inFlight = null;
        this.sent = null;
        this.sentIndex.clear();
      }
    }
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
}
