import { randomUUID } from 'node:crypto';
import { openSqliteDatabase } from '../../src/eventstore/sqlite-database.js';
import { MongoReadModelStore } from '../../src/readstore/mongo-read-model-store.js';
import { SqliteReadModelStore } from '../../src/readstore/sqlite-read-model-store.js';
import { makeTempDir } from '../support/temp-dir.js';
import { readModelStoreContract } from './read-model-store.contract.js';

readModelStoreContract('SQLite', async () => {
  const dir = makeTempDir('vigil-rm');
  const db = openSqliteDatabase(`${dir.path}/vigil.db`);
  return {
    store: new SqliteReadModelStore(db),
    dispose: async () => {
      db.close();
      dir.remove();
    },
  };
});

const mongoUrl = process.env['VIGIL_MONGODB_URL'];
if (mongoUrl) {
  readModelStoreContract('MongoDB', async () => {
    const store = await MongoReadModelStore.connect(mongoUrl, `vigil_contract_${randomUUID().slice(0, 8)}`);
    return {
      store,
      dispose: async () => {
        await store.dropDatabase();
        await store.close();
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
