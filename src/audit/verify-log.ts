import type { LogIntegrityCheck } from '../domain/audit/log-integrity.js';
import type { SqliteDatabase } from '../eventstore/sqlite-database.js';
import { chainHash, eventContent, eventHash } from '../eventstore/event-hash.js';

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

/**
 * Walks the embedded log in order and reports the first place it was tampered with: a missing
 * position (a deleted event), a revision out of order (a moved event), content that no longer
 * matches its hash (an edited event), or a running hash that breaks (edited hashes).
 */
export function verifyLog(db: SqliteDatabase): LogVerification {
  const streams = new Map<string, { hash: string; revision: number }>();
  let chain = '';
  let expectedPosition = 1;
  let checked = 0;
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
    }
    chain = chainHash(chain, row.hash);
    if (chain !== row.chain) return broken(row.position, `the log's running hash breaks at position ${row.position}`);
    streams.set(row.stream, { hash: row.hash, revision: row.revision });
    expectedPosition += 1;
    checked += 1;
  }
  return { ok: true, events_checked: checked, head_chain: checked > 0 ? chain : null, first_break: null };
}

/** A verification as the log records it (LogIntegrityChecked). */
export function integrityCheck(v: LogVerification, readModelsOk: boolean | null, at: Date, by: LogIntegrityCheck['checked_by'], userId: string | null): LogIntegrityCheck {
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
  };
}
