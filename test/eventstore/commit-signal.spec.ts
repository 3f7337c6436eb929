import { expect } from 'chai';
import { CommitSignal } from '../../src/eventstore/commit-signal.js';
import { openSqliteDatabase, type SqliteDatabase } from '../../src/eventstore/sqlite-database.js';
import { SqliteEventStore } from '../../src/eventstore/sqlite-event-store.js';
import { CheckpointPoller } from '../../src/projector/read-model-progress.js';
import { SqliteReadModelStore } from '../../src/readstore/sqlite-read-model-store.js';
import { makeTempDir } from '../support/temp-dir.js';

/** Far longer than any test here may take: whatever arrives, the signal brought, not the poll. */
const POLL_MS = 60_000;
const tooLate = (ms: number) => new Promise<'too late'>((resolve) => setTimeout(() => resolve('too late'), ms).unref());

describe('CommitSignal', () => {
  it('resolves a wait once a commit moves the count past what the waiter saw, at once if it already has', async () => {
    const signal = new CommitSignal();
    const seen = signal.current();
    const waiting = signal.waitPast(seen, POLL_MS).then(() => 'woken');
    signal.committed();
    expect(await Promise.race([waiting, tooLate(5000)])).to.equal('woken');
    expect(await Promise.race([signal.waitPast(seen, POLL_MS).then(() => 'at once'), tooLate(5000)])).to.equal('at once');
  });

  it('gives up after the timeout when nothing commits', async () => {
    const signal = new CommitSignal();
    expect(await Promise.race([signal.waitPast(signal.current(), 20).then(() => 'timed out'), tooLate(5000)])).to.equal('timed out');
  });
});

describe('Connections of one process sharing commit signals (the server thread and the projector thread)', () => {
  let dir: ReturnType<typeof makeTempDir>;
  const opened: { db: SqliteDatabase; events: SqliteEventStore }[] = [];
  beforeEach(() => (dir = makeTempDir('vigil-commit-signal')));
  afterEach(async () => {
    for (const { db, events } of opened.splice(0)) {
      await events.close();
      db.close();
    }
    dir.remove();
  });
  const open = (signals: { log: CommitSignal; readModels: CommitSignal }) => {
    const db = openSqliteDatabase(`${dir.path}/vigil.db`);
    const events = new SqliteEventStore(db, { pollIntervalMs: POLL_MS, commitSignal: signals.log });
    opened.push({ db, events });
    return { events, readModels: new SqliteReadModelStore(db, { commitSignal: signals.readModels }) };
  };

  it("wakes a subscription on another connection when the log commits, long before that connection's poll", async () => {
    const signals = { log: new CommitSignal(), readModels: new CommitSignal() };
    const writer = open(signals);
    const projector = open(signals);
    const subscription = projector.events.subscribeToAll();
    const first = subscription[Symbol.asyncIterator]().next();
    // Let the subscription find the log empty and go to sleep first.
    await new Promise((resolve) => setTimeout(resolve, 50));
    await writer.events.appendToStream('monitor-1', [{ type: 'MonitorCreated', data: { monitor_id: '1' } }]);
    const arrived = await Promise.race([first.then((result) => (result.done ? 'ended' : result.value.type)), tooLate(5000)]);
    await subscription.unsubscribe();
    expect(arrived).to.equal('MonitorCreated');
  });

  it("ends a read-your-writes wait when another connection commits the checkpoint, long before the next poll", async () => {
    const signals = { log: new CommitSignal(), readModels: new CommitSignal() };
    const api = open(signals);
    const projector = open(signals);
    await projector.readModels.ensureCollections([{ name: 'monitors', indexes: [] }]);
    const poller = new CheckpointPoller(api.readModels, ['monitors'], { intervalMs: POLL_MS, commits: signals.readModels });
    const waited = poller.waitForPosition(7, POLL_MS).then(() => 'reached');
    await new Promise((resolve) => setTimeout(resolve, 50));
    await projector.readModels.commit([{ collection: 'monitors', id: 'm1', position: 7, doc: { n: 1 } }], [{ name: 'monitors', version: 1, position: 7, expectedPosition: null }]);
    expect(await Promise.race([waited, tooLate(5000)])).to.equal('reached');
  });
});
