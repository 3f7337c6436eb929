import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from '../eventstore/sqlite-database.js';
import {
  type Checkpoint,
  type CheckpointAdvance,
  type CollectionSpec,
  type Document,
  type DocumentWrite,
  type Filter,
  type FindOptions,
  type ReadModelStore,
  type Scalar,
  type StoredDocument,
  CheckpointConflictError,
  assertCollectionName,
  assertFieldPath,
  isRange,
} from './read-model-store.js';

interface DocumentRow {
  id: string;
  position: number;
  doc: string;
}

/**
 * Read models in the same SQLite file as the events: a projection's writes and its checkpoint
 * commit in one transaction, so a crash can never leave one without the other.
 * Each collection is a table of JSON documents; declared indexes are expression indexes on
 * `json_extract`, which the planner uses because queries spell the same expressions.
 */
export class SqliteReadModelStore implements ReadModelStore {
  private readonly known = new Set<string>();
  private readonly statements = new Map<string, Statement>();

  constructor(private readonly db: SqliteDatabase) {
    db.exec(`CREATE TABLE IF NOT EXISTS rm_checkpoints (
      name TEXT PRIMARY KEY, version INTEGER NOT NULL, position INTEGER NOT NULL)`);
  }

  async ensureCollections(specs: readonly CollectionSpec[]): Promise<void> {
    this.db.transaction(() => specs.forEach((spec) => this.createCollection(spec)))();
  }

  private createCollection(spec: CollectionSpec): void {
    const table = tableName(spec.name);
    this.db.exec(`CREATE TABLE IF NOT EXISTS ${table} (id TEXT PRIMARY KEY, position INTEGER NOT NULL, doc TEXT NOT NULL)`);
    for (const index of spec.indexes) {
      const name = `${table}__${index.fields.map((f) => assertFieldPath(f).replaceAll('.', '_')).join('__')}`;
      const columns = index.fields.map(fieldExpression).join(', ');
      this.db.exec(`CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${name} ON ${table} (${columns})`);
    }
    this.known.add(spec.name);
  }

  async get<D = Document>(collection: string, id: string): Promise<StoredDocument<D> | null> {
    if (!this.exists(collection)) return null;
    const row = this.prepare(`SELECT id, position, doc FROM ${tableName(collection)} WHERE id = ?`).get(id) as DocumentRow | undefined;
    return row ? toStored<D>(row) : null;
  }

  async find<D = Document>(collection: string, filter: Filter = {}, options: FindOptions = {}): Promise<StoredDocument<D>[]> {
    if (!this.exists(collection)) return [];
    const where = whereClause(filter);
    const order = [...(options.sort ?? []).map(([field, direction]) => `${fieldExpression(field)} ${direction === 1 ? 'ASC' : 'DESC'}`), 'id ASC'];
    const sql =
      `SELECT id, position, doc FROM ${tableName(collection)} ${where.sql} ORDER BY ${order.join(', ')}` +
      ` LIMIT ${options.limit ?? -1} OFFSET ${options.skip ?? 0}`;
    return (this.prepare(sql).all(...where.params) as DocumentRow[]).map((row) => toStored<D>(row));
  }

  async count(collection: string, filter: Filter = {}): Promise<number> {
    if (!this.exists(collection)) return 0;
    const where = whereClause(filter);
    const row = this.prepare(`SELECT COUNT(*) AS n FROM ${tableName(collection)} ${where.sql}`).get(...where.params) as { n: number } | undefined;
    return row?.n ?? 0;
  }

  async commit(writes: readonly DocumentWrite[], checkpoints: readonly CheckpointAdvance[]): Promise<void> {
    const readCheckpoint = this.db.prepare<[string], Checkpoint>('SELECT name, version, position FROM rm_checkpoints WHERE name = ?');
    const saveCheckpoint = this.db.prepare(
      `INSERT INTO rm_checkpoints (name, version, position) VALUES (?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET version = excluded.version, position = excluded.position`,
    );
    this.db
      .transaction(() => {
        for (const checkpoint of checkpoints) {
          const stored = readCheckpoint.get(checkpoint.name);
          if ((stored?.position ?? null) !== checkpoint.expectedPosition) throw new CheckpointConflictError(checkpoint.name);
        }
        for (const write of writes) {
          const table = tableName(write.collection);
          if (write.doc === null) {
            this.prepare(`DELETE FROM ${table} WHERE id = ? AND position <= ?`).run(write.id, write.position);
          } else {
            this
              .prepare(
                `INSERT INTO ${table} (id, position, doc) VALUES (?, ?, ?)
                 ON CONFLICT (id) DO UPDATE SET position = excluded.position, doc = excluded.doc
                 WHERE excluded.position > ${table}.position`,
              )
              .run(write.id, write.position, JSON.stringify(write.doc));
          }
        }
        for (const checkpoint of checkpoints) saveCheckpoint.run(checkpoint.name, checkpoint.version, checkpoint.position);
      })
      .immediate();
  }

  async readCheckpoints(): Promise<Checkpoint[]> {
    return this.db.prepare<[], Checkpoint>('SELECT name, version, position FROM rm_checkpoints ORDER BY name').all();
  }

  async reset(checkpoint: { name: string; version: number }, collections: readonly CollectionSpec[]): Promise<void> {
    this.db
      .transaction(() => {
        for (const spec of collections) {
          this.statements.clear();
          this.db.exec(`DROP TABLE IF EXISTS ${tableName(spec.name)}`);
          this.known.delete(spec.name);
          this.createCollection(spec);
        }
        this.db
          .prepare(
            `INSERT INTO rm_checkpoints (name, version, position) VALUES (?, ?, 0)
             ON CONFLICT (name) DO UPDATE SET version = excluded.version, position = 0`,
          )
          .run(checkpoint.name, checkpoint.version);
      })
      .immediate();
  }

  async close(): Promise<void> {}

  /** Statements are cached: a rebuild runs the same few writes hundreds of thousands of times. */
  private prepare(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** A collection nobody has projected into yet reads as empty rather than failing. */
  private exists(collection: string): boolean {
    if (this.known.has(collection)) return true;
    const found = this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(tableName(collection));
    if (found) this.known.add(collection);
    return Boolean(found);
  }
}

function tableName(collection: string): string {
  return `rm_${assertCollectionName(collection)}`;
}

/** The path is validated, then inlined so that the expression matches the index definition. */
function fieldExpression(field: string): string {
  return `json_extract(doc, '$.${assertFieldPath(field)}')`;
}

function toSqlValue(value: Scalar): string | number | null {
  return typeof value === 'boolean' ? (value ? 1 : 0) : value;
}

function whereClause(filter: Filter): { sql: string; params: (string | number | null)[] } {
  const clauses: string[] = [];
  const params: (string | number | null)[] = [];
  for (const [field, condition] of Object.entries(filter)) {
    const expression = fieldExpression(field);
    if (!isRange(condition)) {
      if (condition === null) clauses.push(`${expression} IS NULL`);
      else {
        clauses.push(`${expression} = ?`);
        params.push(toSqlValue(condition));
      }
      continue;
    }
    if (condition.$in !== undefined) {
      if (condition.$in.length === 0) clauses.push('0');
      else {
        clauses.push(`${expression} IN (${condition.$in.map(() => '?').join(', ')})`);
        params.push(...condition.$in.map(toSqlValue));
      }
    }
    if (condition.$ne !== undefined) {
      clauses.push(`${expression} IS NOT ?`);
      params.push(toSqlValue(condition.$ne));
    }
    const ranges = [['$gt', '>'], ['$gte', '>='], ['$lt', '<'], ['$lte', '<=']] as const;
    for (const [operator, sql] of ranges) {
      const bound = condition[operator];
      if (bound !== undefined) {
        clauses.push(`${expression} ${sql} ?`);
        params.push(bound);
      }
    }
  }
  return { sql: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

function toStored<D>(row: DocumentRow): StoredDocument<D> {
  return { id: row.id, position: row.position, doc: JSON.parse(row.doc) as D };
}
