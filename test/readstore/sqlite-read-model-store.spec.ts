import { expect } from 'chai';
import { type CollectionSpec, type Filter, type FindOptions, CheckpointConflictError } from '../../src/readstore/read-model-store.js';
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
  const plan = async (field: string) => (await stores.readModels.queryPlan(pings.name, { [field]: 'x' })).join(' ');
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
    expect(await plan('created_at')).to.match(/USING INDEX rm_bulk_pings__created_at/);
  });

  it('checkpoints the WAL in larger steps and caches more pages while loading, and as before afterwards', async () => {
    const settings = () => ({ autocheckpoint: Number(stores.db.pragma('wal_autocheckpoint', { simple: true })), cacheKib: -Number(stores.db.pragma('cache_size', { simple: true })) });
    const before = settings();
    const during = await stores.readModels.bulkLoad([pings], async () => settings());
    expect(during.autocheckpoint).to.be.greaterThan(before.autocheckpoint);
    expect(during.cacheKib).to.be.greaterThan(before.cacheKib);
    expect(settings()).to.deep.equal(before);
  });

  it('commits nothing sent after a batch that failed, though it was sent before the failure was known', async () => {
    const unique: CollectionSpec = { name: 'bulk_pings', indexes: [...pings.indexes, { fields: ['seq'], unique: true }] };
    const error = await stores.readModels
      .bulkLoad([unique], async () => {
        await stores.readModels.ensureCollections([unique]);
        await stores.readModels.commit([ping(1), ping(2)], []);
        await stores.readModels.commit([{ ...ping(3), doc: { ...ping(3).doc, seq: 1 } }], []);
        await stores.readModels.commit([ping(4)], []);
        await stores.readModels.count(pings.name);
      })
      .catch((e) => e);
    expect(String(error)).to.match(/UNIQUE/);
    expect((await stores.readModels.find(pings.name)).map((found) => found.id)).to.deep.equal(['p1', 'p2']);
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

describe('SqliteReadModelStore: indexed fields', () => {
  let stores: EmbeddedStores;
  beforeEach(() => (stores = openEmbeddedStores()));
  afterEach(() => stores.dispose());

  const checks: CollectionSpec = { name: 'checks', indexes: [{ fields: ['monitor_id', 'seq'] }, { fields: ['owner.id'], unique: true }] };
  const check = (n: number, fields: Record<string, unknown> = {}) => ({
    collection: checks.name,
    id: `c${n}`,
    position: n,
    doc: { monitor_id: `m${n % 2}`, seq: n, owner: { id: `u${n}` }, note: 'x', ...fields },
  });
  /** Each field column, and whether the writer fills it or SQLite generates it from the document (hidden 2). */
  const columns = () =>
    stores.db
      .prepare<[], { name: string; hidden: number }>("SELECT name, hidden FROM pragma_table_xinfo('rm_checks') WHERE name LIKE 'doc.%' ORDER BY name")
      .all()
      .map((column) => `${column.name}:${column.hidden === 0 ? 'written' : 'virtual'}`);
  const indexSql = () =>
    stores.db
      .prepare<[], { sql: string }>("SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'rm_checks' AND sql IS NOT NULL ORDER BY name")
      .all()
      .map((index) => index.sql);
  const plan = async (filter: Filter, options: FindOptions = {}) => (await stores.readModels.queryPlan(checks.name, filter, options)).join(' | ');
  const ids = async (filter: Filter, options: FindOptions = {}) => (await stores.readModels.find(checks.name, filter, options)).map((found) => found.id);

  it('keeps each indexed field in a column beside the document, holding what json_extract reads there', async () => {
    await stores.readModels.ensureCollections([checks]);
    expect(columns()).to.deep.equal(['doc.monitor_id:written', 'doc.owner.id:written', 'doc.seq:written']);
    expect(indexSql().join('\n')).to.not.match(/json_extract/);
    await stores.readModels.commit(
      [
        check(1),
        check(2, { seq: 2.5 }),
        check(3, { monitor_id: true, seq: -0 }),
        check(4, { monitor_id: null, seq: 1e21 }),
        check(5, { monitor_id: undefined, owner: 'u' }),
        check(6, { monitor_id: { at: [1, 'two', null, false] }, owner: [{ id: 'u6' }] }),
        check(7, { monitor_id: false, seq: Number.NaN, owner: { id: 'say "hi"\n\u0001é' } }),
      ],
      [],
    );
    // A newer version of a document moves its columns with it; an older one moves neither.
    await stores.readModels.commit([{ ...check(1, { monitor_id: 'moved', owner: {} }), position: 10 }, { ...check(2), position: 1, doc: { monitor_id: 'stale' } }], []);
    const stored = stores.db
      .prepare<[], { same: number }>(
        `SELECT "doc.monitor_id" IS json_extract(doc, '$.monitor_id') AND "doc.seq" IS json_extract(doc, '$.seq') AND "doc.owner.id" IS json_extract(doc, '$.owner.id') AS same FROM rm_checks`,
      )
      .all();
    expect(stored.map((row) => row.same)).to.deep.equal([1, 1, 1, 1, 1, 1, 1]);
    expect(await ids({ monitor_id: 'moved' })).to.deep.equal(['c1']);
    expect(await ids({ monitor_id: 'stale' })).to.deep.equal([]);
  });

  it('filters and sorts on an indexed field through its index, and on any other field by reading the document', async () => {
    await stores.readModels.ensureCollections([checks]);
    await stores.readModels.commit([check(1), check(2), check(3), check(4, { note: 'y' })], []);
    expect(await ids({ monitor_id: 'm1' }, { sort: [['seq', -1]] })).to.deep.equal(['c3', 'c1']);
    expect(await plan({ monitor_id: 'm1' }, { sort: [['seq', -1]] })).to.match(/^SEARCH rm_checks USING INDEX rm_checks__monitor_id__seq \(doc.monitor_id=\?\)/);
    expect(await ids({ 'owner.id': { $in: ['u2', 'u4'] } })).to.deep.equal(['c2', 'c4']);
    expect(await plan({ 'owner.id': 'u2' })).to.match(/USING INDEX rm_checks__owner_id/);
    expect(await ids({ note: 'y' })).to.deep.equal(['c4']);
    expect(await plan({ note: 'y' })).to.match(/^SCAN rm_checks/);
  });

  it('drops an index the spec no longer names (an older version made it), keeping the documents and the answers', async () => {
    const older: CollectionSpec = { ...checks, indexes: [...checks.indexes, { fields: ['monitor_id', 'note'] }] };
    await stores.readModels.ensureCollections([older]);
    await stores.readModels.commit([check(1), check(2), check(3, { note: 'y' })], []);
    expect(indexSql()).to.have.length(3);
    stores.db.exec('CREATE INDEX by_hand ON rm_checks (position)');

    await stores.readModels.ensureCollections([checks]);
    const names = indexSql().map((sql) => /INDEX (?:IF NOT EXISTS )?(\S+)/.exec(sql)?.[1]);
    expect(names).to.deep.equal(['by_hand', 'rm_checks__monitor_id__seq', 'rm_checks__owner_id']);
    expect(await ids({ monitor_id: 'm1', note: 'y' })).to.deep.equal(['c3']);
    expect(await ids({}, { sort: [['seq', 1]] })).to.deep.equal(['c1', 'c2', 'c3']);
  });

  it('leaves out of a sparse index the documents without its leading field, answering a filter on a value through it and one for null from the table', async () => {
    const sparse: CollectionSpec = { ...checks, indexes: [{ fields: ['monitor_id', 'seq'], sparse: true }, checks.indexes[1]!] };
    const partial = () =>
      stores.db
        .prepare<[], { name: string; partial: number }>("SELECT name, partial FROM pragma_index_list('rm_checks') WHERE name LIKE 'rm_checks__%' ORDER BY name")
        .all()
        .map((index) => `${index.name}:${index.partial === 1 ? 'sparse' : 'every document'}`);
    // A file an older version made, with the index holding every document: made sparse, then back.
    await stores.readModels.ensureCollections([checks]);
    await stores.readModels.commit([check(1), check(2, { monitor_id: null }), check(3), check(4, { monitor_id: undefined })], []);
    await stores.readModels.ensureCollections([sparse]);
    expect(partial()).to.deep.equal(['rm_checks__monitor_id__seq:sparse', 'rm_checks__owner_id:every document']);
    await stores.readModels.commit([check(5), check(6, { monitor_id: null })], []);
    expect(await ids({ monitor_id: 'm1' }, { sort: [['seq', -1]] })).to.deep.equal(['c5', 'c3', 'c1']);
    expect(await plan({ monitor_id: 'm1' }, { sort: [['seq', -1]] })).to.match(/^SEARCH rm_checks USING INDEX rm_checks__monitor_id__seq \(doc.monitor_id=\?\)/);
    expect(await plan({ monitor_id: { $in: ['m1', 'm0'] } })).to.match(/USING INDEX rm_checks__monitor_id__seq/);
    expect(await ids({ monitor_id: null })).to.deep.equal(['c2', 'c4', 'c6']);
    expect(await ids({ monitor_id: { $ne: 'm1' } })).to.deep.equal(['c2', 'c4', 'c6']);
    await stores.readModels.ensureCollections([checks]);
    expect(partial()).to.deep.equal(['rm_checks__monitor_id__seq:every document', 'rm_checks__owner_id:every document']);
    expect(await ids({ monitor_id: null })).to.deep.equal(['c2', 'c4', 'c6']);
  });

  it('opens a table an older version made with expression indexes: adds the columns and serves its queries through indexes on them', async () => {
    stores.db.exec(`CREATE TABLE rm_checks (id TEXT PRIMARY KEY, position INTEGER NOT NULL, doc TEXT NOT NULL);
      CREATE INDEX rm_checks__monitor_id__seq ON rm_checks (json_extract(doc, '$.monitor_id'), json_extract(doc, '$.seq'));
      CREATE UNIQUE INDEX rm_checks__owner_id ON rm_checks (json_extract(doc, '$.owner.id'));`);
    const insert = stores.db.prepare<[string, number, string]>('INSERT INTO rm_checks (id, position, doc) VALUES (?, ?, ?)');
    for (const n of [1, 2, 3]) insert.run(`c${n}`, n, JSON.stringify(check(n).doc));
    // Another connection, as the API's would be, has looked at the table before it is brought up to date.
    const other = stores.openSecondConnection().readModels;
    expect((await other.find(checks.name, { monitor_id: 'm1' })).map((found) => found.id)).to.deep.equal(['c1', 'c3']);

    await stores.readModels.ensureCollections([checks]);
    expect(columns()).to.deep.equal(['doc.monitor_id:virtual', 'doc.owner.id:virtual', 'doc.seq:virtual']);
    expect(indexSql().join('\n')).to.not.match(/json_extract/);
    await stores.readModels.commit([check(5)], []);
    expect(await ids({ monitor_id: 'm1' }, { sort: [['seq', -1]] })).to.deep.equal(['c5', 'c3', 'c1']);
    expect(await plan({ monitor_id: 'm1' }, { sort: [['seq', -1]] })).to.match(/USING INDEX rm_checks__monitor_id__seq/);
    expect((await other.queryPlan(checks.name, { monitor_id: 'm1' })).join(' ')).to.match(/USING INDEX rm_checks__monitor_id__seq/);
    expect((await other.find(checks.name, { monitor_id: 'm1' })).map((found) => found.id)).to.deep.equal(['c1', 'c3', 'c5']);
    const duplicate = await stores.readModels.commit([check(6, { owner: { id: 'u1' } })], []).catch((e) => e);
    expect(String(duplicate)).to.match(/UNIQUE/);

    await stores.readModels.reset({ name: 'checks', version: 2 }, [checks]);
    expect(columns()).to.deep.equal(['doc.monitor_id:written', 'doc.owner.id:written', 'doc.seq:written']);
  });
});
