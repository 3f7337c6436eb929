import type { SqliteDatabase } from './sqlite-database.js';
import type { RecordedEvent } from './event-store.js';

/** What a read hands out: not the hashes, which only `verify` reads (two 64-character strings an event). */
const EVENT_COLUMNS = 'position, stream, revision, id, type, data, metadata, created';

export interface EventRow {
  position: number;
  stream: string;
  revision: number;
  id: string;
  type: string;
  data: string | null;
  metadata: string | null;
  created: string;
}

/** The embedded store's reads, prepared once per connection. */
export function prepareEventReads(db: SqliteDatabase) {
  return {
    // Without a max count, no LIMIT: SQLite runs the same indexed search several times faster
    // without one, and reading a stream from a cached revision is on every ping's path.
    forwards: db.prepare<[string, number], EventRow>(`SELECT ${EVENT_COLUMNS} FROM es_events WHERE stream = ? AND revision >= ? AND removed = 0 ORDER BY revision ASC`),
    forwardsLimited: db.prepare<[string, number, number], EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM es_events WHERE stream = ? AND revision >= ? AND removed = 0 ORDER BY revision ASC LIMIT ?`,
    ),
    backwards: db.prepare<[string, number], EventRow>(`SELECT ${EVENT_COLUMNS} FROM es_events WHERE stream = ? AND revision <= ? AND removed = 0 ORDER BY revision DESC`),
    backwardsLimited: db.prepare<[string, number, number], EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM es_events WHERE stream = ? AND revision <= ? AND removed = 0 ORDER BY revision DESC LIMIT ?`,
    ),
    // $all as EventStoreDB's filtered reads give it: without the system records ($$ streams).
    all: db.prepare<[number, number], EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM es_events WHERE position > ? AND removed = 0 AND substr(stream, 1, 1) <> '$' ORDER BY position ASC LIMIT ?`,
    ),
    count: db.prepare<[number, number], { count: number }>(
      "SELECT count(*) AS count FROM (SELECT 1 FROM es_events WHERE position > ? AND removed = 0 AND substr(stream, 1, 1) <> '$' LIMIT ?)",
    ),
    // The last event a subscription delivers: a head it never reaches would keep every reader waiting.
    head: db.prepare<[], { head: number | null }>(
      "SELECT position AS head FROM es_events WHERE removed = 0 AND substr(stream, 1, 1) <> '$' ORDER BY position DESC LIMIT 1",
    ),
  };
}

/** A row as readers get it. */
export function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    id: row.id,
    streamName: row.stream,
    type: row.type,
    revision: row.revision,
    position: row.position,
    data: JSON.parse(row.data ?? '{}') as RecordedEvent['data'],
    metadata: JSON.parse(row.metadata ?? '{}') as RecordedEvent['metadata'],
    created: row.created,
  };
}
