import { statSync } from 'node:fs';
import { expect } from 'chai';
import { openSqliteDatabase } from '../../src/eventstore/sqlite-database.js';
import { SqliteEventStore } from '../../src/eventstore/sqlite-event-store.js';
import { WriteGate } from '../../src/eventstore/write-gate.js';
import { StreamDeletedError, WrongExpectedRevisionError } from '../../src/eventstore/event-store.js';
import { verifyLog } from '../../src/audit/verify-log.js';
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

  it('rolls back an append to several streams whole, keeping the hash chain of the group around it intact', async () => {
    const db = openSqliteDatabase(`${dir.path}/vigil.db`);
    const store = new SqliteEventStore(db);
    await store.appendToStream('monitor-1', [{ type: 'Counted', data: { n: 0 } }]);
    const outcomes = await Promise.allSettled([
      store.appendToStream('before', [{ type: 'Counted', data: { n: 1 } }]),
      store.appendToStreams([
        { streamName: 'pings-1', events: [{ type: 'Counted', data: { n: 2 } }], expectedRevision: 'no_stream' },
        { streamName: 'monitor-1', events: [{ type: 'Counted', data: { n: 3 } }], expectedRevision: 'no_stream' },
      ]),
      store.appendToStream('after', [{ type: 'Counted', data: { n: 4 } }]),
    ]);
    expect(outcomes.map((o) => o.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled']);
    expect(store.commitCount).to.equal(2);
    expect((await store.readAll()).map((e) => e.data['n'])).to.deep.equal([0, 1, 4]);
    expect(verifyLog(db).ok).to.equal(true);
    await store.close();
    db.close();
  });

  it('waits for another thread of the process to finish writing without blocking its own, and commits what arrived meanwhile together', async () => {
    const db = openSqliteDatabase(`${dir.path}/vigil.db`);
    const gate = new WriteGate(new SharedArrayBuffer(8), { giveUpMs: 60_000 });
    const store = new SqliteEventStore(db, { writeGate: gate });
    // Another thread (the projector's) is inside its transaction.
    const cell = new Int32Array(gate.buffer);
    Atomics.store(cell, 0, 1);
    const acknowledged: number[] = [];
    const appends = [0, 1, 2].map(async (n) => {
      await new Promise((resolve) => setTimeout(resolve, n * 5));
      await store.appendToStream(`s-${n}`, [{ type: 'Counted', data: { n } }]);
      acknowledged.push(n);
    });
    // This thread keeps turning: timers fire while the appends wait for the gate.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(acknowledged).to.deep.equal([]);
    expect(store.commitCount).to.equal(0);
    Atomics.store(cell, 0, 0);
    Atomics.notify(cell, 0);
    await Promise.all(appends);
    expect(acknowledged).to.deep.equal([0, 1, 2]);
    expect(store.commitCount).to.equal(1);
    expect(Atomics.load(cell, 0)).to.equal(0);
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

describe('SqliteEventStore with a writer thread', () => {
  let dir: ReturnType<typeof makeTempDir>;
  beforeEach(() => (dir = makeTempDir('vigil-sqlite-es-thread')));
  afterEach(() => dir.remove());

  it('commits appends queued together in one transaction, on its own connection', async () => {
    const db = openSqliteDatabase(`${dir.path}/vigil.db`);
    const store = new SqliteEventStore(db, { writer: 'thread' });
    await Promise.all(Array.from({ length: 100 }, (_, i) => store.appendToStream(`s-${i}`, [{ type: 'Counted', data: { n: i } }])));
    expect(store.commitCount).to.equal(1);
    // Acknowledged means committed: a connection opened afterwards sees every event.
    const other = openSqliteDatabase(`${dir.path}/vigil.db`);
    expect(await new SqliteEventStore(other).readAll()).to.have.length(100);
    other.close();
    await store.close();
    db.close();
  });

  it('checkpoints the WAL in its commits only if the connection it was given does (a WalCheckpointer may do it instead)', async () => {
    const path = `${dir.path}/vigil.db`;
    const big = 'x'.repeat(4000);
    const appendFourMegabytes = (store: SqliteEventStore) =>
      Promise.all(Array.from({ length: 1200 }, (_, i) => store.appendToStream(`big-${i}`, [{ type: 'Padded', data: { big } }])));
    const db = openSqliteDatabase(path, { autocheckpoint: false });
    const store = new SqliteEventStore(db, { writer: 'thread' });
    await appendFourMegabytes(store);
    // Past SQLite's 1,000 pages, yet nothing was copied back into the file.
    expect(statSync(path).size).to.be.below(1_000_000);
    await store.close();
    db.close();

    const defaults = openSqliteDatabase(path);
    const checkpointing = new SqliteEventStore(defaults, { writer: 'thread' });
    await appendFourMegabytes(checkpointing);
    expect(statSync(path).size).to.be.above(4_000_000);
    await checkpointing.close();
    defaults.close();
  });

  it('queues appends made during a commit for the next one, in the order they were made', async () => {
    const db = openSqliteDatabase(`${dir.path}/vigil.db`);
    const store = new SqliteEventStore(db, { writer: 'thread' });
    const first = store.appendToStream('ordered', [{ type: 'Counted', data: { n: 0 } }]);
    await new Promise((resolve) => setImmediate(resolve));
    const later = Array.from({ length: 10 }, (_, i) => store.appendToStream('ordered', [{ type: 'Counted', data: { n: i + 1 } }]));
    await Promise.all([first, ...later]);
    expect(store.commitCount).to.equal(2);
    expect((await store.readStream('ordered')).map((e) => e.data['n'])).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    await store.close();
    db.close();
  });

  it('on close, commits what was asked for before it, then refuses more', async () => {
    const db = openSqliteDatabase(`${dir.path}/vigil.db`);
    const store = new SqliteEventStore(db, { writer: 'thread' });
    const appended = store.appendToStream('last', [{ type: 'Counted', data: { n: 1 } }]);
    const truncated = store.setStreamMaxCount('last', 1);
    await store.close();
    await Promise.all([appended, truncated]);
    expect(await store.readStream('last')).to.have.length(1);
    const refused = await store.appendToStream('last', [{ type: 'Counted', data: { n: 2 } }]).catch((error: unknown) => error);
    expect(refused).to.be.instanceOf(Error);
    db.close();
  });

  it('needs a database file: an in-memory database has no second connection', () => {
    const db = openSqliteDatabase(':memory:');
    expect(() => new SqliteEventStore(db, { writer: 'thread' })).to.throw(/database file/);
    db.close();
  });
});

describe('SqliteEventStore retention', () => {
  let dir: ReturnType<typeof makeTempDir>;
  beforeEach(() => (dir = makeTempDir('vigil-sqlite-es-retention')));
  afterEach(() => dir.remove());

  it('keeps the newest max count events as appends push older ones out, a few at a time', async () => {
    const db = openSqliteDatabase(`${dir.path}/vigil.db`);
    const store = new SqliteEventStore(db);
    await store.setStreamMaxCount('kept', 3);
    for (let n = 0; n < 10; n += 2) await store.appendToStream('kept', [{ type: 'Counted', data: { n } }, { type: 'Counted', data: { n: n + 1 } }]);
    expect((await store.readStream('kept')).map((e) => e.data['n'])).to.deep.equal([7, 8, 9]);
    await store.setStreamMaxCount('kept', 5);
    await store.appendToStream('kept', [{ type: 'Counted', data: { n: 10 } }]);
    expect((await store.readStream('kept')).map((e) => e.data['n'])).to.deep.equal([7, 8, 9, 10]);
    await store.setStreamMaxCount('kept', 2);
    expect((await store.readStream('kept')).map((e) => e.data['n'])).to.deep.equal([9, 10]);
    await store.close();
    db.close();
  });
});

describe('SqliteEventStore streams', () => {
  let dir: ReturnType<typeof makeTempDir>;
  beforeEach(() => (dir = makeTempDir('vigil-sqlite-es-streams')));
  afterEach(() => dir.remove());

  it('records beside the events only the streams with a window or deleted: an append writes no row there', async () => {
    const db = openSqliteDatabase(`${dir.path}/vigil.db`);
    const store = new SqliteEventStore(db);
    await store.appendToStream('plain', [{ type: 'Counted', data: { n: 0 } }]);
    await store.setStreamMaxCount('windowed', 2);
    await store.appendToStream('gone', [{ type: 'Counted', data: { n: 1 } }]);
    await store.deleteStream('gone');
    const rows = () => db.prepare('SELECT * FROM es_streams ORDER BY stream').all();
    const before = rows();
    expect(before).to.deep.equal([
      { stream: 'gone', max_count: null, deleted: 1 },
      { stream: 'windowed', max_count: 2, deleted: 0 },
    ]);
    for (let n = 0; n < 4; n += 1) await store.appendToStreams([{ streamName: 'plain', events: [{ type: 'Counted', data: { n } }], expectedRevision: n }, { streamName: 'windowed', events: [{ type: 'Counted', data: { n } }], expectedRevision: n === 0 ? 'no_stream' : n - 1 }]);
    expect(rows(), 'appends leave the table as it was').to.deep.equal(before);
    // Revisions and the hash chain follow on from each stream's last event.
    expect(await failureOf(store.appendToStream('plain', [{ type: 'Counted', data: { n: 9 } }], { expectedRevision: 3 }))).to.be.instanceOf(WrongExpectedRevisionError);
    expect((await store.appendToStream('plain', [{ type: 'Counted', data: { n: 9 } }], { expectedRevision: 4 })).nextExpectedRevision).to.equal(5);
    expect((await store.readStream('windowed')).map((e) => e.data['n'])).to.deep.equal([2, 3]);
    expect(await failureOf(store.appendToStream('gone', [{ type: 'Counted', data: { n: 2 } }]))).to.be.instanceOf(StreamDeletedError);
    expect(verifyLog(db).ok).to.equal(true);
    await store.close();
    db.close();
  });

  it('opens a log that kept each stream\'s revision and last hash in es_streams, and follows on from its events', async () => {
    const path = `${dir.path}/vigil.db`;
    const db = openSqliteDatabase(path);
    const store = new SqliteEventStore(db);
    await store.appendToStream('plain', [{ type: 'Counted', data: { n: 0 } }, { type: 'Counted', data: { n: 1 } }]);
    await store.setStreamMaxCount('windowed', 2);
    await store.appendToStream('windowed', [{ type: 'Counted', data: { n: 0 } }, { type: 'Counted', data: { n: 1 } }, { type: 'Counted', data: { n: 2 } }]);
    await store.close();
    // As the log was before: a row for every stream, with its revision and last hash.
    db.exec(`
      ALTER TABLE es_streams ADD COLUMN revision INTEGER NOT NULL DEFAULT -1;
      ALTER TABLE es_streams ADD COLUMN last_hash TEXT NOT NULL DEFAULT '';
      INSERT INTO es_streams (stream, revision, last_hash, max_count, deleted)
        SELECT stream, MAX(revision), (SELECT hash FROM es_events l WHERE l.stream = e.stream ORDER BY revision DESC LIMIT 1), NULL, 0
        FROM es_events e GROUP BY stream
        ON CONFLICT (stream) DO UPDATE SET revision = excluded.revision, last_hash = excluded.last_hash;
    `);
    db.close();

    const reopened = openSqliteDatabase(path);
    const again = new SqliteEventStore(reopened);
    const columns = reopened.prepare("SELECT name FROM pragma_table_info('es_streams')").all();
    expect(columns).to.deep.equal([{ name: 'stream' }, { name: 'max_count' }, { name: 'deleted' }]);
    expect(reopened.prepare('SELECT stream FROM es_streams').all()).to.deep.equal([{ stream: 'windowed' }]);
    expect((await again.appendToStream('plain', [{ type: 'Counted', data: { n: 2 } }], { expectedRevision: 1 })).nextExpectedRevision).to.equal(2);
    await again.appendToStream('windowed', [{ type: 'Counted', data: { n: 3 } }], { expectedRevision: 2 });
    expect((await again.readStream('windowed')).map((e) => e.data['n'])).to.deep.equal([2, 3]);
    expect(verifyLog(reopened).ok).to.equal(true);
    await again.close();
    reopened.close();
  });
});

function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (error: unknown) => error,
  );
}
