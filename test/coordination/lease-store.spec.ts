import { randomUUID } from 'node:crypto';
import { MongoLeaseStore } from '../../src/coordination/mongo-lease-store.js';
import { SqliteLeaseStore } from '../../src/coordination/sqlite-lease-store.js';
import { type SqliteDatabase, openSqliteDatabase } from '../../src/eventstore/sqlite-database.js';
import { makeTempDir } from '../support/temp-dir.js';
import { leaseStoreContract } from './lease-store.contract.js';

leaseStoreContract('SQLite', async () => {
  const dir = makeTempDir('vigil-leases');
  const opened: SqliteDatabase[] = [];
  const open = () => {
    const db = openSqliteDatabase(`${dir.path}/vigil.db`);
    opened.push(db);
    return new SqliteLeaseStore(db);
  };
  return {
    store: open(),
    another: async () => open(),
    dispose: async () => {
      for (const db of opened) db.close();
      dir.remove();
    },
  };
});

const mongoUrl = process.env['VIGIL_MONGODB_URL'];
if (mongoUrl) {
  leaseStoreContract('MongoDB', async () => {
    const database = `vigil_leases_${randomUUID().slice(0, 8)}`;
    const opened: MongoLeaseStore[] = [];
    const open = async () => {
      const store = MongoLeaseStore.open(mongoUrl, database);
      opened.push(store);
      return store;
    };
    const store = await open();
    return {
      store,
      another: open,
      dispose: async () => {
        await store.drop();
        for (const client of opened) await client.close();
      },
    };
  });
} else {
  describe('LeaseStore contract: MongoDB', () => {
    it('is skipped: set VIGIL_MONGODB_URL to run it against a real server', function () {
      console.log('    (skipped: VIGIL_MONGODB_URL is not set, so the MongoDB lease adapter was not exercised)');
      this.skip();
    });
  });
}
