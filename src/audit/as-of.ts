import type { EventStore, ReadAllOptions, RecordedEvent, Subscription } from '../eventstore/event-store.js';
import { openSqliteDatabase } from '../eventstore/sqlite-database.js';
import { Projector } from '../projector/projector.js';
import type { Projection } from '../projector/projection.js';
import { SqliteReadModelStore } from '../readstore/sqlite-read-model-store.js';

/** A fixed list of recorded events, readable as a log: what a replay up to a moment runs over. */
class RecordedLog implements EventStore {
  constructor(private readonly events: readonly RecordedEvent[]) {}

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const after = options.after ?? 0;
    return this.events.filter((e) => e.position > after).slice(0, options.maxCount ?? Number.MAX_SAFE_INTEGER);
  }

  async headPosition(): Promise<number> {
    return this.events.at(-1)?.position ?? 0;
  }

  appendToStream(): never {
    throw new Error('a replayed log is read-only');
  }
  async readStream(): Promise<RecordedEvent[]> {
    throw new Error('a replayed log is read in order only');
  }
  subscribeToAll(): Subscription {
    throw new Error('a replayed log is read in order only');
  }
  async setStreamMaxCount(): Promise<void> {
    throw new Error('a replayed log is read-only');
  }
  async deleteStream(): Promise<void> {
    throw new Error('a replayed log is read-only');
  }
  async close(): Promise<void> {}
}

/**
 * Read models as they stood at `asOf`: the given events recorded by then, replayed through the
 * projections into a scratch store. Nothing of the live read models is used.
 */
export async function readModelsAsOf(events: readonly RecordedEvent[], projections: readonly Projection<object>[], asOf: string) {
  const db = openSqliteDatabase(':memory:');
  const store = new SqliteReadModelStore(db);
  const log = new RecordedLog(events.filter((e) => e.created <= asOf).sort((a, b) => a.position - b.position));
  await new Projector(log, store, projections).catchUp();
  return { store, close: () => db.close() };
}

/** Events of some streams, all of them, from the log. */
export async function streamsEvents(events: EventStore, streams: readonly string[]): Promise<RecordedEvent[]> {
  return (await Promise.all(streams.map((stream) => events.readStream(stream)))).flat();
}

/** Every event that names a project, in log order up to `asOf`: a scan of the log, as audits are rare. */
export async function projectEventsUpTo(events: EventStore, projectId: string, asOf: string): Promise<RecordedEvent[]> {
  const found: RecordedEvent[] = [];
  const head = await events.headPosition();
  for (let after = 0; after < head; ) {
    const page = await events.readAll({ after, maxCount: 5000 });
    if (page.length === 0) break;
    for (const event of page) if (event.data['project_id'] === projectId && event.created <= asOf) found.push(event);
    after = page.at(-1)!.position;
  }
  return found;
}
