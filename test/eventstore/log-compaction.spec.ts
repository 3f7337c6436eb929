import { statSync } from 'node:fs';
import { expect } from 'chai';
import { openSqliteDatabase, type SqliteDatabase } from '../../src/eventstore/sqlite-database.js';
import { SqliteEventStore } from '../../src/eventstore/sqlite-event-store.js';
import { type CompactionLimits, planCompaction } from '../../src/eventstore/log-compaction.js';
import { verifyLog } from '../../src/audit/verify-log.js';
import { makeTempDir } from '../support/temp-dir.js';

const SMALL: CompactionLimits = { minRemoved: 1, maxRemoved: 1_000_000 };

/** Compacts once, as the server's compactor does: planned on a connection, applied through the store's writer. */
async function compact(db: SqliteDatabase, store: SqliteEventStore, limits: CompactionLimits = SMALL): Promise<number> {
  const planning = planCompaction(db, limits);
  if (planning.kind === 'refused') throw new Error(planning.reason);
  if (planning.kind === 'nothing') return 0;
  await store.compact(planning.plan);
  return planning.plan.removedCount;
}

/** Why the promise was rejected; fails when it was not. */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

const rowCount = (db: SqliteDatabase) => db.prepare<[], { n: number }>('SELECT count(*) AS n FROM es_events').get()!.n;

/** Twenty monitors' pings streams, each kept to its last ten, and a monitor stream that is never truncated. */
async function pingMany(store: SqliteEventStore, from: number, count: number): Promise<void> {
  for (let n = from; n < from + count; n += 1) {
    await Promise.all(Array.from({ length: 20 }, (_, m) => store.appendToStream(`pings-${m}`, [{ type: 'PingReceived', data: { n, monitor: m } }])));
    if (n % 50 === 0) await store.appendToStream('monitor-0', [{ type: 'MonitorWentUp', data: { n } }]);
  }
}

describe('Compacting the embedded log', () => {
  let dir: ReturnType<typeof makeTempDir>;
  let db: SqliteDatabase;
  let store: SqliteEventStore;
  beforeEach(async () => {
    dir = makeTempDir('vigil-compaction');
    db = openSqliteDatabase(`${dir.path}/vigil.db`);
    store = new SqliteEventStore(db);
    for (let m = 0; m < 20; m += 1) await store.setStreamMaxCount(`pings-${m}`, 10);
  });
  afterEach(async () => {
    await store.close();
    db.close();
    dir.remove();
  });

  it('deletes the rows that retention removed, keeps every event within it, and still verifies', async () => {
    await pingMany(store, 0, 100);
    const before = verifyLog(db);
    expect(await compact(db, store)).to.equal(20 * 90);
    expect(rowCount(db)).to.be.below(20 * 10 + 20 + 20 + 10);
    for (let m = 0; m < 20; m += 1) {
      expect((await store.readStream(`pings-${m}`)).map((e) => e.data['n'])).to.deep.equal([90, 91, 92, 93, 94, 95, 96, 97, 98, 99]);
    }
    expect((await store.readStream('monitor-0')).map((e) => e.data['n'])).to.deep.equal([0, 50]);
    const after = verifyLog(db);
    expect(after).to.include({ ok: true, compacted_through: before.head_position });
    // The chain goes on past the checkpoint: the head is the checkpoint's own event, chained to the head before.
    expect(after.head_position).to.be.greaterThan(before.head_position);
  });

  it('goes on appending after a compaction, each stream from its anchor, and compacts again', async () => {
    await pingMany(store, 0, 60);
    await compact(db, store);
    await pingMany(store, 60, 60);
    expect((await store.readStream('pings-3')).map((e) => e.revision)).to.deep.equal([110, 111, 112, 113, 114, 115, 116, 117, 118, 119]);
    expect(verifyLog(db).ok).to.equal(true);
    await compact(db, store);
    expect(verifyLog(db).ok).to.equal(true);
    // The older checkpoint is itself removed by its stream's window of one, and folded by the next.
    await pingMany(store, 120, 10);
    await compact(db, store);
    expect(db.prepare("SELECT count(*) AS n FROM es_events WHERE stream = '$checkpoints' AND removed = 0").get()).to.deep.equal({ n: 1 });
    expect(db.prepare("SELECT count(*) AS n FROM es_events WHERE stream = '$checkpoints'").get()).to.deep.equal({ n: 2 });
    expect(verifyLog(db).ok).to.equal(true);
  });

  it('keeps the file within a small bound of its size at the first pass, however many times retention goes round', async function () {
    this.timeout(120_000);
    const size = () => statSync(`${dir.path}/vigil.db`).size + (statSync(`${dir.path}/vigil.db-wal`, { throwIfNoEntry: false })?.size ?? 0);
    await pingMany(store, 0, 200);
    await compact(db, store);
    db.pragma('wal_checkpoint(TRUNCATE)');
    const firstPass = size();
    for (let round = 1; round <= 10; round += 1) {
      await pingMany(store, round * 200, 200);
      await compact(db, store);
    }
    db.pragma('wal_checkpoint(TRUNCATE)');
    // 2,000 pings a stream: ten times what the first pass wrote, in a file no larger than it was.
    expect(size()).to.be.at.most(firstPass * 1.2);
    expect(verifyLog(db).ok).to.equal(true);
  });

  it('finds an event within retention edited after a compaction', async () => {
    await pingMany(store, 0, 30);
    await compact(db, store);
    const kept = db.prepare<[], { position: number }>("SELECT position FROM es_events WHERE stream = 'pings-7' AND removed = 0 ORDER BY revision LIMIT 1").get()!;
    db.prepare("UPDATE es_events SET data = json_set(data, '$.n', 999) WHERE position = ?").run(kept.position);
    const verification = verifyLog(db);
    expect(verification.ok).to.equal(false);
    expect(verification.first_break).to.deep.equal({ position: kept.position, reason: 'event 20 of stream pings-7 does not match its hash: it was edited' });
  });

  it('finds an event within retention removed after a compaction, even with its hashes made to agree', async () => {
    await pingMany(store, 0, 30);
    await compact(db, store);
    // The newest ping of a stream: nothing after it in the stream would show the gap.
    db.prepare("DELETE FROM es_events WHERE stream = 'pings-7' AND revision = 29").run();
    const verification = verifyLog(db);
    expect(verification.ok).to.equal(false);
  });

  it('finds a kept event before the checkpoint whose content and hash were both rewritten', async () => {
    await pingMany(store, 0, 30);
    await compact(db, store);
    const kept = db.prepare<[], { position: number }>("SELECT position FROM es_events WHERE stream = 'monitor-0' ORDER BY revision LIMIT 1").get()!;
    db.prepare("UPDATE es_events SET data = '{\"n\":1}', hash = 'f00d' WHERE position = ?").run(kept.position);
    expect(verifyLog(db).first_break?.reason).to.match(/does not match its hash|were changed, added or removed/);
  });

  it('finds a moved anchor', async () => {
    await pingMany(store, 0, 30);
    await compact(db, store);
    db.prepare("UPDATE es_anchors SET revision = revision - 1 WHERE stream = 'pings-2'").run();
    expect(verifyLog(db)).to.include({ ok: false });
  });

  it('refuses to fold a log that does not verify, leaving the evidence where it is', async () => {
    await pingMany(store, 0, 30);
    const victim = db.prepare<[], { position: number }>("SELECT position FROM es_events WHERE stream = 'pings-1' AND revision = 25").get()!;
    db.prepare('UPDATE es_events SET data = NULL, metadata = NULL, removed = 1 WHERE position = ?').run(victim.position);
    const planning = planCompaction(db, SMALL);
    expect(planning).to.deep.include({ kind: 'refused' });
    expect(rowCount(db)).to.be.greaterThan(20 * 30);
  });

  it('refuses a plan made stale by another compaction, changing nothing', async () => {
    await pingMany(store, 0, 30);
    const first = planCompaction(db, SMALL);
    const second = planCompaction(db, SMALL);
    if (first.kind !== 'plan' || second.kind !== 'plan') throw new Error('expected plans');
    await store.compact(first.plan);
    const rows = rowCount(db);
    expect((await rejection(store.compact(second.plan))).name).to.equal('WrongExpectedRevisionError');
    expect(rowCount(db)).to.equal(rows);
    expect(verifyLog(db).ok).to.equal(true);
  });

  it('folds at most the limit at once, and the rest the next time', async () => {
    await pingMany(store, 0, 30);
    expect(await compact(db, store, { minRemoved: 1, maxRemoved: 100 })).to.equal(100);
    expect(verifyLog(db).ok).to.equal(true);
    expect(await compact(db, store, { minRemoved: 1, maxRemoved: 1_000 })).to.equal(20 * 20 - 100);
    expect(verifyLog(db).ok).to.equal(true);
  });

  it('looks again only once the log has moved on by the least worth folding', async () => {
    await pingMany(store, 0, 20);
    const limits = { minRemoved: 100, maxRemoved: 10_000 };
    const first = planCompaction(db, { minRemoved: 300, maxRemoved: 10_000 });
    expect(first).to.deep.include({ kind: 'nothing', removed: 200 });
    if (first.kind !== 'nothing') throw new Error('expected nothing');
    // 200 removed rows are worth folding at 100, but nothing was appended since that look.
    expect(planCompaction(db, { ...limits, lastLookHead: first.head })).to.deep.include({ kind: 'nothing', removed: 0 });
    // Looks that find too little to walk for keep measuring from where that walk was: 20 appends
    // at a time never reach the 100 from each other, but they do from it, at the fifth.
    let look = planCompaction(db, { ...limits, lastLookHead: first.head });
    let rounds = 0;
    while (look.kind === 'nothing' && rounds < 10) {
      await pingMany(store, 20 + rounds, 1);
      rounds += 1;
      look = planCompaction(db, { ...limits, lastLookHead: look.head });
    }
    expect(rounds).to.equal(5);
    expect(look).to.deep.include({ kind: 'plan' });
  });

  it('leaves a deleted stream as gone, refusing appends to it, after its rows are folded', async () => {
    await pingMany(store, 0, 12);
    await store.deleteStream('monitor-0');
    await compact(db, store);
    expect(db.prepare("SELECT count(*) AS n FROM es_events WHERE stream = 'monitor-0'").get()).to.deep.equal({ n: 0 });
    expect((await rejection(store.appendToStream('monitor-0', [{ type: 'MonitorWentUp', data: {} }]))).name).to.equal('StreamDeletedError');
    expect(verifyLog(db).ok).to.equal(true);
  });
});
