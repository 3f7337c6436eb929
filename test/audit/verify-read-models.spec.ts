import { expect } from 'chai';
import { verifyReadModels } from '../../src/audit/verify-read-models.js';
import { Projector } from '../../src/projector/projector.js';
import type { Projection } from '../../src/projector/projection.js';
import { type EmbeddedStores, openEmbeddedStores } from '../support/embedded-stores.js';
import { rename, renameCounter } from '../support/rename-projections.js';

/** Counts every rename of every project, in one document. */
const allRenames: Projection = {
  name: 'all_renames',
  version: 1,
  collection: { name: 'all_renames', indexes: [] },
  handles: ['ProjectUpdated'],
  targets: () => ({ ids: ['all'] }),
  apply: (doc) => ({ renames: Number(doc?.['renames'] ?? 0) + 1 }),
};

describe('verifyReadModels', () => {
  let stores: EmbeddedStores;
  beforeEach(() => (stores = openEmbeddedStores()));
  afterEach(() => stores.dispose());

  it('compares each read model with a replay as far as its own checkpoint, as a copy taken while the projector runs holds them', async () => {
    const projections = [renameCounter(), allRenames];
    await rename(stores, 'p1', 1);
    await new Projector(stores.events, stores.readModels, projections).catchUp();
    // The rename counter takes in one more rename before the copy is taken; the other has not yet.
    await rename(stores, 'p1', 2);
    await new Projector(stores.events, stores.readModels, [projections[0]!]).catchUp();

    const verification = await verifyReadModels(stores.events, stores.readModels, projections);
    expect(verification.differences).to.deep.equal([]);
    expect(verification.ok).to.equal(true);
  });

  it('compares a document ahead of its checkpoint, as a crash between the two leaves it, with a replay as far as it went', async () => {
    const projections = [renameCounter(), allRenames];
    await rename(stores, 'p1', 1);
    await rename(stores, 'p2', 1);
    await new Projector(stores.events, stores.readModels, projections).catchUp();
    const { position } = await rename(stores, 'p1', 2);
    await new Projector(stores.events, stores.readModels, projections).catchUp();
    // The checkpoints as they were before the last rename: its documents are ahead of them.
    stores.db.prepare('UPDATE rm_checkpoints SET position = ? WHERE name IN (?, ?)').run(position - 1, 'rename_counts', 'all_renames');

    const verification = await verifyReadModels(stores.events, stores.readModels, projections);
    expect(verification.differences).to.deep.equal([]);
    // And a document that really differs is still found.
    stores.db.prepare("UPDATE rm_rename_counts SET doc = json_set(doc, '$.renames', 7) WHERE id = 'p2'").run();
    expect((await verifyReadModels(stores.events, stores.readModels, projections)).differences).to.deep.equal([{ collection: 'rename_counts', id: 'p2', problem: 'differs from the replay' }]);
  });
});
