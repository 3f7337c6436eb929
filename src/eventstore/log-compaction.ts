import type { SqliteDatabase } from './sqlite-database.js';
import { CHECKPOINT_STREAM, type CheckpointData, KeptDigest, type StreamAnchor, anchorsDigest } from './log-checkpoint.js';
import { type LogRow, walkLog } from './log-walk.js';

/**
 * How the embedded log stays the size its retention allows.
 *
 * Retention and deletion blank an event at once (its content goes), but its row stays, with its
 * hashes, so that the chain over the log can still be checked across it. Compaction then folds
 * those rows away: it walks the log, checks the chain up to the head and that every removal was
 * allowed (a window or a deletion recorded in the log), and records what it proved in a
 * checkpoint event appended to the log: the running hash at that position, a digest of the rows it
 * keeps before it, and where each stream that lost its first events now starts (its anchor: the
 * last removed event's revision and hash). Only then are the removed rows deleted, in the same
 * transaction as the checkpoint. `verify` starts from the newest checkpoint.
 *
 * Why this shape: transparency logs (Certificate Transparency, Trillian) keep every leaf and prove
 * consistency between signed tree heads; prunable Merkle mountain ranges (Grin) drop leaves but
 * keep a tree of hashes beside them. Vigil's log already has a running hash and a chain per
 * stream, and what it removes is each stream's oldest events, so a checkpoint that the running
 * hash itself covers is enough: it costs one small event and one anchor per compacted stream, and
 * leaves the promise as it was (an edit anywhere still changes the head that an auditor noted).
 */
export interface CompactionPlan {
  checkpoint: CheckpointData;
  /** The checkpoint stream's revision when the plan was made: a plan made stale by another is refused. */
  expectedCheckpointRevision: number | 'no_stream';
  /** The positions to delete, as inclusive ranges: rows removed by retention or deletion, at or before the checkpoint's position. */
  removedRanges: Array<[number, number]>;
  removedCount: number;
  /** The anchors that move: each stream's last removed row. */
  anchors: StreamAnchor[];
}

export type CompactionPlanning =
  | { kind: 'plan'; plan: CompactionPlan }
  /** `head`: where the log stood; a look before it has moved on by `minRemoved` would find as little. */
  | { kind: 'nothing'; removed: number; head: number }
  /** The log does not verify: nothing is folded, so that the evidence stays. */
  | { kind: 'refused'; reason: string };

export interface CompactionLimits {
  /** Fewer removed rows than this are left for a later compaction: each costs a checkpoint event. */
  minRemoved: number;
  /** At most this many rows deleted by one compaction, so that its transaction stays short beside the appends. */
  maxRemoved: number;
  /** The head at a look that found too little: the next walks only once the log has moved on by `minRemoved`. */
  lastLookHead?: number;
}

export const DEFAULT_COMPACTION_LIMITS: CompactionLimits = { minRemoved: 2_000, maxRemoved: 20_000 };

/**
 * Plans one compaction, in one read transaction (on any connection, a thread of its own
 * preferably: it walks the whole log). The plan is applied by the log's writer (SqliteLogWriter).
 */
export function planCompaction(db: SqliteDatabase, limits: CompactionLimits = DEFAULT_COMPACTION_LIMITS): CompactionPlanning {
  return db.transaction(() => plan(db, limits))();
}

function plan(db: SqliteDatabase, limits: CompactionLimits): CompactionPlanning {
  // Each event pushed out of a window came with an append: fewer appends than the least worth
  // folding since the last checkpoint, and the walk (the whole log) is not worth making yet.
  const head = db.prepare<[], { position: number }>('SELECT position FROM es_events ORDER BY position DESC LIMIT 1').get()?.position ?? 0;
  const since = Math.max(checkpointPosition(db) ?? 0, limits.lastLookHead ?? 0);
  // Not a look of its own: the point to measure from stays where the last walk (or checkpoint) left it.
  if (head - since < limits.minRemoved) return { kind: 'nothing', removed: 0, head: since };
  const removed: number[] = [];
  const walked = walkLog(db, { checkContent: false, visit: (row) => row.removed && removed.push(row.position) });
  if (!walked.ok) return { kind: 'refused', reason: walked.first_break?.reason ?? 'the log does not verify' };
  if (removed.length < limits.minRemoved) return { kind: 'nothing', removed: removed.length, head: walked.head_position };

  // Through the last removed row that fits, or through the head when all of them do; never back
  // before the last checkpoint, whose chain is the only one known for the rows before it.
  const previous = walked.checkpoint?.data ?? null;
  const candidate = removed.length <= limits.maxRemoved ? walked.head_position : removed[limits.maxRemoved - 1]!;
  const through = Math.max(candidate, previous?.through_position ?? 0);
  const kept = new KeptDigest();
  const removedRanges: Array<[number, number]> = [];
  const moved = new Map<string, StreamAnchor>();
  let chain = previous?.chain ?? '';
  let removedCount = 0;
  const rows = db.prepare<[number], Pick<LogRow, 'position' | 'stream' | 'revision' | 'hash' | 'chain' | 'removed'>>(
    'SELECT position, stream, revision, hash, chain, removed FROM es_events WHERE position <= ? ORDER BY position',
  );
  for (const row of rows.iterate(through)) {
    if (row.position > (previous?.through_position ?? 0)) chain = row.chain;
    if (!row.removed) {
      kept.add(row);
      continue;
    }
    removedCount += 1;
    const last = removedRanges.at(-1);
    if (last && last[1] === row.position - 1) last[1] = row.position;
    else removedRanges.push([row.position, row.position]);
    // Positions grow with revisions within a stream: the last seen is the stream's newest removed.
    moved.set(row.stream, { stream: row.stream, revision: row.revision, hash: row.hash });
  }
  const anchors = new Map(db.prepare<[], StreamAnchor>('SELECT stream, revision, hash FROM es_anchors').all().map((a) => [a.stream, a]));
  for (const anchor of moved.values()) anchors.set(anchor.stream, anchor);
  const checkpoint: CheckpointData = {
    through_position: through,
    chain,
    kept: kept.count,
    kept_digest: kept.digest(),
    anchors: anchors.size,
    anchors_digest: anchorsDigest([...anchors.values()]),
  };
  return {
    kind: 'plan',
    plan: { checkpoint, expectedCheckpointRevision: walked.checkpoint?.revision ?? 'no_stream', removedRanges, removedCount, anchors: [...moved.values()] },
  };
}


/** The position the newest checkpoint folded through; null before any. */
function checkpointPosition(db: SqliteDatabase): number | null {
  const newest = db.prepare<[string], { data: string | null }>('SELECT data FROM es_events WHERE stream = ? ORDER BY revision DESC LIMIT 1').get(CHECKPOINT_STREAM);
  const through: unknown = newest?.data ? (JSON.parse(newest.data) as { through_position?: unknown } | null)?.through_position : null;
  return typeof through === 'number' ? through : null;
}
