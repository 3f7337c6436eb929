import type { Worker } from 'node:worker_threads';
import type { EventStore } from '../eventstore/event-store.js';
import { startModuleWorker } from '../eventstore/module-worker.js';
import type { Filter, ReadModelStore } from '../readstore/read-model-store.js';
import type { IncidentDocument } from '../../projections/incidents.js';
import type { MonitorDocument } from '../../projections/monitors.js';
import { incidentsAsOf, monitorAsOf } from './as-of.js';

/** What `as_of` reads (see as-of.ts), wherever it runs. */
export interface AsOfReader {
  incidents(filter: Filter, asOf: string, page: { page: number; limit: number }): Promise<{ docs: IncidentDocument[]; total: number }>;
  monitor(monitorId: string, asOf: string): Promise<MonitorDocument | null>;
  close(): Promise<void>;
}

/** On the caller's thread: where the stores are servers (MongoDB, EventStoreDB), whose clients live there. */
export function inlineAsOfReader(readModels: ReadModelStore, events: EventStore): AsOfReader {
  return {
    incidents: (filter, asOf, page) => incidentsAsOf(readModels, filter, asOf, page),
    monitor: (monitorId, asOf) => monitorAsOf(events, monitorId, asOf),
    close: async () => {},
  };
}

/** More `as_of` queries than the thread has room for at once: the client is told to retry shortly. */
export class AsOfBusyError extends Error {
  constructor(readonly queued: number) {
    super(`${queued} as_of queries are already waiting; retry shortly`);
    this.name = 'AsOfBusyError';
  }
}

export type AsOfRequest =
  | { id: number; kind: 'incidents'; filter: Filter; asOf: string; page: { page: number; limit: number } }
  | { id: number; kind: 'monitor'; monitorId: string; asOf: string };
export type AsOfReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string };

/** How many `as_of` queries may wait for the thread at once; past that they are refused (AsOfBusyError). */
const MAX_QUEUED = 32;

/**
 * `as_of` on a thread of its own (as-of-thread.ts), with its own connection to the embedded file:
 * however many arrive, the thread that answers pings only hands them over and reads back the page.
 * The queries run one after the other there, at most MAX_QUEUED waiting, so neither their CPU nor
 * their memory grows with how many are sent. The thread starts with the first query, and again
 * after one that ended it.
 */
export class AsOfThread implements AsOfReader {
  private thread: Worker | null = null;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>();

  constructor(
    private readonly path: string,
    private readonly maxQueued = MAX_QUEUED,
  ) {}

  incidents(filter: Filter, asOf: string, page: { page: number; limit: number }): Promise<{ docs: IncidentDocument[]; total: number }> {
    return this.ask({ id: this.nextId++, kind: 'incidents', filter, asOf, page }) as Promise<{ docs: IncidentDocument[]; total: number }>;
  }

  monitor(monitorId: string, asOf: string): Promise<MonitorDocument | null> {
    return this.ask({ id: this.nextId++, kind: 'monitor', monitorId, asOf }) as Promise<MonitorDocument | null>;
  }

  private ask(request: AsOfRequest): Promise<unknown> {
    if (this.pending.size >= this.maxQueued) return Promise.reject(new AsOfBusyError(this.pending.size));
    const thread = this.started();
    return new Promise((resolve, reject) => {
      this.pending.set(request.id, { resolve, reject });
      thread.ref();
      thread.postMessage(request);
    });
  }

  private started(): Worker {
    if (this.thread) return this.thread;
    const thread = startModuleWorker(import.meta.url, 'as-of-thread', { path: this.path });
    thread.on('message', (reply: AsOfReply) => {
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
    thread.on('exit', (code) => ended(new Error(`the as_of thread stopped (exit code ${code})`)));
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
