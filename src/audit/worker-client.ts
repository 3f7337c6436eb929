import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../eventstore/module-worker.js';

/** What a worker answers to the request numbered `id`. */
export type WorkerReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string };

/**
 * The client of a worker thread that answers numbered requests (`{ id, ...request }`) with a
 * WorkerReply each: the thread runs the module `name` beside `from` (an `import.meta.url`) with
 * `workerData`. It starts with the first request, and again after one that ended it (whose waiting
 * requests fail with why); it keeps the process alive only while a request waits.
 */
export class WorkerClient<Request extends object> {
  private thread: Worker | null = null;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>();

  constructor(
    private readonly from: string,
    private readonly name: string,
    private readonly workerData: unknown,
    /** What the thread is, as an error says it stopped: "the as_of thread". */
    private readonly described: string,
  ) {}

  /** How many requests are waiting for their answer. */
  get waiting(): number {
    return this.pending.size;
  }

  ask(request: Request): Promise<unknown> {
    const thread = this.started();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      thread.ref();
      thread.postMessage({ ...request, id });
    });
  }

  private started(): Worker {
    if (this.thread) return this.thread;
    const thread = startModuleWorker(this.from, this.name, this.workerData);
    thread.on('message', (reply: WorkerReply) => {
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (this.pending.size === 0) thread.unref();
      if (reply.ok) waiting?.resolve(reply.value);
      else waiting?.reject(new Error(reply.message));
    });
    const ended = (error: unknown) => {
      if (this.thread === thread) this.thread = null;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    thread.on('error', ended);
    thread.on('exit', (code) => ended(new Error(`${this.described} stopped (exit code ${code})`)));
    thread.unref();
    this.thread = thread;
    return thread;
  }

  async close(): Promise<void> {
    const thread = this.thread;
    this.thread = null;
    if (thread) await thread.terminate();
  }
}
