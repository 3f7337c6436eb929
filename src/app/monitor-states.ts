import type { EventStore, RecordedEvent } from '../eventstore/event-store.js';
import { type MonitorEvent, type MonitorState, monitorDecider, monitorStream, pingStream } from '../domain/monitors/monitor.js';
import { checkHoursStream } from '../domain/monitors/monitor-streams.js';
import { type MonitorType, isUptimeType } from '../domain/monitors/schedule.js';
import { toDomainEvent } from './command-handler.js';

export interface LoadedMonitor {
  state: MonitorState;
  monitorRevision: number | 'no_stream';
  pingRevision: number | 'no_stream';
  /** Of its `checkhours-` stream: uptime monitors only; 'no_stream' for the others, which have none. */
  summaryRevision: number | 'no_stream';
}

/** How many summaries one backwards read takes (see `summariesToFold`). */
const SUMMARIES_PAGE = 64;

/**
 * A monitor's state is folded from its streams (an uptime monitor's hourly check summaries too),
 * merged by log position. Folding is kept per monitor in memory and brought up to date by reading
 * only the events after what it has seen, so a ping costs two indexed reads rather than a replay
 * of up to 1000 retained pings, or none where the append checks every stream (see runMonitorCommand).
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
    // Only an uptime monitor is checked and has summaries; its type never changes.
    const created = monitorEvents.find((e) => e.type === 'MonitorCreated')?.data['config'] as { type?: MonitorType } | undefined;
    const type = cached?.state.config?.type ?? created?.type;
    const uptime = type !== undefined && isUptimeType(type);
    const summaryEvents = !uptime ? [] : cached ? await summariesAfter(events, monitorId, cached.summaryRevision) : await summariesToFold(events, monitorId, pingEvents[0]?.position ?? null);
    const merged = [...monitorEvents, ...pingEvents, ...summaryEvents].sort((a, b) => a.position - b.position);
    const loaded: LoadedMonitor = {
      state: merged.map((e) => toDomainEvent<MonitorEvent>(e)).reduce(monitorDecider.evolve, cached?.state ?? monitorDecider.initialState()),
      monitorRevision: lastRevision(monitorEvents) ?? cached?.monitorRevision ?? 'no_stream',
      pingRevision: lastRevision(pingEvents) ?? cached?.pingRevision ?? 'no_stream',
      summaryRevision: lastRevision(summaryEvents) ?? cached?.summaryRevision ?? 'no_stream',
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

function summariesAfter(events: EventStore, monitorId: string, revision: number | 'no_stream'): Promise<RecordedEvent[]> {
  return events.readStream(checkHoursStream(monitorId), revision === 'no_stream' ? {} : { fromRevision: revision + 1 });
}

/**
 * The summaries a fold from scratch needs: those after the oldest observation retention kept
 * (`since`, its log position), and the newest (its hour and window). One before every kept check
 * finds no hour of them left to take off, so the rest of the stream (kept for 93 days, thousands of
 * summaries) is not read: read backwards, a page at a time, until one is older.
 */
async function summariesToFold(events: EventStore, monitorId: string, since: number | null): Promise<RecordedEvent[]> {
  const found: RecordedEvent[] = [];
  let fromRevision: number | undefined;
  for (;;) {
    const page = await events.readStream(checkHoursStream(monitorId), { direction: 'backwards', maxCount: since === null ? 1 : SUMMARIES_PAGE, ...(fromRevision === undefined ? {} : { fromRevision }) });
    found.push(...page);
    const oldest = page.at(-1);
    if (since === null || !oldest || oldest.position < since || oldest.revision === 0 || page.length < SUMMARIES_PAGE) return found.reverse();
    fromRevision = oldest.revision - 1;
  }
}
