import { randomUUID } from 'node:crypto';
import type { SqliteDatabase } from './sqlite-database.js';
import { chainHash, eventContent, eventHash } from './event-hash.js';
import { WriteGate } from './write-gate.js';
import { CHECKPOINT_STREAM, CHECKPOINT_TYPE } from './log-checkpoint.js';
import type { CompactionPlan } from './log-compaction.js';
import {
  type AppendResult,
  type EventToAppend,
  type ExpectedRevision,
  type StreamAppend,
  STREAM_DELETED,
  STREAM_METADATA,
  StreamDeletedError,
  WrongExpectedRevisionError,
  metadataStreamOf,
  satisfiesExpectedRevision,
} from './event-store.js';

/** One change to the log, in the order the callers asked for it. */
export type LogWrite =
  | { kind: 'append'; streamName: string; events: readonly EventToAppend[]; expectedRevision: ExpectedRevision }
  | { kind: 'appendAll'; appends: readonly StreamAppend[] }
  | { kind: 'setMaxCount'; streamName: string; maxCount: number }
  | { kind: 'delete'; streamName: string }
  /** Folds removed rows away behind a checkpoint (see log-compaction.ts); refused as stale if another compaction came first. */
  | { kind: 'compact'; plan: CompactionPlan }
  /** Records nothing of the log: a write of one row beside it, to learn whether the disk takes a commit (see SqliteEventStore.writeHealth). */
  | { kind: 'probe' };

/** What became of one write: plain data, so that it can cross from a writer thread. */
export type LogWriteOutcome = { ok: true; result: AppendResult | null; each?: AppendResult[] } | { ok: false; error: RejectedWrite };

/** The expectations a write can fail on its own, without failing the rest of its group. */
export type RejectedWrite =
  | { name: 'WrongExpectedRevisionError'; streamName: string; expected: ExpectedRevision; actual: number | 'no_stream' }
  | { name: 'StreamDeletedError'; streamName: string };

export function rejectionError(rejected: RejectedWrite): Error {
  return rejected.name === 'WrongExpectedRevisionError'
    ? new WrongExpectedRevisionError(rejected.streamName, rejected.expected, rejected.actual)
    : new StreamDeletedError(rejected.streamName);
}

/** The end of the log as a group's transaction goes: kept in memory rather than read for each append. */
interface LogTail {
  head: number;
  chain: string;
}

/** What is recorded about a stream beside its events: its window and its deletion, when it has either. */
interface StreamSettings {
  max_count: number | null;
  deleted: number;
}

/** A stream's last event: the revision the next append follows, and the hash it chains to. */
interface StreamTail {
  revision: number;
  hash: string;
}

export function ensureLogSchema(db: SqliteDatabase): void {
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
    -- Only the streams with a window or deleted: a stream's revision and last hash are its last
    -- event's, found through the (stream, revision) index, so that an append writes no row here.
    CREATE TABLE IF NOT EXISTS es_streams (
      stream TEXT PRIMARY KEY,
      max_count INTEGER,
      deleted INTEGER NOT NULL DEFAULT 0
    );
    -- Where each stream whose first events were compacted away now starts: the last removed
    -- event's revision and hash, which its first kept event chains to (see log-compaction.ts).
    CREATE TABLE IF NOT EXISTS es_anchors (
      stream TEXT PRIMARY KEY,
      revision INTEGER NOT NULL,
      hash TEXT NOT NULL
    );
    -- One row, changed by each probe write: a commit that writes a page, as an append does.
    CREATE TABLE IF NOT EXISTS es_write_probe (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      probes INTEGER NOT NULL
    );
  `);
  dropStreamTails(db);
}

/**
 * A file written before appends stopped rewriting es_streams keeps each stream's revision and last
 * hash there as well: both are read from the stream's last event now, so the columns go, and with
 * them the rows of streams that have neither a window nor a deletion. Checked again inside the
 * transaction: another connection of this process may have done it first.
 */
function dropStreamTails(db: SqliteDatabase): void {
  const hasTails = () => db.prepare("SELECT 1 FROM pragma_table_info('es_streams') WHERE name = 'last_hash'").get() !== undefined;
  if (!hasTails()) return;
  db.transaction(() => {
    if (!hasTails()) return;
    db.exec(`
      ALTER TABLE es_streams DROP COLUMN revision;
      ALTER TABLE es_streams DROP COLUMN last_hash;
      DELETE FROM es_streams WHERE max_count IS NULL AND deleted = 0;
    `);
  }).immediate();
}

/**
 * The write side of the embedded log: a group of writes goes into one IMMEDIATE transaction, so
 * one fsync (synchronous = FULL) makes the whole group durable. It runs on whichever thread owns
 * the writing connection: the caller's, or a writer thread of its own.
 */
export class SqliteLogWriter {
  private readonly statements;

  constructor(
    private readonly db: SqliteDatabase,
    /** Shared with the other writing connections of this process (the projector's). */
    private readonly gate: WriteGate = new WriteGate(),
  ) {
    ensureLogSchema(db);
    this.statements = {
      settings: db.prepare<[string], StreamSettings>('SELECT max_count, deleted FROM es_streams WHERE stream = ?'),
      // Through the (stream, revision) index, whose page the append then writes to.
      tail: db.prepare<[string], StreamTail>('SELECT revision, hash FROM es_events WHERE stream = ? ORDER BY revision DESC LIMIT 1'),
      insertEvent: db.prepare(
        'INSERT INTO es_events (stream, revision, id, type, data, metadata, created, hash, chain) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      // The log's last event: its position is the head, and its chain hash the one the next extends.
      last: db.prepare<[], { position: number; chain: string }>('SELECT position, chain FROM es_events ORDER BY position DESC LIMIT 1'),
      // Bounded below as well: the events already removed stay in the index, and a long-lived
      // stream would otherwise walk past every one of them on each append.
      truncateRange: db.prepare('UPDATE es_events SET data = NULL, metadata = NULL, removed = 1 WHERE stream = ? AND revision > ? AND revision <= ? AND removed = 0'),
      truncate: db.prepare('UPDATE es_events SET data = NULL, metadata = NULL, removed = 1 WHERE stream = ? AND revision <= ? AND removed = 0'),
      setMaxCount: db.prepare(
        `INSERT INTO es_streams (stream, max_count) VALUES (?, ?)
         ON CONFLICT (stream) DO UPDATE SET max_count = excluded.max_count`,
      ),
      deleteEvents: db.prepare('UPDATE es_events SET data = NULL, metadata = NULL, removed = 1 WHERE stream = ? AND removed = 0'),
      markDeleted: db.prepare(
        `INSERT INTO es_streams (stream, deleted) VALUES (?, 1)
         ON CONFLICT (stream) DO UPDATE SET deleted = 1`,
      ),
      following: db.prepare<[string, number, number], { id: string; position: number }>(
        'SELECT id, position FROM es_events WHERE stream = ? AND revision > ? ORDER BY revision LIMIT ?',
      ),
      deleteRemoved: db.prepare('DELETE FROM es_events WHERE position BETWEEN ? AND ? AND removed = 1'),
      setAnchor: db.prepare(
        `INSERT INTO es_anchors (stream, revision, hash) VALUES (?, ?, ?)
         ON CONFLICT (stream) DO UPDATE SET revision = excluded.revision, hash = excluded.hash`,
      ),
      probe: db.prepare('INSERT INTO es_write_probe (id, probes) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET probes = probes + 1'),
    };
    this.recordUnrecordedWindows();
  }

  /**
   * A log written before windows and deletions were recorded in it (see metadataStreamOf) has them
   * only beside it, in es_streams: each is recorded once, with what had been removed by then taken
   * as removed by it (`$tb`), so that `verify` accepts the past and checks everything after.
   */
  private recordUnrecordedWindows(): void {
    const unrecorded = this.db.prepare<[], { stream: string; max_count: number | null; deleted: number; removed_through: number | null }>(
      `SELECT s.stream, s.max_count, s.deleted,
              (SELECT MAX(e.revision) FROM es_events e WHERE e.stream = s.stream AND e.removed = 1) AS removed_through
       FROM es_streams s
       WHERE substr(s.stream, 1, 1) <> '$' AND (s.max_count IS NOT NULL OR s.deleted = 1)
         AND NOT EXISTS (SELECT 1 FROM es_events m WHERE m.stream = '$$' || s.stream)`,
    );
    if (unrecorded.all().length === 0) return;
    const created = new Date().toISOString();
    const record = this.db.transaction(() => {
      const last = this.statements.last.get();
      const log: LogTail = { head: last?.position ?? 0, chain: last?.chain ?? '' };
      for (const stream of unrecorded.all()) {
        const window = {
          ...(stream.max_count !== null ? { $maxCount: stream.max_count } : {}),
          ...(stream.removed_through !== null ? { $tb: stream.removed_through + 1 } : {}),
        };
        const events: EventToAppend[] = [{ type: STREAM_METADATA, data: window }];
        if (stream.deleted) events.push({ type: STREAM_DELETED, data: {} });
        this.append({ kind: 'append', streamName: metadataStreamOf(stream.stream), events, expectedRevision: 'any' }, created, log);
      }
    });
    this.gate.hold(() => record.immediate());
  }

  /**
   * Applies the writes in order in one transaction. A rejected expectation fails its own write,
   * not the group; anything else (the disk, a lock held too long) throws and commits nothing.
   */
  commit(writes: readonly LogWrite[], created: string): LogWriteOutcome[] {
    return this.gate.hold(this.transaction(writes, created));
  }

  /**
   * As `commit`, but only if no other thread of this process is writing: null if one is, so that
   * a thread that also serves requests can wait for the gate without blocking (see WriteGate).
   */
  commitIfFree(writes: readonly LogWrite[], created: string, waitingSince?: number): LogWriteOutcome[] | null {
    const held = this.gate.holdIfFree(this.transaction(writes, created), waitingSince);
    return held.ran ? held.value : null;
  }

  /** Waits, without blocking, until the gate looks free (see WriteGate.whenFree). */
  whenFree(): Promise<void> {
    return this.gate.whenFree();
  }

  private transaction(writes: readonly LogWrite[], created: string): () => LogWriteOutcome[] {
    const transaction = this.db.transaction(() => {
      const last = this.statements.last.get();
      const log: LogTail = { head: last?.position ?? 0, chain: last?.chain ?? '' };
      return writes.map((write): LogWriteOutcome => {
        try {
          if (write.kind === 'appendAll') {
            const each = this.appendAll(write.appends, created, log);
            return { ok: true, result: each.at(-1) ?? null, each };
          }
          return { ok: true, result: this.apply(write, created, log) };
        } catch (error) {
          if (error instanceof WrongExpectedRevisionError) {
            return { ok: false, error: { name: 'WrongExpectedRevisionError', streamName: error.streamName, expected: error.expected, actual: error.actual } };
          }
          if (error instanceof StreamDeletedError) return { ok: false, error: { name: 'StreamDeletedError', streamName: error.streamName } };
          throw error;
        }
      });
    });
    return () => transaction.immediate();
  }

  /**
   * Several appends inside a savepoint of the group's transaction: one unmet expectation rolls
   * back the others (and the running head and chain hash with them), not the rest of the group.
   */
  private appendAll(appends: readonly StreamAppend[], created: string, log: LogTail): AppendResult[] {
    const appendEach = () => appends.map((a) => this.append({ kind: 'append', ...a }, created, log));
    // With nothing written before the last append (only checks), a failure leaves nothing to undo.
    if (appends.slice(0, -1).every((a) => a.events.length === 0)) return appendEach();
    const { head, chain } = log;
    try {
      return this.db.transaction(appendEach)();
    } catch (error) {
      log.head = head;
      log.chain = chain;
      throw error;
    }
  }

  private apply(write: Exclude<LogWrite, { kind: 'appendAll' }>, created: string, log: LogTail): AppendResult | null {
    switch (write.kind) {
      case 'append':
        return this.append(write, created, log);
      case 'setMaxCount': {
        this.statements.setMaxCount.run(write.streamName, write.maxCount);
        const tail = this.statements.tail.get(write.streamName);
        if (tail) this.statements.truncate.run(write.streamName, tail.revision - write.maxCount);
        // In the hashed log too: what the window removes, now and later, is then told from tampering.
        this.append({ kind: 'append', streamName: metadataStreamOf(write.streamName), events: [{ type: STREAM_METADATA, data: { $maxCount: write.maxCount } }], expectedRevision: 'any' }, created, log);
        return null;
      }
      case 'delete': {
        if (this.statements.settings.get(write.streamName)?.deleted) return null;
        this.statements.deleteEvents.run(write.streamName);
        this.statements.markDeleted.run(write.streamName);
        this.append({ kind: 'append', streamName: metadataStreamOf(write.streamName), events: [{ type: STREAM_DELETED, data: {} }], expectedRevision: 'any' }, created, log);
        return null;
      }
      case 'compact':
        this.compact(write.plan, created, log);
        return null;
      case 'probe':
        this.statements.probe.run();
        return null;
      default: {
        const exhaustive: never = write;
        return exhaustive;
      }
    }
  }

  /**
   * The checkpoint first, conditional on the one the plan started from (a stale plan throws here,
   * before anything changed); the rows it folds are deleted only if still removed, which they stay.
   */
  private compact(plan: CompactionPlan, created: string, log: LogTail): void {
    const checkpoint: EventToAppend = { type: CHECKPOINT_TYPE, data: { ...plan.checkpoint } };
    this.append({ kind: 'append', streamName: CHECKPOINT_STREAM, events: [checkpoint], expectedRevision: plan.expectedCheckpointRevision }, created, log);
    // Only the newest checkpoint is needed: the older ones are removed as any windowed event, and folded by the next.
    if (this.statements.settings.get(CHECKPOINT_STREAM)?.max_count !== 1) this.apply({ kind: 'setMaxCount', streamName: CHECKPOINT_STREAM, maxCount: 1 }, created, log);
    for (const [from, to] of plan.removedRanges) this.statements.deleteRemoved.run(from, to);
    for (const anchor of plan.anchors) this.statements.setAnchor.run(anchor.stream, anchor.revision, anchor.hash);
  }

  /**
   * EventStoreDB's idempotence, for an append whose expectation no longer holds: where the events
   * just after the expected revision are these very events (the same ids, in order), this is a
   * retry of an append already recorded (its answer lost on the way), and it is answered as the
   * first was, without a second copy.
   */
  private alreadyRecorded(append: Extract<LogWrite, { kind: 'append' }>, current: number | 'no_stream'): AppendResult | null {
    const expected = append.expectedRevision === 'no_stream' ? -1 : append.expectedRevision;
    if (typeof expected !== 'number' || current === 'no_stream' || append.events.length === 0) return null;
    if (append.events.some((event) => event.id === undefined)) return null;
    const following = this.statements.following.all(append.streamName, expected, append.events.length);
    if (following.length !== append.events.length || following.some((row, i) => row.id !== append.events[i]!.id)) return null;
    return { nextExpectedRevision: expected + append.events.length, position: following.at(-1)!.position };
  }

  private append(append: Extract<LogWrite, { kind: 'append' }>, created: string, log: LogTail): AppendResult {
    const settings = this.statements.settings.get(append.streamName);
    if (settings?.deleted) throw new StreamDeletedError(append.streamName);
    const tail = this.statements.tail.get(append.streamName);
    const current = tail ? tail.revision : 'no_stream';
    if (!satisfiesExpectedRevision(append.expectedRevision, current)) {
      const recorded = this.alreadyRecorded(append, current);
      if (recorded) return recorded;
      throw new WrongExpectedRevisionError(append.streamName, append.expectedRevision, current);
    }
    const before = current === 'no_stream' ? -1 : current;
    // An empty append records nothing (it is a check of the expected revision); its position is
    // the log's head, as for a read.
    if (append.events.length === 0) return { nextExpectedRevision: before, position: log.head };
    let revision = before;
    let position = 0;
    let streamHash = tail?.hash ?? '';
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
      log.chain = chainHash(log.chain, streamHash);
      const info = this.statements.insertEvent.run(row.stream, row.revision, row.id, row.type, row.data, row.metadata, row.created, streamHash, log.chain);
      position = Number(info.lastInsertRowid);
      log.head = position;
    }
    // Only the events this append pushed out of the window: the older ones went with earlier appends.
    if (settings?.max_count) this.statements.truncateRange.run(append.streamName, before - settings.max_count, revision - settings.max_count);
    return { nextExpectedRevision: revision, position };
  }
}
