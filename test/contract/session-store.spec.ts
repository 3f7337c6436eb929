import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { MemorySessionStore, MongoSessionStore, SqliteSessionStore } from '../../src/web/session-store.js';
import { openSqliteDatabase } from '../../src/eventstore/sqlite-database.js';
import { makeTempDir } from '../support/temp-dir.js';
import { sessionStoreContract } from './session-store.contract.js';

sessionStoreContract('SQLite', async () => {
  const dir = makeTempDir('vigil-sessions');
  const db = openSqliteDatabase(`${dir.path}/vigil.db`);
  return {
    store: new SqliteSessionStore(db),
    dispose: async () => {
      db.close();
      dir.remove();
    },
  };
});

sessionStoreContract('memory', async () => ({ store: new MemorySessionStore(), dispose: async () => {} }));

const mongoUrl = process.env['VIGIL_MONGODB_URL'];
if (mongoUrl) {
  sessionStoreContract('MongoDB', async () => {
    const databaseName = `vigil_sessions_${randomUUID().slice(0, 8)}`;
    const store = MongoSessionStore.open(mongoUrl, databaseName);
    return {
      store,
      dispose: async () => {
        await store.close();
        const client = await new MongoClient(mongoUrl).connect();
        await client.db(databaseName).dropDatabase();
        await client.close();
      },
    };
  });
} else {
  describe('SessionStore contract: MongoDB', () => {
    it('is skipped: set VIGIL_MONGODB_URL to run it against a real server', function () {
      console.log('    (skipped: VIGIL_MONGODB_URL is not set, so the MongoDB session store was not exercised)');
      this.skip();
    });
  });
}
