import type { EventStore } from '../eventstore/event-store.js';
import type { Filter, ReadModelStore } from '../readstore/read-model-store.js';
import type { IncidentDocument } from '../../projections/incidents.js';
import type { MonitorDocument } from '../../projections/monitors.js';
import { incidentsAsOf, monitorAsOf } from './as-of.js';
import { WorkerClient } from './worker-client.js';

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

/** A query for the as_of thread, numbered by its WorkerClient. */
export type AsOfQuery =
  | { kind: 'incidents'; filter: Filter; asOf: string; page: { page: number; limit: number } }
  | { kind: 'monitor'; monitorId: string; asOf: string };
export type AsOfRequest = AsOfQuery & { id: number };

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
  private readonly client: WorkerClient<AsOfQuery>;

  constructor(
    path: string,
    private readonly maxQueued = MAX_QUEUED,
  ) {
    this.client = new WorkerClient(import.meta.url, 'as-of-thread', { path }, 'the as_of thread');
  }

  incidents(filter: Filter, asOf: string, page: { page: number; limit: number }): Promise<{ docs: IncidentDocument[]; total: number }> {
    return this.ask({ kind: 'incidents', filter, asOf, page }) as Promise<{ docs: IncidentDocument[]; total: number }>;
  }

  monitor(monitorId: string, asOf: string): Promise<MonitorDocument | null> {
    return this.ask({ kind: 'monitor', monitorId, asOf }) as Promise<MonitorDocument | null>;
  }

  private ask(query: AsOfQuery): Promise<unknown> {
    if (this.client.waiting >= this.maxQueued) return Promise.reject(new AsOfBusyError(this.client.waiting));
    return this.client.ask(query);
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
