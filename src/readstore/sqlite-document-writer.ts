import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from '../eventstore/sqlite-database.js';
import { WriteGate } from '../eventstore/write-gate.js';
import {
  type Checkpoint,
  type CheckpointAdvance,
  CheckpointConflictError,
  type CommitFence,
  type DocumentWrite,
  FencedOutError,
  UniqueIndexViolationError,
} from './read-model-store.js';
import { type SqlValue, fieldColumn, fieldValue, tableName } from './sqlite-collection-table.js';

/**
 * Document writes with the documents already serialised, field by field: write `i` is
 * `collections[i]`, `ids[i]`, `positions[i]`, `jsons[i]` (null deletes). This is what crosses to a
 * writer thread, and a few arrays clone in under half the time that an object per write does.
 */
export interface EncodedWrites {
  collections: string[];
  ids: string[];
  positions: number[];
  jsons: (string | null)[];
  /** The field columns each collection's documents fill, in order (sqlite-collection-table.ts). */
  columns: Map<string, readonly string[]>;
  /** Their values, one write after the other: a value per column for a document, none for a deletion. */
  values: SqlValue[];
}

/** `columnsOf` names the field columns the writer fills in a collection's table. */
export function encodeWrites(writes: readonly DocumentWrite[], columnsOf: (collection: string) => readonly string[]): EncodedWrites {
  const encoded: EncodedWrites = { collections: [], ids: [], positions: [], jsons: [], columns: new Map(), values: [] };
  let collection: string | null = null;
  let paths: string[][] = [];
  for (const write of writes) {
    if (write.collection !== collection) {
      collection = write.collection;
      let columns = encoded.columns.get(collection);
      if (!columns) encoded.columns.set(collection, (columns = columnsOf(collection)));
      paths = columns.map((field) => field.split('.'));
    }
    encoded.collections.push(write.collection);
    encoded.ids.push(write.id);
    encoded.positions.push(write.position);
    if (write.doc === null) encoded.jsons.push(null);
    else {
      encoded.jsons.push(JSON.stringify(write.doc));
      for (const path of paths) encoded.values.push(fieldValue(write.doc, path));
    }
  }
  return encoded;
}

/** How long a commit writes, at least, before it lets a waiting log writer go first (see SqliteDocumentWriter). */
const YIELD_AFTER_MS = 1;

/** Where a commit ended a transaction early: the next write, and the next of `EncodedWrites.values`. */
interface WriteCursor {
  write: number;
  value: number;
}

interface WriteStatements {
  /** id, position, doc, then the field columns' values. */
  upsert: Statement<[SqlValue[]]>;
  remove: Statement<[string, number]>;
}

/**
 * Commits document writes and checkpoint advances on one connection: the store's own, or a bulk
 * load's writer thread's. Statements are prepared once per collection and set of field columns.
 *
 * Normally one transaction. But when the log's writer waits for the gate (a ping waits behind this
 * commit), the transaction ends early, after at least `yieldAfterMs` of writing, lets the log's
 * writer commit, and goes on in another one; the checkpoints advance only with the last. A crash
 * in between leaves documents ahead of their checkpoint, each as this batch left it and carrying
 * its position, which the replay from the checkpoint skips (or rewrites identically), just as it
 * does for the documents of a batch committed whole.
 */
export class SqliteDocumentWriter {
  private readonly tables = new Map<string, Map<string, WriteStatements>>();
  private readonly readCheckpoint: Statement<[string], Checkpoint>;
  private readonly saveCheckpoint: Statement<[string, number, number]>;
  private readonly yieldAfterMs: number;
  private leaseHolder: Statement<[string], { holder: string }> | null = null;

  constructor(
    private readonly db: SqliteDatabase,
    /** Shared with the other writing connections of this process (the log's; see WriteGate). */
    private readonly gate: WriteGate = new WriteGate(),
    options: { yieldAfterMs?: number | undefined } = {},
  ) {
    this.yieldAfterMs = options.yieldAfterMs ?? YIELD_AFTER_MS;
    db.exec(`CREATE TABLE IF NOT EXISTS rm_checkpoints (
      name TEXT PRIMARY KEY, version INTEGER NOT NULL, position INTEGER NOT NULL)`);
    this.readCheckpoint = db.prepare('SELECT name, version, position FROM rm_checkpoints WHERE name = ?');
    this.saveCheckpoint = db.prepare(
      `INSERT INTO rm_checkpoints (name, version, position) VALUES (?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET version = excluded.version, position = excluded.position`,
    );
  }

  commit(writes: EncodedWrites, checkpoints: readonly CheckpointAdvance[], fence?: CommitFence): void {
    const next: WriteCursor = { write: 0, value: 0 };
    const part = this.db.transaction(() => {
      if (fence) this.checkFence(fence);
      this.writeFrom(next, writes, checkpoints);
    });
    do this.gate.holdAfterWaiters(() => part.immediate());
    while (next.write < writes.ids.length);
  }

  /** Writes from `next` on, and then advances the checkpoints, unless it stops early (see above). */
  private writeFrom(next: WriteCursor, writes: EncodedWrites, checkpoints: readonly CheckpointAdvance[]): void {
    for (const checkpoint of checkpoints) {
      const stored = this.readCheckpoint.get(checkpoint.name);
      if ((stored?.position ?? null) !== checkpoint.expectedPosition) throw new CheckpointConflictError(checkpoint.name);
    }
    const { collections, ids, positions, jsons, values } = writes;
    const first = next.write;
    const started = performance.now();
    let collection = '';
    let statements: WriteStatements | null = null;
    let columnCount = 0;
    for (; next.write < ids.length; next.write++) {
      const i = next.write;
      if (i > first && this.gate.writerWaiting() && performance.now() - started >= this.yieldAfterMs) return;
      // Writes arrive grouped by collection: look the statements up once per run of them.
      if (statements === null || collections[i] !== collection) {
        collection = collections[i]!;
        const columns = writes.columns.get(collection) ?? [];
        statements = this.statements(collection, columns);
        columnCount = columns.length;
      }
      const json = jsons[i] ?? null;
      if (json === null) {
        statements.remove.run(ids[i]!, positions[i]!);
        continue;
      }
      const row: SqlValue[] = [ids[i]!, positions[i]!, json];
      for (let c = 0; c < columnCount; c++) row.push(values[next.value++] ?? null);
      try {
        statements.upsert.run(row);
      } catch (error) {
        throw uniqueViolation(error, collection, ids[i]!);
      }
    }
    for (const checkpoint of checkpoints) this.saveCheckpoint.run(checkpoint.name, checkpoint.version, checkpoint.position);
  }

  /**
   * Inside each transaction of a commit: no other holder has taken the lease (see CommitFence).
   * A lease nobody holds (it lapsed and was purged) fences nobody out: another projector would
   * have to take it before it wrote anything.
   */
  private checkFence(fence: CommitFence): void {
    this.leaseHolder ??= this.db.prepare<[string], { holder: string }>('SELECT holder FROM coordination_leases WHERE name = ?');
    const holder = this.leaseHolder.get(fence.lease)?.holder;
    if (holder !== undefined && holder !== fence.holder) throw new FencedOutError(fence.lease);
  }

  /** After a collection's table is dropped and made again. */
  forget(collection: string): void {
    this.tables.delete(collection);
  }

  private statements(collection: string, fields: readonly string[]): WriteStatements {
    let byColumns = this.tables.get(collection);
    if (!byColumns) this.tables.set(collection, (byColumns = new Map<string, WriteStatements>()));
    const key = fields.join('\n');
    let statements = byColumns.get(key);
    if (!statements) {
      const table = tableName(collection);
      const columns = ['id', 'position', 'doc', ...fields.map(fieldColumn)];
      const updated = columns.slice(1).map((column) => `${column} = excluded.${column}`);
      statements = {
        upsert: this.db.prepare<[SqlValue[]]>(
          `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})
           ON CONFLICT (id) DO UPDATE SET ${updated.join(', ')}
           WHERE excluded.position > ${table}.position`,
        ),
        remove: this.db.prepare(`DELETE FROM ${table} WHERE id = ? AND position <= ?`),
      };
      byColumns.set(key, statements);
    }
    return statements;
  }
}

/**
 * SQLite's refusal of a duplicate in a unique index, as the port's error. The fields are read off
 * its message, `UNIQUE constraint failed: rm_users.doc.email` (a column a field, comma-separated);
 * an index an older version made on an expression names only the index, so no field is known.
 */
function uniqueViolation(error: unknown, collection: string, id: string): unknown {
  if (!(error instanceof Error && 'code' in error && error.code === 'SQLITE_CONSTRAINT_UNIQUE')) return error;
  const columns = /UNIQUE constraint failed: (.*)$/.exec(error.message)?.[1]?.split(', ') ?? [];
  const fields = columns.flatMap((column) => /^rm_[a-z0-9_]+\.doc\.(.+)$/.exec(column)?.[1] ?? []);
  return new UniqueIndexViolationError(collection, id, fields, { cause: error });
}
