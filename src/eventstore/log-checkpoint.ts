import { createHash } from 'node:crypto';

/**
 * Compaction folds the events that retention and deletion removed out of the embedded log. Their
 * rows (a hash and ids each, ~200 bytes) are what made the file grow with every ping whatever the
 * retention. What the chain proved about them is kept in one record appended to the hashed log,
 * the checkpoint: `verify` starts from it instead of from the first event (see log-compaction.ts).
 */
export const CHECKPOINT_STREAM = '$checkpoints';
export const CHECKPOINT_TYPE = '$logCompacted';

export interface CheckpointData {
  /** Every event at or before this position was walked and its chain checked when it was compacted. */
  through_position: number;
  /** The log's running hash after that position: the walk goes on from it. */
  chain: string;
  /** How many rows at or before `through_position` the compaction left, and their digest (keptDigest). */
  kept: number;
  kept_digest: string;
  /** How many streams lost their first events, and the digest of where each now starts (anchorsDigest). */
  anchors: number;
  anchors_digest: string;
}

/** Where a stream starts once its first events were compacted: the last one removed, by revision and hash. */
export interface StreamAnchor {
  stream: string;
  revision: number;
  hash: string;
}

/**
 * The digest of the rows a compaction left at or before its position, in position order: removing,
 * adding, moving or re-hashing any of them changes it. Content is covered through each row's hash,
 * which `verify` checks against the content.
 */
export class KeptDigest {
  private readonly hash = createHash('sha256');
  count = 0;

  add(row: { position: number; stream: string; revision: number; hash: string }): void {
    this.hash.update(`${row.position}\t${row.stream}\t${row.revision}\t${row.hash}\n`);
    this.count += 1;
  }

  digest(): string {
    return this.hash.digest('hex');
  }
}

/** The digest of the anchors, in stream order. */
export function anchorsDigest(anchors: readonly StreamAnchor[]): string {
  const hash = createHash('sha256');
  for (const anchor of [...anchors].sort((a, b) => (a.stream < b.stream ? -1 : a.stream > b.stream ? 1 : 0))) {
    hash.update(`${anchor.stream}\t${anchor.revision}\t${anchor.hash}\n`);
  }
  return hash.digest('hex');
}

export function isCheckpointData(value: unknown): value is CheckpointData {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    Number.isInteger(v['through_position']) &&
    typeof v['chain'] === 'string' &&
    Number.isInteger(v['kept']) &&
    typeof v['kept_digest'] === 'string' &&
    Number.isInteger(v['anchors']) &&
    typeof v['anchors_digest'] === 'string'
  );
}
