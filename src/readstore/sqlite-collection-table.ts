import type { SqliteDatabase } from '../eventstore/sqlite-database.js';
import { type CollectionSpec, type IndexSpec, assertCollectionName, assertFieldPath } from './read-model-store.js';

/**
 * How a collection lies in SQLite: a table `rm_<name> (id, position, doc)` of JSON documents, plus
 * one column per indexed field, `"doc.<path>"`, that SQLite fills from the document itself
 * (`GENERATED ALWAYS AS (json_extract(doc, '$.<path>')) STORED`). The indexes are on those columns.
 *
 * So each document's JSON is parsed once when it is written, not once per index (an expression
 * index re-parses it for every index, on each write and again when the index is built), building an
 * index after a bulk load reads plain values, and a filter or sort on an indexed field reads the
 * column. The column holds exactly what `json_extract` gives, so queries keep their meaning.
 */

const COLUMN_PREFIX = 'doc.';

export function tableName(collection: string): string {
  return `rm_${assertCollectionName(collection)}`;
}

/** The field's column, quoted: the path is validated, so it cannot close the quotes. */
export function fieldColumn(field: string): string {
  return `"${COLUMN_PREFIX}${assertFieldPath(field)}"`;
}

/** The field's value as `json_extract` reads it out of the document. */
export function fieldExtract(field: string): string {
  return `json_extract(doc, '$.${assertFieldPath(field)}')`;
}

export function indexName(collection: string, index: IndexSpec): string {
  return `${tableName(collection)}__${index.fields.map((f) => assertFieldPath(f).replaceAll('.', '_')).join('__')}`;
}

export function indexSql(collection: string, index: IndexSpec): string {
  const columns = index.fields.map(fieldColumn).join(', ');
  return `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${indexName(collection, index)} ON ${tableName(collection)} (${columns})`;
}

/** Every field some index of the collection names, each once. */
export function indexedFields(spec: CollectionSpec): string[] {
  return [...new Set(spec.indexes.flatMap((index) => index.fields))];
}

/**
 * Creates the collection's table, or brings one made by an older version up to the spec: a field
 * without its column gets one, and the indexes on that field are dropped so that the caller makes
 * them again on the column. ALTER TABLE can only add VIRTUAL generated columns, which are
 * computed where they are read, as the old expression indexes were; the table gets STORED ones
 * the next time it is made anew (a rebuild, a projection's version bump).
 */
export function createCollectionTable(db: SqliteDatabase, spec: CollectionSpec): void {
  const table = tableName(spec.name);
  const fields = indexedFields(spec);
  const generated = fields.map((field) => `, ${fieldColumn(field)} GENERATED ALWAYS AS (${fieldExtract(field)}) STORED`).join('');
  db.exec(`CREATE TABLE IF NOT EXISTS ${table} (id TEXT PRIMARY KEY, position INTEGER NOT NULL, doc TEXT NOT NULL${generated})`);
  const present = fieldColumns(db, spec.name) ?? new Set();
  const missing = fields.filter((field) => !present.has(field));
  if (missing.length === 0) return;
  for (const index of spec.indexes) {
    if (index.fields.some((field) => missing.includes(field))) db.exec(`DROP INDEX IF EXISTS ${indexName(spec.name, index)}`);
  }
  for (const field of missing) db.exec(`ALTER TABLE ${table} ADD COLUMN ${fieldColumn(field)} GENERATED ALWAYS AS (${fieldExtract(field)}) VIRTUAL`);
}

/** The fields that have a column in the collection's table; null if there is no such table. */
export function fieldColumns(db: SqliteDatabase, collection: string): Set<string> | null {
  const names = db.prepare<[string], { name: string }>('SELECT name FROM pragma_table_xinfo(?)').all(tableName(collection)).map((row) => row.name);
  if (names.length === 0) return null;
  return new Set(names.filter((name) => name.startsWith(COLUMN_PREFIX)).map((name) => name.slice(COLUMN_PREFIX.length)));
}
