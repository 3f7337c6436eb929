import { randomUUID } from 'node:crypto';
import type { SqliteDatabase } from './sqlite-database.js';
import { chainHash, eventContent, eventHash } from './event-hash.js';
import {
  type AppendResult,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
  StreamDeletedError,
  WrongExpectedRevisionError,
  matchesPrefixes,
  satisfiesExpectedRevision,
} from './event-store.js';

interface EventRow {
  position: number;
  stream: string;
  revision: number;
  id: string;
  type: string;
  data: string | null;
  metadata: string | null;
  created: string;
}

interface StreamRow {
  revision: number;
  max_count: number | null;
  deleted: number;
  last_hash: string;
}

interface PendingAppend {
  streamName: string;
  events: readonly EventToAppend[];
  expectedRevision: ExpectedRevision;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
}

export interface SqliteEventStoreOptions {
  /** How often an idle subscription looks for events written by other processes. */
  pollIntervalMs?: number;
  clock?: () => Date;
}

const SUBSCRIPTION_PAGE = 512;

/**
 * The embedded event store. Appends made in the same turn of the event loop are committed
 * together in one transaction (group commit): one fsync acknowledges them all, which is what
 * makes concurrent ping ingestion cheap while every acknowledged event is durable.
 */
export class SqliteEventStore implements EventStore {
  private pending: PendingAppend[] = [];
  private flushScheduled = false;
  private readonly newEventListeners = new Set<() => void>();
  private closed = false;
  private commits = 0;
  private readonly pollIntervalMs: number;
  private readonly clock: () => Date;
  private readonly statements;

  constructor(
    private readonly db: SqliteDatabase,
    options: SqliteEventStoreOptions = {},
  ) {
    this.pollIntervalMs = options.pollIntervalMs ?? 100;
    this.clock = options.clock ?? (() => new Date());
    db.exec(`
      CREATE TABLE IF NOT EXISTS es_events (
        position INTEGER PRIMARY KEY AUTOINCREMENT,
        stream TEXT NOT NULL,
        revision INTEGER NOT NULL,
        id TEXT NOT NULL,
        type TEXT NOT NULL,
        data TEXT,
        metadata TEXT,
        created TEXT NOT NULL,
        -- Tamper evidence: chained to the stream's previous event, and a running hash over the log.
        hash TEXT NOT NULL,
        chain TEXT NOT NULL,
        -- Retention and deletion blank the content but keep the hashes, so the chain stays whole.
        removed INTEGER NOT NULL DEFAULT 0,
        UNIQUE (stream, revision)
      );
      CREATE TABLE IF NOT EXISTS es_streams (
        stream TEXT PRIMARY KEY,
        revision INTEGER NOT NULL,
        max_count INTEGER,
        deleted INTEGER NOT NULL DEFAULT 0,
        last_hash TEXT NOT NULL DEFAULT ''
      );
    `);
    this.statements = {
      stream: db.prepare<[string], StreamRow>('SELECT revision, max_count, deleted, last_hash FROM es_streams WHERE stream = ?'),
      insertEvent: db.prepare(
        'INSERT INTO es_events (stream, revision, id, type, data, metadata, created, hash, chain) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      lastChain: db.prepare<[], { chain: string }>('SELECT chain FROM es_events ORDER BY position DESC LIMIT 1'),
      saveStream: db.prepare(
        `INSERT INTO es_streams (stream, revision, last_hash) VALUES (?, ?, ?)
         ON CONFLICT (stream) DO UPDATE SET revision = excluded.revision, last_hash = excluded.last_hash`,
      ),
      truncate: db.prepare('UPDATE es_events SET data = NULL, metadata = NULL, removed = 1 WHERE stream = ? AND revision <= ? AND removed = 0'),
      forwards: db.prepare<[string, number, number], EventRow>(
        'SELECT * FROM es_events WHERE stream = ? AND revision >= ? AND removed = 0 ORDER BY revision ASC LIMIT ?',
      ),
      backwards: db.prepare<[string, number, number], EventRow>(
        'SELECT * FROM es_events WHERE stream = ? AND revision <= ? AND removed = 0 ORDER BY revision DESC LIMIT ?',
      ),
      all: db.prepare<[number, number], EventRow>('SELECT * FROM es_events WHERE position > ? AND removed = 0 ORDER BY position ASC LIMIT ?'),
      head: db.prepare<[], { head: number | null }>('SELECT MAX(position) AS head FROM es_events'),
      setMaxCount: db.prepare(
        `INSERT INTO es_streams (stream, revision, max_count) VALUES (?, -1, ?)
         ON CONFLICT (stream) DO UPDATE SET max_count = excluded.max_count`,
      ),
      deleteEvents: db.prepare('UPDATE es_events SET data = NULL, metadata = NULL, removed = 1 WHERE stream = ? AND removed = 0'),
      markDeleted: db.prepare(
        `INSERT INTO es_streams (stream, revision, deleted) VALUES (?, -1, 1)
         ON CONFLICT (stream) DO UPDATE SET deleted = 1`,
      ),
    };
  }

  appendToStream(
    streamName: string,
    events: readonly EventToAppend[],
    options: { expectedRevision?: ExpectedRevision } = {},
  ): Promise<AppendResult> {
    if (this.closed) return Promise.reject(new Error('event store is closed'));
    return new Promise<AppendResult>((resolve, reject) => {
      this.pending.push({ streamName, events, expectedRevision: options.expectedRevision ?? 'any', resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    this.flushScheduled = false;
    if (batch.length === 0) return;
    const created = this.clock().toISOString();
    type Outcome = { ok: true; result: AppendResult } | { ok: false; error: unknown };
    let outcomes: Outcome[];
    try {
      outcomes = this.db
        .transaction(() =>
          batch.map((append): Outcome => {
            try {
              return { ok: true, result: this.appendInTransaction(append, created) };
            } catch (error) {
              // A rejected expectation fails its own append, not the whole group.
              if (error instanceof WrongExpectedRevisionError || error instanceof StreamDeletedError) {
                return { ok: false, error };
              }
              throw error;
            }
          }),
        )
        .immediate();
      this.commits += 1;
    } catch (error) {
      for (const append of batch) append.reject(error);
      return;
    }
    outcomes.forEach((outcome, index) => {
      const append = batch[index]!;
      if (outcome.ok) append.resolve(outcome.result);
      else append.reject(outcome.error);
    });
    this.notifyNewEvents();
  }

  private appendInTransaction(append: PendingAppend, created: string): AppendResult {
    const stream = this.statements.stream.get(append.streamName);
    if (stream?.deleted) throw new StreamDeletedError(append.streamName);
    const current = stream && stream.revision >= 0 ? stream.revision : 'no_stream';
    if (!satisfiesExpectedRevision(append.expectedRevision, current)) {
      throw new WrongExpectedRevisionError(append.streamName, append.expectedRevision, current);
    }
    let revision = current === 'no_stream' ? -1 : current;
    let position = this.statements.head.get()?.head ?? 0;
    let streamHash = stream?.last_hash ?? '';
    let chain = this.statements.lastChain.get()?.chain ?? '';
    for (const event of append.events) {
      revision += 1;
      const row = {
        stream: append.streamName,
        revision,
        id: event.id ?? randomUUID(),
        type: event.type,
        created,
        data: JSON.stringify(event.data),
        metadata: JSON.stringify(event.metadata ?? {}),
      };
      streamHash = eventHash(streamHash, eventContent(row));
      chain = chainHash(chain, streamHash);
      const info = this.statements.insertEvent.run(row.stream, row.revision, row.id, row.type, row.data, row.metadata, row.created, streamHash, chain);
      position = Number(info.lastInsertRowid);
    }
    this.statements.saveStream.run(append.streamName, revision, streamHash);
    if (stream?.max_count) this.statements.truncate.run(append.streamName, revision - stream.max_count);
    return { nextExpectedRevision: revision, position };
  }

  async readStream(streamName: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const maxCount = options.maxCount ?? Number.MAX_SAFE_INTEGER;
    const rows =
      options.direction === 'backwards'
        ? this.statements.backwards.all(streamName, options.fromRevision ?? Number.MAX_SAFE_INTEGER, maxCount)
        : this.statements.forwards.all(streamName, options.fromRevision ?? 0, maxCount);
    return rows.map(toRecordedEvent);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    return this.statements.all.all(options.after ?? 0, options.maxCount ?? Number.MAX_SAFE_INTEGER).map(toRecordedEvent);
  }

  async headPosition(): Promise<number> {
    return this.statements.head.get()?.head ?? 0;
  }

  subscribeToAll(options: SubscribeOptions = {}): Subscription {
    let position = options.after ?? 0;
    let active = true;
    let wake: (() => void) | undefined;
    const waitForNewEvents = () =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(done, this.pollIntervalMs);
        function done() {
          clearTimeout(timer);
          resolve();
        }
        wake = done;
        this.newEventListeners.add(done);
      }).finally(() => {
        if (wake) this.newEventListeners.delete(wake);
        wake = undefined;
      });
    const readPage = () => this.statements.all.all(position, SUBSCRIPTION_PAGE);
    const isActive = () => active && !this.closed;

    async function* events(): AsyncGenerator<RecordedEvent> {
      while (isActive()) {
        const rows = readPage();
        for (const row of rows) {
          if (!isActive()) return;
          position = row.position;
          if (matchesPrefixes(row.stream, options.streamNamePrefixes)) yield toRecordedEvent(row);
        }
        if (rows.length < SUBSCRIPTION_PAGE) await waitForNewEvents();
      }
    }

    const iterator = events();
    return {
      [Symbol.asyncIterator]: () => iterator,
      unsubscribe: async () => {
        active = false;
        wake?.();
      },
    };
  }

  async setStreamMaxCount(streamName: string, maxCount: number): Promise<void> {
    if (!Number.isInteger(maxCount) || maxCount < 1) throw new RangeError('maxCount must be a positive integer');
    this.flushQueuedAppends();
    this.db.transaction(() => {
      this.statements.setMaxCount.run(streamName, maxCount);
      const stream = this.statements.stream.get(streamName);
      if (stream && stream.revision >= 0) this.statements.truncate.run(streamName, stream.revision - maxCount);
    })();
  }

  async deleteStream(streamName: string): Promise<void> {
    this.flushQueuedAppends();
    this.db.transaction(() => {
      this.statements.deleteEvents.run(streamName);
      this.statements.markDeleted.run(streamName);
    })();
  }

  async close(): Promise<void> {
    this.flushQueuedAppends();
    this.closed = true;
    this.notifyNewEvents();
  }

  /** Appends asked for before a delete or truncation must land before it, as the caller ordered them. */
  private flushQueuedAppends(): void {
    if (this.pending.length > 0) this.flush();
  }

  /** Transactions committed so far: with group commit, fewer than the appends acknowledged. */
  get commitCount(): number {
    return this.commits;
  }

  private notifyNewEvents(): void {
    for (const listener of [...this.newEventListeners]) listener();
  }
}

function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    id: row.id,
    streamName: row.stream,
    type: row.type,
    revision: row.revision,
    position: row.position,
    data: JSON.parse(row.data ?? '{}'),
    metadata: JSON.parse(row.metadata ?? '{}'),
    created: row.created,
  };
}
