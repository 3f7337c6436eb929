import { expect } from 'chai';
import { Projector } from '../../src/projector/projector.js';
import type { Projection } from '../../src/projector/projection.js';
import { type EmbeddedStores, openEmbeddedStores } from '../support/embedded-stores.js';

/** Counts renames per project, `step` at a time: a document built on a stale copy shows as a wrong count. */
function renameCounter(step = 1): Projection {
  return {
    name: 'rename_counts',
    version: 1,
    collection: { name: 'rename_counts', indexes: [] },
    handles: ['ProjectUpdated'],
    targets: (event) => ({ ids: event.type === 'ProjectUpdated' ? [event.data.project_id] : [] }),
    apply: (doc) => ({ renames: Number(doc?.['renames'] ?? 0) + step }),
  };
}

async function rename(stores: EmbeddedStores, projectId: string, n: number) {
  return stores.events.appendToStream(`project-${projectId}`, [
    { type: 'ProjectUpdated', data: { project_id: projectId, name: `name ${n}`, description: '', updated_at: '2026-11-21T00:00:00.000Z' } },
  ]);
}

describe('Projector: the documents its own commits left', () => {
  let stores: EmbeddedStores;
  let reads: number;
  beforeEach(() => {
    stores = openEmbeddedStores();
    reads = 0;
    const get = stores.readModels.get.bind(stores.readModels);
    stores.readModels.get = (collection, id) => {
      reads += 1;
      return get(collection, id);
    };
  });
  afterEach(() => stores.dispose());

  it('applies the next events to a document from what it committed, reading the store once', async () => {
    const projector = new Projector(stores.events, stores.readModels, [renameCounter()], { batchSize: 1 });
    await projector.start();
    try {
      for (let n = 1; n <= 5; n++) await projector.waitForPosition((await rename(stores, 'a', n)).position, 2000);
    } finally {
      await projector.stop();
    }
    expect((await stores.readModels.get('rename_counts', 'a'))?.doc).to.deep.equal({ renames: 5 });
    // The one read that found no document yet, and the one just above.
    expect(reads).to.equal(2);
  });

  it('keeps none of the documents it never reads (one per event, as the history\'s), so they push out none that it does', async () => {
    const renameLog: Projection = {
      name: 'rename_log',
      version: 1,
      collection: { name: 'rename_log', indexes: [] },
      handles: ['ProjectUpdated'],
      fromEventAlone: true,
      targets: (event) => ({ ids: [`${event.streamName}@${event.revision}`] }),
      apply: (_doc, event) => ({ name: event.type === 'ProjectUpdated' ? event.data.name : '' }),
    };
    // Room for one document: the rename count, unless each log entry took its place.
    const projector = new Projector(stores.events, stores.readModels, [renameCounter(), renameLog], { batchSize: 1, documentsKept: 1 });
    await projector.start();
    try {
      for (let n = 1; n <= 5; n++) await projector.waitForPosition((await rename(stores, 'a', n)).position, 2000);
    } finally {
      await projector.stop();
    }
    expect(reads).to.equal(1);
    expect((await stores.readModels.get('rename_counts', 'a'))?.doc).to.deep.equal({ renames: 5 });
  });

  it('reads the store again once it starts over from the checkpoints, so it never builds on a document another projector has changed since', async () => {
    for (let n = 1; n <= 3; n++) await rename(stores, 'a', n);
    const first = new Projector(stores.events, stores.readModels, [renameCounter()]);
    await first.catchUp();
    // Another projector takes over for one event, and counts it as ten.
    await rename(stores, 'a', 4);
    await new Projector(stores.events, stores.readModels, [renameCounter(10)]).catchUp();
    expect((await stores.readModels.get('rename_counts', 'a'))?.doc).to.deep.equal({ renames: 13 });

    await rename(stores, 'a', 5);
    await first.catchUp();
    expect((await stores.readModels.get('rename_counts', 'a'))?.doc).to.deep.equal({ renames: 14 });
  });
});
