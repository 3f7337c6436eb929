import { expect } from 'chai';
import { Projector } from '../../src/projector/projector.js';
import { type EmbeddedStores, openEmbeddedStores } from '../support/embedded-stores.js';
import { rename, renameCount, renameCounter, renameLog } from '../support/rename-projections.js';

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
    expect(await renameCount(stores, 'a')).to.equal(5);
    // The one read that found no document yet, and the one just above.
    expect(reads).to.equal(2);
  });

  it('keeps none of the documents it never reads (one per event, as the history\'s), so they push out none that it does', async () => {
    // Room for one document: the rename count, unless each log entry took its place.
    const projector = new Projector(stores.events, stores.readModels, [renameCounter(), renameLog], { batchSize: 1, documentsKept: 1 });
    await projector.start();
    try {
      for (let n = 1; n <= 5; n++) await projector.waitForPosition((await rename(stores, 'a', n)).position, 2000);
    } finally {
      await projector.stop();
    }
    expect(reads).to.equal(1);
    expect(await renameCount(stores, 'a')).to.equal(5);
  });

  it('reads the store again once it starts over from the checkpoints, so it never builds on a document another projector has changed since', async () => {
    for (let n = 1; n <= 3; n++) await rename(stores, 'a', n);
    const first = new Projector(stores.events, stores.readModels, [renameCounter()]);
    await first.catchUp();
    // Another projector takes over for one event, and counts it as ten.
    await rename(stores, 'a', 4);
    await new Projector(stores.events, stores.readModels, [renameCounter(1, 10)]).catchUp();
    expect(await renameCount(stores, 'a')).to.equal(13);

    await rename(stores, 'a', 5);
    await first.catchUp();
    expect(await renameCount(stores, 'a')).to.equal(14);
  });
});
