import { expect } from 'chai';
import type { LeaseStore } from '../../src/coordination/leases.js';
import { PartitionLeases } from '../../src/coordination/partition-leases.js';
import { SLOT_COUNT, slotOf, slotsOfPartition } from '../../src/coordination/partitions.js';
import { SqliteLeaseStore } from '../../src/coordination/sqlite-lease-store.js';
import { type SqliteDatabase, openSqliteDatabase } from '../../src/eventstore/sqlite-database.js';
import { makeTempDir } from '../support/temp-dir.js';
import { TestClock } from '../support/test-vigil.js';

const TTL = 10_000;
const PARTITIONS = 16;
const ALL = [...Array(PARTITIONS).keys()];

describe('PartitionLeases', () => {
  let dir: ReturnType<typeof makeTempDir>;
  let opened: SqliteDatabase[];
  let clock: TestClock;
  beforeEach(() => {
    dir = makeTempDir('vigil-partitions');
    opened = [];
    clock = new TestClock();
  });
  afterEach(() => {
    for (const db of opened) db.close();
    dir.remove();
  });

  /** An instance with its own connection to the file, as a separate process would have. */
  function instance(holder: string, partitions = PARTITIONS): PartitionLeases {
    const db = openSqliteDatabase(`${dir.path}/vigil.db`);
    opened.push(db);
    const leases: LeaseStore = new SqliteLeaseStore(db);
    return new PartitionLeases(leases, 'timer', holder, { ttlMs: TTL, partitions, clock: clock.now });
  }
  /** Renewal rounds until it settles: in each, instances let go of what is no longer meant for them and take what is. */
  async function rebalance(...instances: PartitionLeases[]) {
    for (let round = 0; round < 3; round += 1) for (const i of instances) await i.refresh();
  }

  it('gives a lone instance every partition, so its scope is everything', async () => {
    const only = instance('a');
    await only.refresh();
    expect(only.owned()).to.deep.equal(ALL);
    expect(await only.scope()).to.deep.equal({});
  });

  it('splits the partitions fairly and without overlap between instances, and scopes each to its slots', async () => {
    const [a, b, c] = [instance('a'), instance('b'), instance('c')];
    await a.refresh();
    await b.refresh();
    // b joined while a held everything: b waits for a to let go rather than sharing a partition.
    expect(b.owned()).to.deep.equal([]);
    await rebalance(a, b, c);
    const shares = [a.owned(), b.owned(), c.owned()];
    expect(shares.map((s) => s.length).sort()).to.deep.equal([5, 5, 6]);
    expect(shares.flat().sort((x, y) => x - y)).to.deep.equal(ALL);
    const scope = await a.scope();
    expect(scope).to.deep.equal({ slot: { $in: a.owned().flatMap((p) => slotsOfPartition(p, PARTITIONS)) } });
  });

  it('hands a dead instance\'s partitions to the survivors once its leases have expired, not before', async () => {
    const [a, b] = [instance('a'), instance('b')];
    await rebalance(a, b);
    const bHeld = b.owned();
    expect(bHeld).to.have.length(8);
    // b stops renewing (killed). Until its leases expire, nobody else may touch its partitions.
    clock.advance(TTL - 1);
    await a.refresh();
    expect(a.owned()).to.have.length(8);
    clock.advance(1);
    await a.refresh();
    expect(a.owned()).to.deep.equal(ALL);
    expect(b.owned(), 'b knows its own leases ran out').to.deep.equal([]);
    expect(await b.scope(), 'b, back from a pause, finds its partitions taken').to.equal(null);
    await rebalance(a, b);
    expect(b.owned(), 'and gets its share back as a lets go').to.have.length(8);
  });

  it('lets go of everything on stop, so the others take over on their next renewal', async () => {
    const [a, b] = [instance('a'), instance('b')];
    await rebalance(a, b);
    await b.stop();
    await a.refresh();
    expect(a.owned()).to.deep.equal(ALL);
  });

  it('renews when a scope is asked for a third of a ttl after the last renewal, by the injected clock', async () => {
    const [a, b] = [instance('a'), instance('b')];
    await rebalance(a, b);
    for (let step = 0; step < 6; step += 1) {
      clock.advance(TTL / 3);
      await a.scope();
      await b.scope();
    }
    expect(a.owned().length + b.owned().length).to.equal(PARTITIONS);
  });

  it('lets instances configured with different partition counts all work everything: duplicated, never dropped', async () => {
    const [a, b] = [instance('a', 16), instance('b', 8)];
    await rebalance(a, b);
    expect(await a.scope()).to.deep.equal({});
    expect(await b.scope()).to.deep.equal({});
  });

  it('puts every monitor in a slot, spread evenly', () => {
    const counts = new Array<number>(PARTITIONS).fill(0);
    for (let i = 0; i < 16_000; i += 1) counts[slotOf(crypto.randomUUID()) % PARTITIONS]! += 1;
    for (const count of counts) expect(count).to.be.within(850, 1150);
    expect(slotOf('a')).to.equal(slotOf('a')).and.to.be.below(SLOT_COUNT);
  });
});
