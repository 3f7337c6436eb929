import type { SqliteDatabase } from './sqlite-database.js';
import type { EventRow } from './sqlite-event-rows.js';
import { chainHash, eventContent, eventHash } from './event-hash.js';
import { STREAM_DELETED, STREAM_METADATA } from './event-store.js';
import { CHECKPOINT_STREAM, type CheckpointData, KeptDigest, type StreamAnchor, anchorsDigest, isCheckpointData } from './log-checkpoint.js';

/** A row as `verify` and compaction read it: the event, its hashes, and whether retention or deletion removed its content. */
export interface LogRow extends EventRow {
  hash: string;
  chain: string;
  removed: number;
}

export interface LogWalk {
  ok: boolean;
  events_checked: number;
  /** The position of the last event walked (0 for an empty log). */
  head_position: number;
  /** The running hash after the last event: note it down, and compare it on the next verify. */
  head_chain: string | null;
  first_break: { position: number; reason: string } | null;
  /** The checkpoint the walk started from, when the log has been compacted. */
  checkpoint: { revision: number; data: CheckpointData } | null;
}

export interface WalkOptions {
  /**
   * Check each event's content against its hash. Compaction skips it for the pings and the rest
   * (it changes no event that stays, and `verify` checks them all), but not for the `$` records:
   * a window edited to allow more would otherwise have events removed on its word.
   */
  checkContent: boolean;
  /** Sees every row walked, in position order, once its place in the chain is checked. */
  visit?: (row: LogRow) => void;
}

/** What the hashed log allows to be removed from one stream: set by its `$$` records and its appends. */
interface Removable {
  maxCount: number | null;
  /** Revisions below this one may be removed. */
  truncateBefore: number;
  deleted: boolean;
}

const COLUMNS = 'position, stream, revision, id, type, data, metadata, created, hash, chain, removed';

/**
 * Walks the embedded log in order, in one read transaction, and reports the first place it was
 * tampered with: a missing position (a deleted event), a revision out of order (a moved event),
 * content that no longer matches its hash (an edited event), a running hash that breaks (edited
 * hashes), or content removed where no retention window or deletion recorded in the log reached
 * (a blanked event).
 *
 * A compacted log starts from its newest checkpoint: the rows at or before its position must be
 * exactly those it kept (their digest), each stream that lost its first events starts from its
 * anchor, and the running hash goes on from the checkpoint's. The checkpoint is itself an event
 * after that position, so editing it breaks the chain as editing any event does.
 */
export function walkLog(db: SqliteDatabase, options: WalkOptions): LogWalk {
  return db.transaction(() => walk(db, options))();
}

function walk(db: SqliteDatabase, options: WalkOptions): LogWalk {
  const streams = new Map<string, { hash: string; revision: number }>();
  const removable = new Map<string, Removable>();
  const removableOf = (stream: string) => {
    let found = removable.get(stream);
    if (!found) removable.set(stream, (found = { maxCount: null, truncateBefore: 0, deleted: false }));
    return found;
  };
  let checked = 0;
  let head = 0;
  let firstRemoved: number | null = null;
  let checkpoint: LogWalk['checkpoint'] = null;
  const broken = (position: number, reason: string): LogWalk => ({
    ok: false,
    events_checked: checked,
    head_position: head,
    head_chain: null,
    first_break: { position, reason },
    checkpoint,
  });

  /** Checks one row's place in its stream and its content; null if it holds. */
  const step = (row: LogRow): string | null => {
    const stream = streams.get(row.stream) ?? { hash: '', revision: -1 };
    if (row.revision !== stream.revision + 1) return `event ${row.revision} of stream ${row.stream} is out of order (expected revision ${stream.revision + 1})`;
    if (!row.removed) {
      if (options.checkContent || row.stream.startsWith('$')) {
        const content = eventContent({ ...row, data: row.data ?? '', metadata: row.metadata ?? '' });
        if (eventHash(stream.hash, content) !== row.hash) return `event ${row.revision} of stream ${row.stream} does not match its hash: it was edited`;
      }
      if (row.stream.startsWith('$$')) recordWindow(removableOf(row.stream.slice(2)), row, streams.get(row.stream.slice(2))?.revision ?? -1);
    } else {
      firstRemoved ??= row.position;
    }
    streams.set(row.stream, { hash: row.hash, revision: row.revision });
    const window = removable.get(row.stream);
    if (window?.maxCount) window.truncateBefore = Math.max(window.truncateBefore, row.revision - window.maxCount + 1);
    checked += 1;
    head = row.position;
    options.visit?.(row);
    return null;
  };

  let chain = '';
  let expectedPosition = 1;
  const newest = db.prepare<[string], LogRow>(`SELECT ${COLUMNS} FROM es_events WHERE stream = ? ORDER BY revision DESC LIMIT 1`).get(CHECKPOINT_STREAM);
  if (newest) {
    if (newest.removed) return broken(newest.position, 'the newest compaction checkpoint was removed');
    const data: unknown = JSON.parse(newest.data ?? 'null');
    if (!isCheckpointData(data)) return broken(newest.position, 'the newest compaction checkpoint is unreadable');
    checkpoint = { revision: newest.revision, data };
    const anchors = db.prepare<[], StreamAnchor>('SELECT stream, revision, hash FROM es_anchors').all();
    if (anchors.length !== data.anchors || anchorsDigest(anchors) !== data.anchors_digest) {
      return broken(data.through_position, 'where the compacted streams start no longer matches the checkpoint');
    }
    for (const anchor of anchors) streams.set(anchor.stream, { hash: anchor.hash, revision: anchor.revision });
    const kept = new KeptDigest();
    for (const row of db.prepare<[number], LogRow>(`SELECT ${COLUMNS} FROM es_events WHERE position <= ? ORDER BY position`).iterate(data.through_position)) {
      const problem = step(row);
      if (problem) return broken(row.position, problem);
      kept.add(row);
    }
    if (kept.count !== data.kept || kept.digest() !== data.kept_digest) {
      return broken(data.through_position, `the events kept through position ${data.through_position} when the log was compacted were changed, added or removed`);
    }
    chain = data.chain;
    expectedPosition = data.through_position + 1;
  }
  for (const row of db.prepare<[number], LogRow>(`SELECT ${COLUMNS} FROM es_events WHERE position >= ? ORDER BY position`).iterate(expectedPosition)) {
    if (row.position !== expectedPosition) return broken(expectedPosition, `the event at position ${expectedPosition} is missing`);
    const problem = step(row);
    if (problem) return broken(row.position, problem);
    chain = chainHash(chain, row.hash);
    if (chain !== row.chain) return broken(row.position, `the log's running hash breaks at position ${row.position}`);
    expectedPosition += 1;
  }
  const unallowed = firstRemoved === null ? null : firstUnallowedRemoval(db, firstRemoved, removable);
  if (unallowed) {
    return broken(unallowed.position, `event ${unallowed.revision} of stream ${unallowed.stream} was removed, though no retention window or deletion reached it`);
  }
  return { ok: true, events_checked: checked, head_position: head, head_chain: checked > 0 ? chain : null, first_break: null, checkpoint };
}

/** A `$metadata` or `$streamDeleted` record, whose content has just matched its hash. */
function recordWindow(window: Removable, row: LogRow, streamRevision: number): void {
  if (row.type === STREAM_DELETED) {
    window.deleted = true;
    return;
  }
  if (row.type !== STREAM_METADATA) return;
  const data = JSON.parse(row.data ?? '{}') as { $maxCount?: number; $tb?: number };
  if (typeof data.$tb === 'number') window.truncateBefore = Math.max(window.truncateBefore, data.$tb);
  if (typeof data.$maxCount === 'number') {
    window.maxCount = data.$maxCount;
    window.truncateBefore = Math.max(window.truncateBefore, streamRevision - data.$maxCount + 1);
  }
}

/** The first removed event (in log order) that neither its stream's windows nor its deletion allowed. */
function firstUnallowedRemoval(db: SqliteDatabase, from: number, removable: ReadonlyMap<string, Removable>): { position: number; stream: string; revision: number } | null {
  const removed = db.prepare<[number], { position: number; stream: string; revision: number }>('SELECT position, stream, revision FROM es_events WHERE removed = 1 AND position >= ? ORDER BY position').iterate(from);
  for (const row of removed) {
    const window = removable.get(row.stream);
    if (!window || (!window.deleted && row.revision >= window.truncateBefore)) return row;
  }
  return null;
}
