import { EsdbEventStore } from '../../src/eventstore/esdb-event-store.js';
import { openSqliteDatabase } from '../../src/eventstore/sqlite-database.js';
import { SqliteEventStore } from '../../src/eventstore/sqlite-event-store.js';
import { makeTempDir } from '../support/temp-dir.js';
import { eventStoreContract } from './event-store.contract.js';

for (const writer of ['inline', 'thread'] as const) {
  eventStoreContract(`SQLite, commits on ${writer === 'inline' ? "the caller's thread" : 'a writer thread'}`, async () => {
    const dir = makeTempDir('vigil-es');
    const db = openSqliteDatabase(`${dir.path}/vigil.db`);
    const store = new SqliteEventStore(db, { pollIntervalMs: 20, writer });
    return {
      store,
      dispose: async () => {
        await store.close();
        db.close();
        dir.remove();
      },
    };
  });
}

const esdbUrl = process.env['VIGIL_EVENTSTORE_URL'];
if (esdbUrl) {
  eventStoreContract('EventStoreDB', async () => {
    const store = EsdbEventStore.connect(esdbUrl);
    return { store, dispose: () => store.close() };
  });
} else {
  describe('EventStore contract: EventStoreDB', () => {
    it('is skipped: set VIGIL_EVENTSTORE_URL to run it against a real server', function () {
      console.log('    (skipped: VIGIL_EVENTSTORE_URL is not set, so the EventStoreDB adapter was not exercised)');
      this.skip();
    });
  });
}
