import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from '../eventstore/sqlite-database.js';
import type { CommitSignal } from '../eventstore/commit-signal.js';
import type { WriteGate } from '../eventstore/write-gate.js';
import {
  type Checkpoint,
  type CheckpointAdvance,
  type CollectionSpec,
  type CommitFence,
  DOCUMENT_ID,
  type Document,
  type DocumentWrite,
  type Filter,
  type FindOptions,
  type IndexSpec,
  type ReadModelStore,
  type RetiredProjection,
  type Scalar,
  type StoredDocument,
  isRange,
} from './read-model-store.js';
import { SqliteBulkWriter } from './sqlite-bulk-writer.js';
import {
  type CollectionShape,
  type SqlValue,
  collectionShape,
  createCollectionTable,
  dropIndexesNotInSpec,
  fieldColumn,
  fieldExtract,
  indexName,
  indexSql,
  tableName,
} from './sqlite-collection-table.js';
import { SqliteDocumentWriter, encodeWrites } from './sqlite-document-writer.js';

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
 * Each collection is a table of JSON documents with a column for each indexed field
 * (sqlite-collection-table.ts); queries name that column where there is one, `json_extract` elsewhere.
 */
export class SqliteReadModelStore implements ReadModelStore {
  /**
   * The field columns of each table seen so far, valid while the schema is unchanged: a projector
   * on another connection may create or migrate a table after this one looked at it.
   */
  private readonly shapes = new Map<string, CollectionShape>();
  private shapesOfSchema = -1;
  private readonly schemaVersion: Statement<[], number>;
  private readonly statements = new Map<string, Statement>();
  private readonly tables = new Map<string, TableStatements>();
  /** Non-unique indexes held back during a bulk load, by collection. */
  private readonly deferredIndexes = new Map<string, IndexDefinition[]>();
  private readonly writer: SqliteDocumentWriter;
  /** During a bulk load of a file, the thread that commits its batches. */
  private bulk: SqliteBulkWriter | null = null;
  /** Signalled after each commit, for threads of this process waiting on the checkpoints. */
  private readonly commitSignal: CommitSignal | null;

  constructor(
    private readonly db: SqliteDatabase,
    /** `yieldAfterMs`: how long a commit writes, at least, before it gives way to a waiting log writer (SqliteDocumentWriter). */
    options: { writeGate?: WriteGate; commitSignal?: CommitSignal; yieldAfterMs?: number } = {},
  ) {
    this.writer = new SqliteDocumentWriter(db, options.writeGate, { yieldAfterMs: options.yieldAfterMs });
    this.commitSignal = options.commitSignal ?? null;
    this.schemaVersion = db.prepare<[], number>('PRAGMA schema_version').pluck();
  }

  async ensureCollections(specs: readonly CollectionSpec[]): Promise<void> {
    await this.bulk?.drain();
    this.db.transaction(() => specs.forEach((spec) => this.createCollection(spec)))();
  }

  private createCollection(spec: CollectionSpec): void {
    createCollectionTable(this.db, spec);
    dropIndexesNotInSpec(this.db, spec);
    const deferred = this.deferredIndexes.get(spec.name) ?? [];
    for (const index of spec.indexes) {
      const definition = indexDefinition(spec.name, index);
      // A projector preparing inside a bulk load must not build what the load holds back.
      if (!deferred.some((d) => d.sql === definition.sql)) this.db.exec(definition.sql);
    }
  }

  async get<D = Document>(collection: string, id: string): Promise<StoredDocument<D> | null> {
    const sent = this.bulk?.pending(collection, id);
    if (sent) return sent.json === null ? null : toStored<D>({ id, position: sent.position, doc: sent.json });
    if (!this.shapes.has(collection) && this.shape(collection) === null) return null;
    const row = this.table(collection).get.get(id);
    return row ? toStored<D>(row) : null;
  }

  async find<D = Document>(collection: string, filter: Filter = {}, options: FindOptions = {}): Promise<StoredDocument<D>[]> {
    await this.bulk?.drain();
    const query = this.findQuery(collection, filter, options);
    if (!query) return [];
    this.createDeferredIndexes(collection, [...Object.keys(filter), ...(options.sort ?? []).map(([field]) => field)]);
    return (this.prepare(query.sql).all(...query.params) as DocumentRow[]).map((row) => toStored<D>(row));
  }

  async count(collection: string, filter: Filter = {}): Promise<number> {
    await this.bulk?.drain();
    const shape = this.shape(collection);
    if (!shape) return 0;
    this.createDeferredIndexes(collection, Object.keys(filter));
    const where = whereClause(filter, shape.fields);
    const row = this.prepare(`SELECT COUNT(*) AS n FROM ${tableName(collection)} ${where.sql}`).get(...where.params) as { n: number } | undefined;
    return row?.n ?? 0;
  }

  /** How SQLite would run `find` (EXPLAIN QUERY PLAN, one line a step): to check that a query uses an index. */
  async queryPlan(collection: string, filter: Filter = {}, options: FindOptions = {}): Promise<string[]> {
    await this.bulk?.drain();
    const query = this.findQuery(collection, filter, options);
    if (!query) return [];
    return this.db
      .prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${query.sql}`)
      .all(...query.params)
      .map((step) => step.detail);
  }

  private findQuery(collection: string, filter: Filter, options: FindOptions): { sql: string; params: SqlValue[] } | null {
    const shape = this.shape(collection);
    if (!shape) return null;
    const where = whereClause(filter, shape.fields);
    const order = [...(options.sort ?? []).map(([field, direction]) => `${fieldExpression(field, shape.fields)} ${direction === 1 ? 'ASC' : 'DESC'}`), 'id ASC'];
    const sql =
      `SELECT id, position, doc FROM ${tableName(collection)} ${where.sql} ORDER BY ${order.join(', ')}` +
      ` LIMIT ${options.limit ?? -1} OFFSET ${options.skip ?? 0}`;
    return { sql, params: where.params };
  }

  async commit(writes: readonly DocumentWrite[], checkpoints: readonly CheckpointAdvance[], fence?: CommitFence): Promise<void> {
    const encoded = encodeWrites(writes, (collection) => this.shape(collection)?.written ?? []);
    // A rebuild's bulk load is one projector's alone: it runs before that one follows the log.
    if (this.bulk) await this.bulk.send(encoded, [...checkpoints]);
    else this.writer.commit(encoded, checkpoints, fence);
    this.commitSignal?.committed();
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
          this.dropTable(spec.name);
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

  async drop(retired: RetiredProjection): Promise<void> {
    await this.bulk?.drain();
    this.db
      .transaction(() => {
        for (const collection of retired.collections) this.dropTable(collection);
        this.db.prepare('DELETE FROM rm_checkpoints WHERE name = ?').run(retired.name);
      })
      .immediate();
  }

  /** Drops a collection's table and forgets every statement prepared on it. */
  private dropTable(collection: string): void {
    this.statements.clear();
    this.tables.delete(collection);
    this.writer.forget(collection);
    this.deferredIndexes.delete(collection);
    this.db.exec(`DROP TABLE IF EXISTS ${tableName(collection)}`);
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

  /**
   * The fields with a column in the collection's table, or null for a collection nobody has
   * projected into yet, which reads as empty rather than failing.
   */
  private shape(collection: string): CollectionShape | null {
    const schema = this.schemaVersion.get()!;
    if (schema !== this.shapesOfSchema) {
      this.shapes.clear();
      this.shapesOfSchema = schema;
    }
    let shape = this.shapes.get(collection) ?? null;
    if (!shape) {
      shape = collectionShape(this.db, collection);
      if (shape) this.shapes.set(collection, shape);
    }
    return shape;
  }
}

/** Pages of WAL between automatic checkpoints during a bulk load (SQLite's default is 1,000). */
const BULK_LOAD_AUTOCHECKPOINT_PAGES = 16_384;
/** Page cache during a bulk load, in KiB (SQLite's default is 2,000). */
const BULK_LOAD_CACHE_KIB = 131_072;

function indexDefinition(collection: string, index: IndexSpec): IndexDefinition {
  return { leadingField: index.fields[0]!, sql: indexSql(collection, index) };
}

/** An indexed field reads its column, so the index serves; any other is extracted from the document. */
function fieldExpression(field: string, columns: ReadonlySet<string>): string {
  if (field === DOCUMENT_ID) return 'id';
  return columns.has(field) ? fieldColumn(field) : fieldExtract(field);
}

function toSqlValue(value: Scalar): SqlValue {
  return typeof value === 'boolean' ? (value ? 1 : 0) : value;
}

function whereClause(filter: Filter, columns: ReadonlySet<string>): { sql: string; params: SqlValue[] } {
  const clauses: string[] = [];
  const params: SqlValue[] = [];
  for (const [field, condition] of Object.entries(filter)) {
    const expression = fieldExpression(field, columns);
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
