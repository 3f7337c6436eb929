import { expect } from 'chai';
import { type CollectionSpec, CheckpointConflictError } from '../../src/readstore/read-model-store.js';
import { type EmbeddedStores, openEmbeddedStores } from '../support/embedded-stores.js';

const pings: CollectionSpec = { name: 'bulk_pings', indexes: [{ fields: ['monitor_id', 'seq'] }, { fields: ['ping_id'], unique: true }, { fields: ['created_at'] }] };

describe('SqliteReadModelStore: bulk load', () => {
  let stores: EmbeddedStores;
  beforeEach(async () => {
    stores = openEmbeddedStores();
    await stores.readModels.ensureCollections([pings]);
  });
  afterEach(() => stores.dispose());

  const indexes = () =>
    stores.db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'rm_bulk_pings' AND sql IS NOT NULL ORDER BY name")
      .all()
      .map((row) => row.name);
  const plan = (field: string) =>
    stores.db
      .prepare<[string], { detail: string }>(`EXPLAIN QUERY PLAN SELECT id FROM rm_bulk_pings WHERE json_extract(doc, '$.${field}') = ?`)
      .all('x')
      .map((row) => row.detail)
      .join(' ');
  const ping = (n: number) => ({ collection: pings.name, id: `p${n}`, position: n, doc: { monitor_id: `m${n % 3}`, seq: n, ping_id: `ping-${n}`, created_at: `t${n}` } });

  it('holds back non-unique indexes while loading, builds one when a query names its leading field, and the rest at the end', async () => {
    const all = indexes();
    expect(all).to.have.length(3);
    await stores.readModels.bulkLoad([pings], async () => {
      // As a projector does when it starts: that must not build the held-back indexes.
      await stores.readModels.ensureCollections([pings]);
      await stores.readModels.commit([ping(1), ping(2), ping(3), ping(4)], []);
      expect(indexes()).to.deep.equal(['rm_bulk_pings__ping_id']);
      expect((await stores.readModels.find(pings.name, { monitor_id: 'm1' }, { sort: [['seq', -1]] })).map((found) => found.id)).to.deep.equal(['p4', 'p1']);
      expect(indexes()).to.deep.equal(['rm_bulk_pings__monitor_id__seq', 'rm_bulk_pings__ping_id']);
    });
    expect(indexes()).to.deep.equal(all);
    expect(plan('created_at')).to.match(/USING INDEX rm_bulk_pings__created_at/);
  });

  it('checkpoints the WAL in larger steps and caches more pages while loading, and as before afterwards', async () => {
    const settings = () => ({ autocheckpoint: Number(stores.db.pragma('wal_autocheckpoint', { simple: true })), cacheKib: -Number(stores.db.pragma('cache_size', { simple: true })) });
    const before = settings();
    const during = await stores.readModels.bulkLoad([pings], async () => settings());
    expect(during.autocheckpoint).to.be.greaterThan(before.autocheckpoint);
    expect(during.cacheKib).to.be.greaterThan(before.cacheKib);
    expect(settings()).to.deep.equal(before);
  });

  it('fails the load with a checkpoint conflict when another writer moved the checkpoint, storing nothing of that batch', async () => {
    const checkpoint = (position: number, expectedPosition: number | null) => ({ name: 'bulk', version: 1, position, expectedPosition });
    const error = await stores.readModels
      .bulkLoad([pings], async () => {
        await stores.readModels.commit([ping(1)], [checkpoint(1, null)]);
        await stores.readModels.readCheckpoints();
        await stores.openSecondConnection().readModels.commit([], [checkpoint(5, 1)]);
        await stores.readModels.commit([ping(2)], [checkpoint(2, 1)]);
        await stores.readModels.readCheckpoints();
      })
      .catch((e) => e);
    expect(error).to.be.instanceOf(CheckpointConflictError);
    expect((await stores.readModels.find(pings.name)).map((found) => found.id)).to.deep.equal(['p1']);
    expect(indexes()).to.have.length(3);
  });
});
