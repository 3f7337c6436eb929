import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from '../eventstore/sqlite-database.js';
import type { WriteGate } from '../eventstore/write-gate.js';
import {
  type Checkpoint,
  type CheckpointAdvance,
  type CollectionSpec,
  type Document,
  type DocumentWrite,
  type Filter,
  type FindOptions,
  type IndexSpec,
  type ReadModelStore,
  type Scalar,
  type StoredDocument,
  assertCollectionName,
  assertFieldPath,
  isRange,
} from './read-model-store.js';
import { SqliteBulkWriter } from './sqlite-bulk-writer.js';
import { type EncodedWrite, SqliteDocumentWriter } from './sqlite-document-writer.js';

interface DocumentRow {
  id: string;
  position: number;
  doc: string;
}

/** The per-document read of one collection, prepared once: a rebuild runs it millions of times. */
interface TableStatements {
  get: Statement<[string], DocumentRow>;
}

interface IndexDefinition {
  leadingField: string;
  sql: string;
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
  private readonly tables = new Map<string, TableStatements>();
  /** Non-unique indexes held back during a bulk load, by collection. */
  private readonly deferredIndexes = new Map<string, IndexDefinition[]>();
  private readonly writer: SqliteDocumentWriter;
  /** During a bulk load of a file, the thread that commits its batches. */
  private bulk: SqliteBulkWriter | null = null;

  constructor(
    private readonly db: SqliteDatabase,
    options: { writeGate?: WriteGate } = {},
  ) {
    this.writer = new SqliteDocumentWriter(db, options.writeGate);
  }

  async ensureCollections(specs: readonly CollectionSpec[]): Promise<void> {
    await this.bulk?.drain();
    this.db.transaction(() => specs.forEach((spec) => this.createCollection(spec)))();
  }

  private createCollection(spec: CollectionSpec): void {
    const table = tableName(spec.name);
    this.db.exec(`CREATE TABLE IF NOT EXISTS ${table} (id TEXT PRIMARY KEY, position INTEGER NOT NULL, doc TEXT NOT NULL)`);
    const deferred = this.deferredIndexes.get(spec.name) ?? [];
    for (const index of spec.indexes) {
      const definition = indexDefinition(spec.name, index);
      // A projector preparing inside a bulk load must not build what the load holds back.
      if (!deferred.some((d) => d.sql === definition.sql)) this.db.exec(definition.sql);
    }
    this.known.add(spec.name);
  }

  async get<D = Document>(collection: string, id: string): Promise<StoredDocument<D> | null> {
    const sent = this.bulk?.pending(collection, id);
    if (sent) return sent.json === null ? null : toStored<D>({ id, position: sent.position, doc: sent.json });
    if (!this.exists(collection)) return null;
    const row = this.table(collection).get.get(id);
    return row ? toStored<D>(row) : null;
  }

  async find<D = Document>(collection: string, filter: Filter = {}, options: FindOptions = {}): Promise<StoredDocument<D>[]> {
    await this.bulk?.drain();
    if (!this.exists(collection)) return [];
    this.createDeferredIndexes(collection, [...Object.keys(filter), ...(options.sort ?? []).map(([field]) => field)]);
    const where = whereClause(filter);
    const order = [...(options.sort ?? []).map(([field, direction]) => `${fieldExpression(field)} ${direction === 1 ? 'ASC' : 'DESC'}`), 'id ASC'];
    const sql =
      `SELECT id, position, doc FROM ${tableName(collection)} ${where.sql} ORDER BY ${order.join(', ')}` +
      ` LIMIT ${options.limit ?? -1} OFFSET ${options.skip ?? 0}`;
    return (this.prepare(sql).all(...where.params) as DocumentRow[]).map((row) => toStored<D>(row));
  }

  async count(collection: string, filter: Filter = {}): Promise<number> {
    await this.bulk?.drain();
    if (!this.exists(collection)) return 0;
    this.createDeferredIndexes(collection, Object.keys(filter));
    const where = whereClause(filter);
    const row = this.prepare(`SELECT COUNT(*) AS n FROM ${tableName(collection)} ${where.sql}`).get(...where.params) as { n: number } | undefined;
    return row?.n ?? 0;
  }

  async commit(writes: readonly DocumentWrite[], checkpoints: readonly CheckpointAdvance[]): Promise<void> {
    const encoded: EncodedWrite[] = writes.map((w) => ({ collection: w.collection, id: w.id, position: w.position, json: w.doc === null ? null : JSON.stringify(w.doc) }));
    if (this.bulk) await this.bulk.send(encoded, [...checkpoints]);
    else this.writer.commit(encoded, checkpoints);
  }

  /**
   * Non-unique indexes are dropped for the load and built once at the end, which is several times
   * cheaper than keeping them up to date row by row; one a query leans on is built the first time
   * a query names its leading field. The WAL is checkpointed in larger steps meanwhile, because
   * each checkpoint syncs the file and a rebuild would otherwise pay for hundreds of them; and the
   * page cache is larger, so the primary-key pages that random ids land on stay in memory. The
   * batches of a file are committed on a writer thread, overlapping with the loader's next batch.
   * Unique indexes stay, so a load cannot store what the live path would refuse.
   */
  async bulkLoad<T>(collections: readonly CollectionSpec[], load: () => Promise<T>): Promise<T> {
    const autocheckpoint = Number(this.db.pragma('wal_autocheckpoint', { simple: true }));
    const cacheSize = Number(this.db.pragma('cache_size', { simple: true }));
    for (const spec of collections) {
      const held = spec.indexes.filter((index) => !index.unique);
      this.deferredIndexes.set(spec.name, held.map((index) => indexDefinition(spec.name, index)));
      this.createCollection(spec);
      for (const index of held) this.db.exec(`DROP INDEX IF EXISTS ${indexName(spec.name, index)}`);
    }
    const pragmas = [`wal_autocheckpoint = ${BULK_LOAD_AUTOCHECKPOINT_PAGES}`, `cache_size = -${BULK_LOAD_CACHE_KIB}`];
    for (const pragma of pragmas) this.db.pragma(pragma);
    this.bulk = this.db.memory ? null : SqliteBulkWriter.start({ path: this.db.name, pragmas });
    try {
      return await load();
    } finally {
      try {
        await this.bulk?.close();
      } finally {
        this.bulk = null;
      }
      for (const spec of collections) this.createDeferredIndexes(spec.name, null);
      this.db.pragma(`wal_autocheckpoint = ${autocheckpoint}`);
      this.db.pragma(`cache_size = ${cacheSize}`);
    }
  }

  async readCheckpoints(): Promise<Checkpoint[]> {
    await this.bulk?.drain();
    return this.db.prepare<[], Checkpoint>('SELECT name, version, position FROM rm_checkpoints ORDER BY name').all();
  }

  async reset(checkpoint: { name: string; version: number }, collections: readonly CollectionSpec[]): Promise<void> {
    await this.bulk?.drain();
    this.db
      .transaction(() => {
        for (const spec of collections) {
          this.statements.clear();
          this.tables.delete(spec.name);
          this.writer.forget(spec.name);
          this.deferredIndexes.delete(spec.name);
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

  private table(collection: string): TableStatements {
    let statements = this.tables.get(collection);
    if (!statements) {
      statements = { get: this.db.prepare(`SELECT id, position, doc FROM ${tableName(collection)} WHERE id = ?`) };
      this.tables.set(collection, statements);
    }
    return statements;
  }

  /** Builds the held-back indexes led by one of `fields`, or all of them when `fields` is null. */
  private createDeferredIndexes(collection: string, fields: readonly string[] | null): void {
    const deferred = this.deferredIndexes.get(collection);
    if (!deferred) return;
    const needed = deferred.filter((index) => fields === null || fields.includes(index.leadingField));
    if (needed.length === 0) return;
    for (const index of needed) this.db.exec(index.sql);
    const left = deferred.filter((index) => !needed.includes(index));
    if (left.length > 0) this.deferredIndexes.set(collection, left);
    else this.deferredIndexes.delete(collection);
  }

  /** Statements are cached: the API asks the same few queries over and over. */
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

/** Pages of WAL between automatic checkpoints during a bulk load (SQLite's default is 1,000). */
const BULK_LOAD_AUTOCHECKPOINT_PAGES = 16_384;
/** Page cache during a bulk load, in KiB (SQLite's default is 2,000). */
const BULK_LOAD_CACHE_KIB = 131_072;

function tableName(collection: string): string {
  return `rm_${assertCollectionName(collection)}`;
}

function indexName(collection: string, index: IndexSpec): string {
  return `${tableName(collection)}__${index.fields.map((f) => assertFieldPath(f).replaceAll('.', '_')).join('__')}`;
}

function indexDefinition(collection: string, index: IndexSpec): IndexDefinition {
  const columns = index.fields.map(fieldExpression).join(', ');
  return {
    leadingField: index.fields[0]!,
    sql: `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${indexName(collection, index)} ON ${tableName(collection)} (${columns})`,
  };
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
