import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from '../eventstore/sqlite-database.js';
import { WriteGate } from '../eventstore/write-gate.js';
import { type Checkpoint, type CheckpointAdvance, CheckpointConflictError, type DocumentWrite, assertCollectionName } from './read-model-store.js';

/**
 * Document writes with the documents already serialised, field by field: write `i` is
 * `collections[i]`, `ids[i]`, `positions[i]`, `jsons[i]` (null deletes). This is what crosses to a
 * writer thread, and four arrays clone in under half the time that an object per write does.
 */
export interface EncodedWrites {
  collections: string[];
  ids: string[];
  positions: number[];
  jsons: (string | null)[];
}

export function encodeWrites(writes: readonly DocumentWrite[]): EncodedWrites {
  const encoded: EncodedWrites = { collections: [], ids: [], positions: [], jsons: [] };
  for (const write of writes) {
    encoded.collections.push(write.collection);
    encoded.ids.push(write.id);
    encoded.positions.push(write.position);
    encoded.jsons.push(write.doc === null ? null : JSON.stringify(write.doc));
  }
  return encoded;
}

interface WriteStatements {
  upsert: Statement<[string, number, string]>;
  remove: Statement<[string, number]>;
}

/**
 * Commits document writes and checkpoint advances in one transaction on one connection: the
 * store's own, or a bulk load's writer thread's. Statements are prepared once per collection.
 */
export class SqliteDocumentWriter {
  private readonly tables = new Map<string, WriteStatements>();
  private readonly readCheckpoint: Statement<[string], Checkpoint>;
  private readonly saveCheckpoint: Statement<[string, number, number]>;

  constructor(
    private readonly db: SqliteDatabase,
    /** Shared with the other writing connections of this process (the log's; see WriteGate). */
    private readonly gate: WriteGate = new WriteGate(),
  ) {
    db.exec(`CREATE TABLE IF NOT EXISTS rm_checkpoints (
      name TEXT PRIMARY KEY, version INTEGER NOT NULL, position INTEGER NOT NULL)`);
    this.readCheckpoint = db.prepare('SELECT name, version, position FROM rm_checkpoints WHERE name = ?');
    this.saveCheckpoint = db.prepare(
      `INSERT INTO rm_checkpoints (name, version, position) VALUES (?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET version = excluded.version, position = excluded.position`,
    );
  }

  commit(writes: EncodedWrites, checkpoints: readonly CheckpointAdvance[]): void {
    const transaction = this.db.transaction(() => {
      for (const checkpoint of checkpoints) {
        const stored = this.readCheckpoint.get(checkpoint.name);
        if ((stored?.position ?? null) !== checkpoint.expectedPosition) throw new CheckpointConflictError(checkpoint.name);
      }
      const { collections, ids, positions, jsons } = writes;
      let collection = '';
      let statements: WriteStatements | null = null;
      for (let i = 0; i < ids.length; i++) {
        // Writes arrive grouped by collection: look the statements up once per run of them.
        if (statements === null || collections[i] !== collection) {
          collection = collections[i]!;
          statements = this.statements(collection);
        }
        const json = jsons[i] ?? null;
        if (json === null) statements.remove.run(ids[i]!, positions[i]!);
        else statements.upsert.run(ids[i]!, positions[i]!, json);
      }
      for (const checkpoint of checkpoints) this.saveCheckpoint.run(checkpoint.name, checkpoint.version, checkpoint.position);
    });
    this.gate.hold(() => transaction.immediate());
  }

  /** After a collection's table is dropped and made again. */
  forget(collection: string): void {
    this.tables.delete(collection);
  }

  private statements(collection: string): WriteStatements {
    let statements = this.tables.get(collection);
    if (!statements) {
      const table = `rm_${assertCollectionName(collection)}`;
      statements = {
        upsert: this.db.prepare(
          `INSERT INTO ${table} (id, position, doc) VALUES (?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET position = excluded.position, doc = excluded.doc
           WHERE excluded.position > ${table}.position`,
        ),
        remove: this.db.prepare(`DELETE FROM ${table} WHERE id = ? AND position <= ?`),
      };
      this.tables.set(collection, statements);
    }
    return statements;
  }
}
