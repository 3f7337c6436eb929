import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { MongoLeaseStore } from '../../src/coordination/mongo-lease-store.js';
import { SqliteLeaseStore } from '../../src/coordination/sqlite-lease-store.js';
import { type SqliteDatabase, openSqliteDatabase } from '../../src/eventstore/sqlite-database.js';
import { MongoReadModelStore } from '../../src/readstore/mongo-read-model-store.js';
import { SqliteReadModelStore } from '../../src/readstore/sqlite-read-model-store.js';
import { makeTempDir } from '../support/temp-dir.js';
import { readModelStoreContract } from './read-model-store.contract.js';

readModelStoreContract('SQLite', async () => {
  const dir = makeTempDir('vigil-rm');
  const opened: SqliteDatabase[] = [];
  const open = () => {
    const db = openSqliteDatabase(`${dir.path}/vigil.db`);
    opened.push(db);
    return db;
  };
  const db = open();
  return {
    store: new SqliteReadModelStore(db),
    leases: new SqliteLeaseStore(db),
    another: async () => new SqliteReadModelStore(open()),
    dispose: async () => {
      for (const connection of opened) connection.close();
      dir.remove();
    },
    indexes: async (collection) =>
      db
        .prepare<[string], { name: string; unique: number }>(`SELECT name, "unique" FROM pragma_index_list(?) WHERE origin = 'c'`)
        .all(`rm_${collection}`)
        .map((index) => {
          const fields = db.prepare<[string], { name: string }>('SELECT name FROM pragma_index_info(?) ORDER BY seqno').all(index.name);
          return `${fields.map((field) => field.name.replace(/^doc\./, '')).join(',')}${index.unique ? '!' : ''}`;
        })
        .sort(),
  };
});

const mongoUrl = process.env['VIGIL_MONGODB_URL'];
if (mongoUrl) {
  readModelStoreContract('MongoDB', async () => {
    const databaseName = `vigil_contract_${randomUUID().slice(0, 8)}`;
    const store = await MongoReadModelStore.connect(mongoUrl, databaseName);
    const client = await new MongoClient(mongoUrl).connect();
    const leases = MongoLeaseStore.open(mongoUrl, databaseName);
    const others: MongoReadModelStore[] = [];
    return {
      store,
      leases,
      another: async () => {
        const other = await MongoReadModelStore.connect(mongoUrl, databaseName);
        others.push(other);
        return other;
      },
      indexes: async (collection) =>
        // A collection that is not there (dropped) has no indexes; the server says so with an error.
        (await client.db(databaseName).collection(`rm_${collection}`).indexes().catch((error) => (error?.code === 26 ? [] : Promise.reject(error))))
          .filter((index) => index.name !== '_id_')
          .map((index) => `${Object.keys(index.key).map((field) => field.replace(/^doc\./, '')).join(',')}${index.unique ? '!' : ''}`)
          .sort(),
      dispose: async () => {
        await store.dropDatabase();
        await store.close();
        for (const other of others) await other.close();
        await leases.close();
        await client.close();
      },
    };
  });
} else {
  describe('ReadModelStore contract: MongoDB', () => {
    it('is skipped: set VIGIL_MONGODB_URL to run it against a real server', function () {
      console.log('    (skipped: VIGIL_MONGODB_URL is not set, so the MongoDB adapter was not exercised)');
      this.skip();
    });
  });
}
