import type { LogIntegrityCheck } from '../domain/audit/log-integrity.js';
import type { SqliteDatabase } from '../eventstore/sqlite-database.js';
import { chainHash, eventContent, eventHash } from '../eventstore/event-hash.js';
import { STREAM_DELETED, STREAM_METADATA } from '../eventstore/event-store.js';

export interface LogVerification {
  ok: boolean;
  events_checked: number;
  /** The running hash after the last event: note it down, and compare it on the next verify. */
  head_chain: string | null;
  first_break: { position: number; reason: string } | null;
}

interface Row {
  position: number;
  stream: string;
  revision: number;
  id: string;
  type: string;
  data: string | null;
  metadata: string | null;
  created: string;
  hash: string;
  chain: string;
  removed: number;
}

/** What the hashed log allows to be removed from one stream: set by its `$$` records and its appends. */
interface Removable {
  maxCount: number | null;
  /** Revisions below this one may be removed. */
  truncateBefore: number;
  deleted: boolean;
}

/**
 * Walks the embedded log in order and reports the first place it was tampered with: a missing
 * position (a deleted event), a revision out of order (a moved event), content that no longer
 * matches its hash (an edited event), a running hash that breaks (edited hashes), or content
 * removed where no retention window or deletion recorded in the log reached (a blanked event).
 */
export function verifyLog(db: SqliteDatabase): LogVerification {
  const streams = new Map<string, { hash: string; revision: number }>();
  const removable = new Map<string, Removable>();
  const removableOf = (stream: string) => {
    let found = removable.get(stream);
    if (!found) removable.set(stream, (found = { maxCount: null, truncateBefore: 0, deleted: false }));
    return found;
  };
  let chain = '';
  let expectedPosition = 1;
  let checked = 0;
  let firstRemoved: number | null = null;
  const broken = (position: number, reason: string): LogVerification => ({ ok: false, events_checked: checked, head_chain: null, first_break: { position, reason } });
  const rows = db.prepare<[], Row>('SELECT position, stream, revision, id, type, data, metadata, created, hash, chain, removed FROM es_events ORDER BY position').iterate();
  for (const row of rows) {
    if (row.position !== expectedPosition) return broken(expectedPosition, `the event at position ${expectedPosition} is missing`);
    const stream = streams.get(row.stream) ?? { hash: '', revision: -1 };
    if (row.revision !== stream.revision + 1) {
      return broken(row.position, `event ${row.revision} of stream ${row.stream} is out of order (expected revision ${stream.revision + 1})`);
    }
    if (!row.removed) {
      const content = eventContent({ ...row, data: row.data ?? '', metadata: row.metadata ?? '' });
      if (eventHash(stream.hash, content) !== row.hash) return broken(row.position, `event ${row.revision} of stream ${row.stream} does not match its hash: it was edited`);
      if (row.stream.startsWith('$$')) recordWindow(removableOf(row.stream.slice(2)), row, streams.get(row.stream.slice(2))?.revision ?? -1);
    } else {
      firstRemoved ??= row.position;
    }
    chain = chainHash(chain, row.hash);
    if (chain !== row.chain) return broken(row.position, `the log's running hash breaks at position ${row.position}`);
    streams.set(row.stream, { hash: row.hash, revision: row.revision });
    const window = removable.get(row.stream);
    if (window?.maxCount) window.truncateBefore = Math.max(window.truncateBefore, row.revision - window.maxCount + 1);
    expectedPosition += 1;
    checked += 1;
  }
  const unallowed = firstRemoved === null ? null : firstUnallowedRemoval(db, firstRemoved, removable);
  if (unallowed) {
    return broken(unallowed.position, `event ${unallowed.revision} of stream ${unallowed.stream} was removed, though no retention window or deletion reached it`);
  }
  return { ok: true, events_checked: checked, head_chain: checked > 0 ? chain : null, first_break: null };
}

/** A `$metadata` or `$streamDeleted` record, whose content has just matched its hash. */
function recordWindow(window: Removable, row: Row, streamRevision: number): void {
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

/** A verification as the log records it (LogIntegrityChecked). */
export function integrityCheck(
  v: LogVerification,
  readModelsOk: boolean | null,
  at: Date,
  by: LogIntegrityCheck['checked_by'],
  userId: string | null,
  projectId: string | null = null,
): LogIntegrityCheck {
  return {
    checked_at: at.toISOString(),
    ok: v.ok,
    events_checked: v.events_checked,
    // Positions run from 1 without gaps in a whole log: the last one checked is the count.
    head_position: v.events_checked,
    head_chain: v.head_chain,
    first_break_position: v.first_break?.position ?? null,
    first_break_reason: v.first_break?.reason ?? null,
    read_models_ok: readModelsOk,
    checked_by: by,
    user_id: userId,
    project_id: projectId,
  };
}
