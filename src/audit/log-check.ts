import type { Worker } from 'node:worker_threads';
import type { EventStore } from '../eventstore/event-store.js';
import { startModuleWorker } from '../eventstore/module-worker.js';
import type { LogVerification } from './verify-log.js';

/** The newest event of the log: where it is, when it was recorded, and (embedded store) its hashes. */
export interface LogHead {
  position: number;
  time: string | null;
  /** The event's own hash, chained to its stream's previous one; null where the store keeps none. */
  hash: string | null;
  /** The log's running hash after it. */
  chain: string | null;
}

/** What the audit page reads of the log itself. */
export interface LogCheck {
  head(): Promise<LogHead>;
  /** Walks the whole hash chain (see verify-log.ts); null where the store has none (EventStoreDB). */
  verify(): Promise<LogVerification | null>;
  close(): Promise<void>;
}

/** Where the log is EventStoreDB: its head from the store; it keeps no hash chain to verify. */
export function storeLogCheck(events: EventStore): LogCheck {
  return {
    async head() {
      const position = await events.headPosition();
      const [last] = position > 0 ? await events.readAll({ after: position - 1, maxCount: 1 }) : [];
      return { position, time: last?.created ?? null, hash: null, chain: null };
    },
    verify: async () => null,
    close: async () => {},
  };
}

export type LogCheckRequest = { id: number; kind: 'head' | 'verify' };
export type LogCheckReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string };

/**
 * The embedded log read on a thread of its own (log-check-thread.ts), on its own read-only use of
 * the file: a verification walks every event, which would otherwise hold the thread that answers
 * requests for as long as the log is long. One verification at a time: asking again while one
 * runs gets that one's result.
 */
export class LogCheckThread implements LogCheck {
  private thread: Worker | null = null;
  private nextId = 0;
  private running: Promise<LogVerification | null> | null = null;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>();

  constructor(private readonly path: string) {}

  head(): Promise<LogHead> {
    return this.ask('head') as Promise<LogHead>;
  }

  verify(): Promise<LogVerification | null> {
    this.running ??= (this.ask('verify') as Promise<LogVerification>).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private ask(kind: LogCheckRequest['kind']): Promise<unknown> {
    const thread = this.started();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      thread.ref();
      thread.postMessage({ id, kind } satisfies LogCheckRequest);
    });
  }

  private started(): Worker {
    if (this.thread) return this.thread;
    const thread = startModuleWorker(import.meta.url, 'log-check-thread', { path: this.path });
    thread.on('message', (reply: LogCheckReply) => {
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
    thread.on('exit', (code) => ended(new Error(`the log check thread stopped (exit code ${code})`)));
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
