import type { EventStore, RecordedEvent } from '../eventstore/event-store.js';
import { type MonitorEvent, type MonitorState, monitorDecider, monitorStream, pingStream } from '../domain/monitors/monitor.js';
import { toDomainEvent } from './command-handler.js';

export interface LoadedMonitor {
  state: MonitorState;
  monitorRevision: number | 'no_stream';
  pingRevision: number | 'no_stream';
}

/**
 * A monitor's state is folded from two streams, merged by log position. Folding is kept per
 * monitor in memory and brought up to date by reading only the events after what it has seen,
 * so a ping costs two indexed reads rather than a replay of up to 1000 retained pings, or none
 * where the append checks both streams (see runMonitorCommand).
 */
export class MonitorStates {
  private readonly cache = new Map<string, LoadedMonitor>();

  constructor(private readonly maxEntries = 200_000) {}

  async load(events: EventStore, monitorId: string): Promise<LoadedMonitor> {
    const cached = this.cache.get(monitorId);
    const [monitorEvents, pingEvents] = await Promise.all([
      events.readStream(monitorStream(monitorId), cached && cached.monitorRevision !== 'no_stream' ? { fromRevision: cached.monitorRevision + 1 } : {}),
      events.readStream(pingStream(monitorId), cached && cached.pingRevision !== 'no_stream' ? { fromRevision: cached.pingRevision + 1 } : {}),
    ]);
    const merged = [...monitorEvents, ...pingEvents].sort((a, b) => a.position - b.position);
    const loaded: LoadedMonitor = {
      state: merged.map((e) => toDomainEvent<MonitorEvent>(e)).reduce(monitorDecider.evolve, cached?.state ?? monitorDecider.initialState()),
      monitorRevision: lastRevision(monitorEvents) ?? cached?.monitorRevision ?? 'no_stream',
      pingRevision: lastRevision(pingEvents) ?? cached?.pingRevision ?? 'no_stream',
    };
    this.remember(monitorId, loaded);
    return loaded;
  }

  /**
   * The fold as this process last saw it, without reading the store: only for a caller whose
   * append checks both streams' revisions, so that a fold others have moved past is refused.
   */
  remembered(monitorId: string): LoadedMonitor | undefined {
    return this.cache.get(monitorId);
  }

  remember(monitorId: string, loaded: LoadedMonitor): void {
    this.cache.delete(monitorId);
    if (this.cache.size >= this.maxEntries) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    this.cache.set(monitorId, loaded);
  }

  forget(monitorId: string): void {
    this.cache.delete(monitorId);
  }
}

function lastRevision(events: RecordedEvent[]): number | undefined {
  return events.at(-1)?.revision;
}
