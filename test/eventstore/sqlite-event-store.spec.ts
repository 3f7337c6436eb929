import { expect } from 'chai';
import { openSqliteDatabase } from '../../src/eventstore/sqlite-database.js';
import { SqliteEventStore } from '../../src/eventstore/sqlite-event-store.js';
import { eventually } from '../support/eventually.js';
import { makeTempDir } from '../support/temp-dir.js';

describe('SqliteEventStore', () => {
  let dir: ReturnType<typeof makeTempDir>;
  beforeEach(() => (dir = makeTempDir('vigil-sqlite-es')));
  afterEach(() => dir.remove());

  it('commits appends made in the same turn of the event loop in one transaction', async () => {
    const db = openSqliteDatabase(`${dir.path}/vigil.db`);
    const store = new SqliteEventStore(db);
    await Promise.all(
      Array.from({ length: 100 }, (_, i) => store.appendToStream(`s-${i}`, [{ type: 'Counted', data: { n: i } }])),
    );
    expect(store.commitCount).to.equal(1);
    expect(await store.readAll()).to.have.length(100);
    await store.close();
    db.close();
  });

  it('fails only the append whose expectation is wrong, not the others in its group', async () => {
    const db = openSqliteDatabase(`${dir.path}/vigil.db`);
    const store = new SqliteEventStore(db);
    await store.appendToStream('taken', [{ type: 'Counted', data: { n: 0 } }]);
    const outcomes = await Promise.allSettled([
      store.appendToStream('taken', [{ type: 'Counted', data: { n: 1 } }], { expectedRevision: 'no_stream' }),
      store.appendToStream('fresh', [{ type: 'Counted', data: { n: 2 } }], { expectedRevision: 'no_stream' }),
    ]);
    expect(outcomes.map((o) => o.status)).to.deep.equal(['rejected', 'fulfilled']);
    expect(await store.readStream('fresh')).to.have.length(1);
    await store.close();
    db.close();
  });

  it('delivers to a subscription events that another connection (another process) appended', async () => {
    const path = `${dir.path}/vigil.db`;
    const serverDb = openSqliteDatabase(path);
    const server = new SqliteEventStore(serverDb, { pollIntervalMs: 50 });
    const cliDb = openSqliteDatabase(path);
    const cli = new SqliteEventStore(cliDb);
    const subscription = server.subscribeToAll();
    const seen: string[] = [];
    const consumed = (async () => {
      for await (const event of subscription) seen.push(event.streamName);
    })();
    await cli.appendToStream('from-cli', [{ type: 'Counted', data: { n: 1 } }]);
    await eventually(() => expect(seen).to.deep.equal(['from-cli']), 1000);
    await subscription.unsubscribe();
    await consumed;
    for (const s of [server, cli]) await s.close();
    serverDb.close();
    cliDb.close();
  });
});
