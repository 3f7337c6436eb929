import type { LogIntegrityCheck } from '../domain/audit/log-integrity.js';
import type { SqliteDatabase } from '../eventstore/sqlite-database.js';
import { type LogWalk, walkLog } from '../eventstore/log-walk.js';

export type LogVerification = Omit<LogWalk, 'checkpoint'> & {
  /** Where the walk started: after the newest compaction checkpoint, or at the first event. */
  compacted_through: number | null;
};

/**
 * Walks the embedded log and reports the first place it was tampered with (see walkLog): every
 * event's content is checked against its hash, from the newest compaction checkpoint on.
 */
export function verifyLog(db: SqliteDatabase): LogVerification {
  const { checkpoint, ...walked } = walkLog(db, { checkContent: true });
  return { ...walked, compacted_through: checkpoint?.data.through_position ?? null };
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
    head_position: v.head_position,
    head_chain: v.head_chain,
    first_break_position: v.first_break?.position ?? null,
    first_break_reason: v.first_break?.reason ?? null,
    read_models_ok: readModelsOk,
    checked_by: by,
    user_id: userId,
    project_id: projectId,
  };
}
