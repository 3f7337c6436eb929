import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { LeaseStore } from '../../src/coordination/leases.js';
import {
  type CheckpointAdvance,
  type CollectionSpec,
  DOCUMENT_ID,
  type DocumentWrite,
  type Filter,
  type FindOptions,
  type ReadModelStore,
  CheckpointConflictError,
  FencedOutError,
  UniqueIndexViolationError,
} from '../../src/readstore/read-model-store.js';

export interface ReadModelStoreFixture {
  store: ReadModelStore;
  dispose: () => Promise<void>;
  /** The indexes of a collection, each as its fields in order (a `!` suffix: unique), sorted; seen the adapter's own way. */
  indexes: (collection: string) => Promise<string[]>;
  /** The leases kept beside these read models, as the projectors' lease store sees them (what a CommitFence checks). */
  leases: LeaseStore;
  /** Another client of the same store, as another process would have; disposed with the fixture. */
  another: () => Promise<ReadModelStore>;
}

/** The behaviour every read-model adapter must show. */
export function readModelStoreContract(adapter: string, open: () => Promise<ReadModelStoreFixture>): void {
  describe(`ReadModelStore contract: ${adapter}`, () => {
    let fixture: ReadModelStoreFixture;
    let store: ReadModelStore;
    let monitors: CollectionSpec;
    beforeEach(async () => {
      fixture = await open();
      store = fixture.store;
      monitors = { name: `monitors_${randomUUID().slice(0, 8)}`, indexes: [{ fields: ['project_id', 'name'] }, { fields: ['slug'], unique: true }] };
      await store.ensureCollections([monitors]);
    });
    afterEach(() => fixture.dispose());

    const projection = () => `p_${randomUUID().slice(0, 8)}`;
    const write = (id: string, position: number, doc: DocumentWrite['doc']): DocumentWrite => ({ collection: monitors.name, id, position, doc });

    it('drops the indexes a collection\'s spec no longer names and keeps the documents; creating again changes nothing', async () => {
      expect(await fixture.indexes(monitors.name)).to.deep.equal(['project_id,name', 'slug!']);
      const older: CollectionSpec = { ...monitors, indexes: [...monitors.indexes, { fields: ['interval'] }, { fields: ['project_id', 'paused'] }] };
      await store.ensureCollections([older]);
      await seed();
      expect(await fixture.indexes(monitors.name)).to.deep.equal(['interval', 'project_id,name', 'project_id,paused', 'slug!']);

      await store.ensureCollections([monitors]);
      await store.ensureCollections([monitors]);

      expect(await fixture.indexes(monitors.name)).to.deep.equal(['project_id,name', 'slug!']);
      expect((await store.find(monitors.name, { interval: 60 })).map((found) => found.id)).to.deep.equal(['m1', 'm3']);
    });

    async function seed() {
      await store.commit(
        [
          write('m1', 1, { name: 'alpha', slug: 'a', project_id: 'p1', interval: 60, paused: false, owner: { id: 'u1' }, note: null }),
          write('m2', 2, { name: 'bravo', slug: 'b', project_id: 'p1', interval: 300, paused: true, owner: { id: 'u2' }, note: 'x' }),
          write('m3', 3, { name: 'charlie', slug: 'c', project_id: 'p2', interval: 60, paused: false, owner: { id: 'u1' }, note: null }),
          write('m4', 4, { name: 'delta', slug: 'd', project_id: 'p1', interval: 3600, paused: false, owner: { id: 'u3' }, note: 'y' }),
        ],
        [],
      );
    }
    const ids = (found: { id: string }[]) => found.map((f) => f.id);

    it('stores a document and reads it back by id with its position', async () => {
      await store.commit([write('m1', 7, { name: 'alpha', tags: ['x', 'y'], n: 1.5 })], []);
      expect(await store.get(monitors.name, 'm1')).to.deep.equal({ id: 'm1', position: 7, doc: { name: 'alpha', tags: ['x', 'y'], n: 1.5 } });
      expect(await store.get(monitors.name, 'absent')).to.equal(null);
    });

    it('ignores a write older than or as old as the stored document (replays are harmless)', async () => {
      await store.commit([write('m1', 5, { name: 'new' })], []);
      await store.commit([write('m1', 3, { name: 'old' })], []);
      await store.commit([write('m1', 5, { name: 'same position' })], []);
      expect((await store.get(monitors.name, 'm1'))?.doc).to.deep.equal({ name: 'new' });
      await store.commit([write('m1', 2, null)], []);
      expect(await store.get(monitors.name, 'm1')).to.not.equal(null);
      await store.commit([write('m1', 6, null)], []);
      expect(await store.get(monitors.name, 'm1')).to.equal(null);
    });

    it('finds by equality, $in, $ne, ranges, null, booleans and dotted paths', async () => {
      await seed();
      expect(ids(await store.find(monitors.name, { project_id: 'p1' }))).to.deep.equal(['m1', 'm2', 'm4']);
      expect(ids(await store.find(monitors.name, { name: { $in: ['alpha', 'charlie'] } }))).to.deep.equal(['m1', 'm3']);
      expect(ids(await store.find(monitors.name, { name: { $in: [] } }))).to.deep.equal([]);
      expect(ids(await store.find(monitors.name, { project_id: { $ne: 'p1' } }))).to.deep.equal(['m3']);
      expect(ids(await store.find(monitors.name, { interval: { $gte: 300, $lt: 3600 } }))).to.deep.equal(['m2']);
      expect(ids(await store.find(monitors.name, { note: null }))).to.deep.equal(['m1', 'm3']);
      expect(ids(await store.find(monitors.name, { paused: true }))).to.deep.equal(['m2']);
      expect(ids(await store.find(monitors.name, { paused: false, project_id: 'p1' }))).to.deep.equal(['m1', 'm4']);
      expect(ids(await store.find(monitors.name, { 'owner.id': 'u1' }))).to.deep.equal(['m1', 'm3']);
    });

    it('answers through a sparse index as through any other: a value, $in, a range, null and $ne, documents without the field included', async () => {
      const incidents: CollectionSpec = { name: `entries_${randomUUID().slice(0, 8)}`, indexes: [{ fields: ['incident_id', 'position'], sparse: true }] };
      await store.ensureCollections([incidents]);
      const entry = (id: string, position: number, incident_id?: string | null) => ({ collection: incidents.name, id, position, doc: { position, ...(incident_id === undefined ? {} : { incident_id }) } });
      await store.commit([entry('e1', 1, 'i1'), entry('e2', 2, null), entry('e3', 3), entry('e4', 4, 'i2'), entry('e5', 5, 'i1')], []);
      const found = async (filter: Filter, options: FindOptions = {}) => ids(await store.find(incidents.name, filter, options));
      expect(await found({ incident_id: 'i1' }, { sort: [['position', -1]] })).to.deep.equal(['e5', 'e1']);
      expect(await found({ incident_id: { $in: ['i1', 'i2'] } })).to.deep.equal(['e1', 'e4', 'e5']);
      expect(await found({ incident_id: { $gte: 'i2' } })).to.deep.equal(['e4']);
      expect(await found({ incident_id: null })).to.deep.equal(['e2', 'e3']);
      expect(await found({ incident_id: { $ne: 'i1' } })).to.deep.equal(['e2', 'e3', 'e4']);
      expect(await store.count(incidents.name, { incident_id: 'i1' })).to.equal(2);
    });

    it('finds and counts by a range of document ids ($id), not a field of that name, with other conditions', async () => {
      await seed();
      // m5's document carries an `id` field naming another document: the condition is on the key.
      await store.commit([write('m5', 5, { name: 'echo', slug: 'e', project_id: 'p1', id: 'm9' })], []);
      expect(ids(await store.find(monitors.name, { [DOCUMENT_ID]: { $gte: 'm2', $lt: 'm5' } }, { sort: [['name', -1]] }))).to.deep.equal(['m4', 'm3', 'm2']);
      expect(ids(await store.find(monitors.name, { [DOCUMENT_ID]: { $gt: 'm4' } }))).to.deep.equal(['m5']);
      expect(await store.count(monitors.name, { [DOCUMENT_ID]: { $gte: 'm2', $lt: 'm5' }, project_id: 'p1' })).to.equal(2);
      expect(ids(await store.find(monitors.name, { [DOCUMENT_ID]: 'm3' }))).to.deep.equal(['m3']);
    });

    it('sorts on several fields, skips and limits, and counts', async () => {
      await seed();
      const sorted = await store.find(monitors.name, {}, { sort: [['interval', 1], ['name', -1]] });
      expect(ids(sorted)).to.deep.equal(['m3', 'm1', 'm2', 'm4']);
      const page = await store.find(monitors.name, { project_id: 'p1' }, { sort: [['name', -1]], skip: 1, limit: 1 });
      expect(ids(page)).to.deep.equal(['m2']);
      expect(await store.count(monitors.name, { project_id: 'p1' })).to.equal(3);
      expect(await store.count(monitors.name)).to.equal(4);
    });

    it('reads an unknown collection as empty', async () => {
      expect(await store.find('never_created')).to.deep.equal([]);
      expect(await store.count('never_created')).to.equal(0);
      expect(await store.get('never_created', 'x')).to.equal(null);
    });

    it('advances a checkpoint only from the position it expects', async () => {
      const name = projection();
      await store.commit([write('m1', 1, { name: 'alpha' })], [{ name, version: 1, position: 1, expectedPosition: null }]);
      await store.commit([], [{ name, version: 1, position: 9, expectedPosition: 1 }]);
      expect((await store.readCheckpoints()).find((c) => c.name === name)).to.deep.equal({ name, version: 1, position: 9 });
      const error = await store.commit([], [{ name, version: 1, position: 12, expectedPosition: 1 }]).catch((e) => e);
      expect(error).to.be.instanceOf(CheckpointConflictError);
      const second = await store.commit([], [{ name, version: 1, position: 12, expectedPosition: null }]).catch((e) => e);
      expect(second).to.be.instanceOf(CheckpointConflictError);
      expect((await store.readCheckpoints()).find((c) => c.name === name)?.position).to.equal(9);
    });

    const checkpointOf = async (name: string) => (await store.readCheckpoints()).find((c) => c.name === name)?.position ?? null;
    const advance = (name: string, position: number, expectedPosition: number | null): CheckpointAdvance => ({ name, version: 1, position, expectedPosition });

    it('stores none of a batch whose checkpoint another projector moved', async () => {
      const name = projection();
      await store.commit([], [advance(name, 4, null)]);
      const error = await store.commit([write('m1', 5, { name: 'alpha', slug: 'a' }), write('m2', 6, { name: 'bravo', slug: 'b' })], [advance(name, 6, 3)]).catch((e) => e);
      expect(error).to.be.instanceOf(CheckpointConflictError);
      expect(await store.count(monitors.name)).to.equal(0);
      expect(await checkpointOf(name)).to.equal(4);
    });

    it('lets only one of two projectors committing from the same checkpoint at once succeed; the other keeps nothing', async () => {
      const name = projection();
      await store.commit([], [advance(name, 1, null)]);
      const other = await fixture.another();
      const outcomes = await Promise.allSettled([
        store.commit([write('a1', 2, { name: 'from a' }), write('both', 2, { name: 'from a' })], [advance(name, 2, 1)]),
        other.commit([write('b1', 3, { name: 'from b' }), write('both', 3, { name: 'from b' })], [advance(name, 3, 1)]),
      ]);
      const won = outcomes.findIndex((outcome) => outcome.status === 'fulfilled');
      const lost = outcomes.find((outcome) => outcome.status === 'rejected');
      expect(won).to.not.equal(-1);
      expect(lost?.reason).to.be.instanceOf(CheckpointConflictError);
      const winner = won === 0 ? { ids: ['a1', 'both'], by: 'from a', position: 2 } : { ids: ['b1', 'both'], by: 'from b', position: 3 };
      expect(ids(await store.find(monitors.name))).to.deep.equal(winner.ids);
      expect((await store.get(monitors.name, 'both'))?.doc['name']).to.equal(winner.by);
      expect(await checkpointOf(name)).to.equal(winner.position);
    });

    describe('unique indexes', () => {
      it('refuses a document that repeats another\'s value, naming it, and keeps nothing of that commit: no other document, no checkpoint', async () => {
        const name = projection();
        await seed();
        await store.commit([], [advance(name, 4, null)]);
        const error = await store
          .commit(
            [write('m5', 5, { name: 'echo', slug: 'e' }), write('m2', 6, { name: 'bravo renamed', slug: 'b' }), write('m6', 6, { name: 'foxtrot', slug: 'a' })],
            [advance(name, 6, 4)],
          )
          .catch((e) => e);
        expect(error).to.be.instanceOf(UniqueIndexViolationError);
        expect(error).to.deep.include({ collection: monitors.name, id: 'm6', fields: ['slug'] });
        expect(await store.get(monitors.name, 'm5')).to.equal(null);
        expect(await store.get(monitors.name, 'm6')).to.equal(null);
        expect((await store.get(monitors.name, 'm2'))?.doc['name']).to.equal('bravo');
        expect(await checkpointOf(name)).to.equal(4);
      });

      it('keeps a replay quiet, though the values it carries now belong to another document', async () => {
        await store.commit([write('m1', 5, { name: 'alpha', slug: 'a' }), write('m2', 6, { name: 'bravo', slug: 'b' })], []);
        await store.commit([write('m1', 3, { name: 'alpha before', slug: 'b' }), write('m2', 6, { name: 'bravo again', slug: 'a' })], []);
        expect((await store.find(monitors.name)).map((found) => [found.id, found.position, found.doc['slug']])).to.deep.equal([['m1', 5, 'a'], ['m2', 6, 'b']]);
      });

      it('commits a large batch as one with its checkpoint: refused at its very last document, it keeps none of the others', async () => {
        const name = projection();
        const others: CollectionSpec = { name: `others_${randomUUID().slice(0, 8)}`, indexes: [{ fields: ['n'] }] };
        await store.ensureCollections([others]);
        await seed();
        await store.commit([], [advance(name, 4, null)]);
        const batch: DocumentWrite[] = [];
        for (let n = 1; n <= 1500; n++) batch.push({ collection: others.name, id: `o${n}`, position: 4 + n, doc: { n } });
        for (let n = 1; n <= 500; n++) batch.push(write(`x${n}`, 1504 + n, { name: `x${n}`, slug: `x${n}` }));
        batch.push(write('x501', 2005, { name: 'last', slug: 'd' }));
        const error = await store.commit(batch, [advance(name, 2005, 4)]).catch((e) => e);
        expect(error).to.be.instanceOf(UniqueIndexViolationError);
        expect(await store.count(others.name)).to.equal(0);
        expect(await store.count(monitors.name)).to.equal(4);
        expect(await checkpointOf(name)).to.equal(4);

        await store.commit(batch.slice(0, -1), [advance(name, 2004, 4)]);
        expect(await store.count(others.name)).to.equal(1500);
        expect(await store.count(monitors.name)).to.equal(504);
        expect(await checkpointOf(name)).to.equal(2004);
      });
    });

    describe('under a lease (a projector that may overlap another while the lease passes)', () => {
      const lease = 'projector';
      const at = (ms: number) => new Date(Date.parse('2026-11-21T12:00:00.000Z') + ms);
      const TTL = 10_000;

      it('commits while its holder holds the lease, or while nobody does', async () => {
        const name = projection();
        await store.commit([write('m1', 1, { name: 'alpha' })], [advance(name, 1, null)], { lease, holder: 'A' });
        expect(await fixture.leases.acquire(lease, 'A', TTL, at(0))).to.equal(true);
        await store.commit([write('m2', 2, { name: 'bravo' })], [advance(name, 2, 1)], { lease, holder: 'A' });
        expect(ids(await store.find(monitors.name))).to.deep.equal(['m1', 'm2']);
        expect(await checkpointOf(name)).to.equal(2);
      });

      it('refuses the commit of a holder whose lease another has taken, so it cannot write back a document the other deleted', async () => {
        const name = projection();
        await fixture.leases.acquire(lease, 'A', TTL, at(0));
        await store.commit([write('m1', 1, { name: 'alpha', slug: 'a' })], [advance(name, 1, null)], { lease, holder: 'A' });
        // A stalls past its lease; B takes it over and goes on from the checkpoint, deleting m1.
        expect(await fixture.leases.acquire(lease, 'B', TTL, at(TTL + 1))).to.equal(true);
        await store.commit([write('m1', 3, null)], [advance(name, 3, 1)], { lease, holder: 'B' });

        // A wakes up with a batch that still has m1 in it, and a checkpoint of its own to move.
        const error = await store.commit([write('m1', 2, { name: 'alpha renamed', slug: 'a' })], [advance(`${name}_a`, 2, null)], { lease, holder: 'A' }).catch((e) => e);
        expect(error).to.be.instanceOf(FencedOutError);
        expect(error).to.have.property('lease', lease);
        expect(await store.get(monitors.name, 'm1')).to.equal(null);
        expect((await store.readCheckpoints()).map((c) => c.name)).to.not.include(`${name}_a`);
        expect(await checkpointOf(name)).to.equal(3);
      });
    });

    it('bulk loads: queries inside see every write made before them, and queries after are the same', async () => {
      const during = await store.bulkLoad([monitors], async () => {
        await seed();
        expect((await store.get(monitors.name, 'm2'))?.doc['name']).to.equal('bravo');
        return ids(await store.find(monitors.name, { project_id: 'p1' }, { sort: [['name', -1]] }));
      });
      expect(during).to.deep.equal(['m4', 'm2', 'm1']);
      expect(ids(await store.find(monitors.name, { project_id: 'p1' }, { sort: [['name', -1]] }))).to.deep.equal(during);
    });

    it('refuses a duplicate of a unique index during a bulk load: the load fails and keeps what was committed before', async () => {
      const error = await store
        .bulkLoad([monitors], async () => {
          await seed();
          await store.commit([write('m5', 5, { name: 'echo', slug: 'a', project_id: 'p1' })], []);
          await store.count(monitors.name);
        })
        .catch((e) => e);
      expect(error).to.be.instanceOf(UniqueIndexViolationError);
      expect(error).to.deep.include({ collection: monitors.name, id: 'm5', fields: ['slug'] });
      expect(await store.get(monitors.name, 'm5')).to.equal(null);
      expect(await store.count(monitors.name, { slug: 'a' })).to.equal(1);
    });

    it('ends a bulk load that fails with its indexes in place and the error passed on', async () => {
      const error = await store.bulkLoad([monitors], async () => {
        await seed();
        throw new Error('load failed');
      }).catch((e) => e);
      expect(error).to.match(/load failed/);
      const duplicate = await store.commit([write('m5', 5, { name: 'echo', slug: 'a', project_id: 'p1' })], []).catch((e) => e);
      expect(duplicate).to.be.instanceOf(UniqueIndexViolationError);
      expect(ids(await store.find(monitors.name, { project_id: 'p2' }))).to.deep.equal(['m3']);
    });

    it('resets a projection: its collections empty, its checkpoint at the start under the new version', async () => {
      const name = projection();
      await seed();
      await store.commit([], [{ name, version: 1, position: 4, expectedPosition: null }]);
      await store.reset({ name, version: 2 }, [monitors]);
      expect(await store.count(monitors.name)).to.equal(0);
      expect((await store.readCheckpoints()).find((c) => c.name === name)).to.deep.equal({ name, version: 2, position: 0 });
      await seed();
      expect(await store.count(monitors.name, { project_id: 'p1' })).to.equal(3);
    });

    it('drops a retired projection: its collections and their indexes gone, its checkpoint gone, the rest kept', async () => {
      const [name, kept] = [projection(), projection()];
      const others: CollectionSpec = { name: `others_${randomUUID().slice(0, 8)}`, indexes: [] };
      await store.ensureCollections([others]);
      await seed();
      await store.commit([{ collection: others.name, id: 'o1', position: 5, doc: { n: 1 } }], [
        { name, version: 1, position: 5, expectedPosition: null },
        { name: kept, version: 1, position: 5, expectedPosition: null },
      ]);

      await store.drop({ name, collections: [monitors.name] });
      await store.drop({ name, collections: [monitors.name] });

      expect(await fixture.indexes(monitors.name)).to.deep.equal([]);
      expect(await store.count(monitors.name)).to.equal(0);
      expect((await store.readCheckpoints()).map((c) => c.name)).to.include(kept).and.not.include(name);
      expect(ids(await store.find(others.name))).to.deep.equal(['o1']);
    });
  });
}
