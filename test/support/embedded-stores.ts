import { openSqliteDatabase, type SqliteDatabase } from '../../src/eventstore/sqlite-database.js';
import { SqliteEventStore } from '../../src/eventstore/sqlite-event-store.js';
import { SqliteReadModelStore } from '../../src/readstore/sqlite-read-model-store.js';
import { makeTempDir } from './temp-dir.js';

export interface EmbeddedStores {
  path: string;
  db: SqliteDatabase;
  events: SqliteEventStore;
  readModels: SqliteReadModelStore;
  /** Another connection to the same file, as another process would have. */
  openSecondConnection: () => { db: SqliteDatabase; events: SqliteEventStore; readModels: SqliteReadModelStore };
  dispose: () => Promise<void>;
}

export function openEmbeddedStores(): EmbeddedStores {
  const dir = makeTempDir('vigil-stores');
  const path = `${dir.path}/vigil.db`;
  const opened: { db: SqliteDatabase; events: SqliteEventStore }[] = [];
  const open = () => {
    const db = openSqliteDatabase(path);
    const connection = { db, events: new SqliteEventStore(db, { pollIntervalMs: 20 }), readModels: new SqliteReadModelStore(db) };
    opened.push(connection);
    return connection;
  };
  const first = open();
  return {
    path,
    ...first,
    openSecondConnection: open,
    dispose: async () => {
      for (const connection of opened) {
        await connection.events.close();
        connection.db.close();
      }
      dir.remove();
    },
  };
}

/** Every read-model row, as stored: what "byte-identical" compares. */
export function dumpReadModels(db: SqliteDatabase): Record<string, { id: string; position: number; doc: string }[]> {
  const tables = db
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'rm\\_%' ESCAPE '\\' AND name != 'rm_checkpoints' ORDER BY name")
    .all();
  return Object.fromEntries(
    tables.map(({ name }) => [name, db.prepare<[], { id: string; position: number; doc: string }>(`SELECT id, position, doc FROM ${name} ORDER BY id`).all()]),
  );
}
