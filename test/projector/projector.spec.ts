import { expect } from 'chai';
import { Projector } from '../../src/projector/projector.js';
import type { ProjectorOptions } from '../../src/projector/projector-options.js';
import type { Projection } from '../../src/projector/projection.js';
import { CheckpointPoller, ReadModelLagError } from '../../src/projector/read-model-progress.js';
import { ReaderDemand } from '../../src/projector/reader-demand.js';
import { WriteGate } from '../../src/eventstore/write-gate.js';
import { SqliteReadModelStore } from '../../src/readstore/sqlite-read-model-store.js';
import type { ReadModelStore } from '../../src/readstore/read-model-store.js';
import { eventually } from '../support/eventually.js';
import { type EmbeddedStores, dumpReadModels, openEmbeddedStores } from '../support/embedded-stores.js';
import { rename, renameCounter, renameLog } from '../support/rename-projections.js';

async function renames(stores: EmbeddedStores, projectId: string) {
  return (await stores.readModels.get('rename_counts', projectId))?.doc;
}

describe('Projector', () => {
  let stores: EmbeddedStores;
  beforeEach(() => (stores = openEmbeddedStores()));
  afterEach(() => stores.dispose());

  it('catches up on events written before it started, then follows new ones', async () => {
    for (let n = 1; n <= 3; n++) await rename(stores, 'a', n);
    const projector = new Projector(stores.events, stores.readModels, [renameCounter()]);
    await projector.start();
    const { position } = await rename(stores, 'a', 4);
    await projector.waitForPosition(position, 2000);
    expect(await renames(stores, 'a')).to.deep.equal({ renames: 4, last: 'name 4' });
    await projector.stop();
  });

  it('resumes from its checkpoint after a restart mid-stream, applying each event exactly once', async () => {
    const positions = [];
    for (let n = 1; n <= 50; n++) positions.push((await rename(stores, n % 2 ? 'a' : 'b', n)).position);
    await new Projector(stores.events, stores.readModels, [renameCounter()], { batchSize: 7 }).catchUp({ until: positions[20]! });
    expect((await renames(stores, 'a'))?.['renames']).to.equal(11);
    await new Projector(stores.events, stores.readModels, [renameCounter()], { batchSize: 7 }).catchUp();
    expect((await renames(stores, 'a'))?.['renames']).to.equal(25);
    expect((await renames(stores, 'b'))?.['renames']).to.equal(25);
  });

  it('commits nothing of a batch that fails, and a restarted projector completes it exactly once', async () => {
    for (let n = 1; n <= 10; n++) await rename(stores, 'a', n);
    const failing = renameCounter();
    const crashing: Projection = {
      ...failing,
      apply: (doc, event, id) => {
        if (event.type === 'ProjectUpdated' && event.data.name === 'name 8') throw new Error('simulated crash');
        return failing.apply(doc, event, id);
      },
    };
    const error = await new Projector(stores.events, stores.readModels, [crashing], { batchSize: 5 }).catchUp().catch((e) => e);
    expect(error).to.match(/simulated crash/);
    expect((await renames(stores, 'a'))?.['renames']).to.equal(5);
    await new Projector(stores.events, stores.readModels, [renameCounter()], { batchSize: 5 }).catchUp();
    expect((await renames(stores, 'a'))?.['renames']).to.equal(10);
  });

  it('replays a commit cut short between the transactions it gave way in (a crash) to the rows a rebuild makes, each event applied once', async () => {
    for (let n = 1; n <= 12; n++) await rename(stores, `p${n % 3}`, n);
    // A log writer waits throughout, so the commit gives way after every document; the process dies
    // as its second transaction would start.
    const dyingBetweenTransactions = new (class extends WriteGate {
      private holds = 0;
      override writerWaiting(): boolean {
        return true;
      }
      override holdAfterWaiters<T>(work: () => T): T {
        if (++this.holds === 2) throw new Error('simulated crash');
        return super.holdAfterWaiters(work);
      }
    })();
    const cut = new SqliteReadModelStore(stores.db, { writeGate: dyingBetweenTransactions, yieldAfterMs: 0 });
    expect(await new Projector(stores.events, cut, [renameCounter()]).catchUp().catch((e) => e)).to.match(/simulated crash/);
    expect(await stores.readModels.readCheckpoints()).to.deep.include({ name: 'rename_counts', version: 1, position: 0 });
    expect(await stores.readModels.find('rename_counts', {}), 'one document ahead of its checkpoint').to.have.length(1);

    await new Projector(stores.events, stores.readModels, [renameCounter()]).catchUp();
    const replayed = dumpReadModels(stores.db);
    expect((await stores.readModels.find('rename_counts', {})).map((found) => found.doc['renames'])).to.deep.equal([4, 4, 4]);
    await new Projector(stores.events, stores.readModels, [renameCounter()]).rebuild();
    expect(dumpReadModels(stores.db)).to.deep.equal(replayed);
  });

  it('rebuilds a projection from the start when its version changes', async () => {
    for (let n = 1; n <= 4; n++) await rename(stores, 'a', n);
    await new Projector(stores.events, stores.readModels, [renameCounter(1, 1)]).catchUp();
    expect((await renames(stores, 'a'))?.['renames']).to.equal(4);
    await new Projector(stores.events, stores.readModels, [renameCounter(2, 10)]).catchUp();
    expect((await renames(stores, 'a'))?.['renames']).to.equal(40);
  });

  it('rebuild drops the read models and replays them to identical rows', async () => {
    for (let n = 1; n <= 30; n++) await rename(stores, `p${n % 4}`, n);
    const projector = new Projector(stores.events, stores.readModels, [renameCounter()], { batchSize: 4 });
    await projector.catchUp();
    const live = dumpReadModels(stores.db);
    const progress: number[] = [];
    await new Projector(stores.events, stores.readModels, [renameCounter()]).rebuild((position) => progress.push(position));
    expect(dumpReadModels(stores.db)).to.deep.equal(live);
    expect(progress.at(-1)).to.equal(await stores.events.headPosition());
  });

  it('rebuilds over many batches, reading back what its own earlier batches wrote', async () => {
    for (let n = 1; n <= 40; n++) await rename(stores, `p${n % 3}`, n);
    await new Projector(stores.events, stores.readModels, [renameCounter()]).catchUp();
    const live = dumpReadModels(stores.db);
    await new Projector(stores.events, stores.readModels, [renameCounter()], { rebuildBatchSize: 3 }).rebuild();
    expect(dumpReadModels(stores.db)).to.deep.equal(live);
    expect((await renames(stores, 'p1'))?.['renames']).to.equal(14);
  });

  it('picks up, within a second, events another process appended to the same file', async () => {
    const projector = new Projector(stores.events, stores.readModels, [renameCounter()]);
    await projector.start();
    const other = stores.openSecondConnection();
    await other.events.appendToStream('project-x', [
      { type: 'ProjectUpdated', data: { project_id: 'x', name: 'from the CLI', description: '', updated_at: '2026-11-21T00:00:00.000Z' } },
    ]);
    await eventually(async () => expect((await renames(stores, 'x'))?.['last']).to.equal('from the CLI'), 1000);
    await projector.stop();
  });

  it('drops the collections and checkpoint of a retired projection it finds stored, and leaves the others alone', async () => {
    for (let n = 1; n <= 3; n++) await rename(stores, 'a', n);
    const retiring = { ...renameCounter(), name: 'old_counts', collection: { name: 'old_counts', indexes: [] } };
    await new Projector(stores.events, stores.readModels, [renameCounter(), retiring]).catchUp();
    expect(Object.keys(dumpReadModels(stores.db))).to.deep.equal(['rm_old_counts', 'rm_rename_counts']);

    await new Projector(stores.events, stores.readModels, [renameCounter()], { retired: [{ name: 'old_counts', collections: ['old_counts'] }] }).catchUp();

    expect(Object.keys(dumpReadModels(stores.db))).to.deep.equal(['rm_rename_counts']);
    expect((await stores.readModels.readCheckpoints()).map((c) => c.name)).to.deep.equal(['rename_counts']);
    expect((await renames(stores, 'a'))?.['renames']).to.equal(3);
  });

  describe('a projection whose documents each come from one event (fromEventAlone)', () => {
    const entries = async () => (await stores.readModels.find<{ name: string }>('rename_log', {}, { sort: [['position', 1]] })).map((found) => found.doc.name);

    it('is written without reading its documents, deletions included, and a replay changes nothing', async () => {
      for (let n = 1; n <= 5; n++) await rename(stores, 'a', n);
      let reads = 0;
      const get = stores.readModels.get.bind(stores.readModels);
      stores.readModels.get = (collection, id) => {
        reads += 1;
        return get(collection, id);
      };
      // One event a batch: nothing the batch itself wrote can stand in for a read.
      await new Projector(stores.events, stores.readModels, [renameLog], { batchSize: 1 }).catchUp();
      expect(reads).to.equal(0);
      expect(await entries()).to.deep.equal(['name 4', 'name 5']);
      const live = dumpReadModels(stores.db);

      // As after a crash that kept the documents but not the checkpoint: everything is applied again.
      await stores.readModels.commit([], [{ name: 'rename_log', version: 1, position: 0, expectedPosition: await stores.events.headPosition() }]);
      await new Projector(stores.events, stores.readModels, [renameLog], { batchSize: 1 }).catchUp();
      expect(dumpReadModels(stores.db)).to.deep.equal(live);
    });
  });

  describe('with a linger', () => {
    /** Whether the rename at `position` is in the read models yet, as another thread would see it. */
    const committed = async (position: number) => (await stores.readModels.readCheckpoints()).every((c) => c.position >= position);
    const turns = async (n: number) => {
      for (let i = 0; i < n; i++) await new Promise((resolve) => setTimeout(resolve, 1));
    };

    it('lets a batch gather while no reader waits, then commits the events of the linger together', async () => {
      const projector = new Projector(stores.events, stores.readModels, [renameCounter()], { lingerMs: 150 });
      await projector.start();
      await rename(stores, 'a', 1);
      await turns(20);
      const { position } = await rename(stores, 'a', 2);
      await turns(20);
      expect(await committed(position), 'committed within the linger').to.equal(false);
      await eventually(async () => expect(await committed(position)).to.equal(true), 2000);
      expect(await renames(stores, 'a')).to.deep.equal({ renames: 2, last: 'name 2' });
      await projector.stop();
    });

    /** A projector that would hold its batch for a minute, and a rename it holds uncommitted. */
    const lingeringOnARename = async (options: ProjectorOptions = {}) => {
      const projector = new Projector(stores.events, stores.readModels, [renameCounter()], { lingerMs: 60_000, ...options });
      await projector.start();
      const { position } = await rename(stores, 'a', 1);
      await turns(10);
      expect(await committed(position), 'committed within the linger').to.equal(false);
      return { projector, position };
    };

    it('commits at once for a reader of its own thread that waits', async () => {
      const { projector, position } = await lingeringOnARename();
      await projector.waitForPosition(position, 2000);
      expect(await renames(stores, 'a')).to.deep.equal({ renames: 1, last: 'name 1' });
      await projector.stop();
    });

    it('commits at once for a reader on another thread that says it waits, through the reader demand', async () => {
      const demand = new ReaderDemand();
      const { projector, position } = await lingeringOnARename({ readerDemand: demand });
      // What the API thread's CheckpointPoller does while it waits; here on a view of the same memory.
      const apiThread = new CheckpointPoller(stores.readModels, ['rename_counts'], { intervalMs: 5, demand: new ReaderDemand(demand.buffer) });
      await apiThread.waitForPosition(position, 2000);
      expect(demand.waiting(), 'no longer counted once its wait is over').to.equal(false);
      expect(await renames(stores, 'a')).to.deep.equal({ renames: 1, last: 'name 1' });
      await projector.stop();
    });

    it('commits what it holds when stopped mid-linger', async () => {
      const { projector, position } = await lingeringOnARename();
      await projector.stop();
      expect(await committed(position)).to.equal(true);
    });
  });

  it('retries, skipping nothing, while the disk refuses its commits and then the read of its checkpoints, and catches up once it takes them', async function () {
    this.timeout(10_000);
    const diskFull = () => Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    let commitsToRefuse = 1;
    let checkpointReadsToRefuse = 0;
    const errors: unknown[] = [];
    // The store as a full disk leaves it: commits fail, and then (as the projector starts over) so does a read.
    const flaky: ReadModelStore = Object.assign(Object.create(stores.readModels) as ReadModelStore, {
      commit: async (...args: Parameters<ReadModelStore['commit']>) => {
        if (commitsToRefuse > 0) {
          commitsToRefuse -= 1;
          checkpointReadsToRefuse = 1;
          throw diskFull();
        }
        return stores.readModels.commit(...args);
      },
      readCheckpoints: async () => {
        if (checkpointReadsToRefuse > 0) {
          checkpointReadsToRefuse -= 1;
          throw diskFull();
        }
        return stores.readModels.readCheckpoints();
      },
    });
    const projector = new Projector(stores.events, flaky, [renameCounter()], { onError: (error) => errors.push(error) });
    await projector.start();
    let last = 0;
    for (let n = 1; n <= 5; n++) last = (await rename(stores, 'a', n)).position;
    await projector.waitForPosition(last, 8000);
    expect(await renames(stores, 'a')).to.deep.equal({ renames: 5, last: 'name 5' });
    expect(errors.map((error) => (error as { code?: string }).code)).to.deep.equal(['SQLITE_FULL', 'SQLITE_FULL']);
    await projector.stop();
  });

  it('gives up waiting for a position it does not reach, with a lag error', async () => {
    const projector = new Projector(stores.events, stores.readModels, [renameCounter()]);
    await projector.start();
    const error = await projector.waitForPosition(1_000_000, 30).catch((e) => e);
    expect(error).to.be.instanceOf(ReadModelLagError);
    await projector.stop();
  });
});
