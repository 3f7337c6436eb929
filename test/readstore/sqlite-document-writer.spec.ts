import { expect } from 'chai';
import { WriteGate } from '../../src/eventstore/write-gate.js';
import { SqliteLeaseStore } from '../../src/coordination/sqlite-lease-store.js';
import { CheckpointConflictError, type CheckpointAdvance, type DocumentWrite, FencedOutError } from '../../src/readstore/read-model-store.js';
import { SqliteDocumentWriter, encodeWrites } from '../../src/readstore/sqlite-document-writer.js';
import { type EmbeddedStores, openEmbeddedStores } from '../support/embedded-stores.js';

/** The gate of a process whose log writer waits (or not) for it, noting what was committed each time it is taken. */
class WatchedGate extends WriteGate {
  logWriterWaits = false;
  readonly seenAtEachHold: { documents: number; checkpoint: number | null }[] = [];

  constructor(readonly committed: () => { documents: number; checkpoint: number | null }) {
    super();
  }

  override writerWaiting(): boolean {
    return this.logWriterWaits;
  }

  override holdAfterWaiters<T>(work: () => T): T {
    this.seenAtEachHold.push(this.committed());
    return super.holdAfterWaiters(work);
  }
}

describe('SqliteDocumentWriter', () => {
  let stores: EmbeddedStores;
  let gate: WatchedGate;
  let writer: SqliteDocumentWriter;
  beforeEach(async () => {
    stores = openEmbeddedStores();
    await stores.readModels.ensureCollections([{ name: 'entries', indexes: [] }]);
    await stores.readModels.commit([], [advance(0, null)]);
    gate = new WatchedGate(() => ({
      documents: stores.db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM rm_entries').get()!.n,
      checkpoint: stores.db.prepare<[], { position: number }>("SELECT position FROM rm_checkpoints WHERE name = 'entries'").get()?.position ?? null,
    }));
    // Yields as soon as it has written one document, where a log writer waits.
    writer = new SqliteDocumentWriter(stores.db, gate, { yieldAfterMs: 0 });
  });
  afterEach(() => stores.dispose());

  const entry = (n: number): DocumentWrite => ({ collection: 'entries', id: `e${n}`, position: n, doc: { n } });
  function advance(position: number, expectedPosition: number | null): CheckpointAdvance {
    return { name: 'entries', version: 1, position, expectedPosition };
  }
  const commit = (writes: DocumentWrite[], checkpoints: CheckpointAdvance[]) => writer.commit(encodeWrites(writes, () => []), checkpoints);

  it('commits a batch in one transaction while no log writer waits', () => {
    commit([entry(1), entry(2), entry(3)], [advance(3, 0)]);
    expect(gate.seenAtEachHold).to.deep.equal([{ documents: 0, checkpoint: 0 }]);
    expect(gate.committed()).to.deep.equal({ documents: 3, checkpoint: 3 });
  });

  it('lets a waiting log writer in between transactions, advancing the checkpoint only with the last', () => {
    gate.logWriterWaits = true;
    commit([entry(1), entry(2), entry(3)], [advance(3, 0)]);
    expect(gate.seenAtEachHold).to.deep.equal([
      { documents: 0, checkpoint: 0 },
      { documents: 1, checkpoint: 0 },
      { documents: 2, checkpoint: 0 },
    ]);
    expect(gate.committed()).to.deep.equal({ documents: 3, checkpoint: 3 });
  });

  it('still commits a checkpoint advance that comes with no documents', () => {
    gate.logWriterWaits = true;
    commit([], [advance(7, 0)]);
    expect(gate.committed()).to.deep.equal({ documents: 0, checkpoint: 7 });
  });

  it('stops at a checkpoint another writer moved, in any of its transactions, leaving the checkpoint where that writer put it', () => {
    gate.logWriterWaits = true;
    let holds = 0;
    const moveCheckpointAfterFirst = gate.holdAfterWaiters.bind(gate);
    gate.holdAfterWaiters = <T>(work: () => T): T => {
      if (++holds === 2) stores.db.prepare("UPDATE rm_checkpoints SET position = 9 WHERE name = 'entries'").run();
      return moveCheckpointAfterFirst(work);
    };
    expect(() => commit([entry(1), entry(2), entry(3)], [advance(3, 0)])).to.throw(CheckpointConflictError);
    expect(gate.committed()).to.deep.equal({ documents: 1, checkpoint: 9 });
  });

  describe('under a lease (a projector that may overlap another while the lease passes)', () => {
    const fence = { lease: 'projector', holder: 'A' };
    const fencedCommit = (writes: DocumentWrite[], checkpoints: CheckpointAdvance[]) => writer.commit(encodeWrites(writes, () => []), checkpoints, fence);
    let leases: SqliteLeaseStore;
    beforeEach(() => (leases = new SqliteLeaseStore(stores.db)));
    const takenBy = (holder: string) => stores.db.prepare("UPDATE coordination_leases SET holder = ? WHERE name = 'projector'").run(holder);
    /** Runs `then` when the commit takes the gate for its `nth` transaction. */
    const onHold = (nth: number, then: () => void) => {
      let holds = 0;
      const hold = gate.holdAfterWaiters.bind(gate);
      gate.holdAfterWaiters = <T>(work: () => T): T => {
        if (++holds === nth) then();
        return hold(work);
      };
    };

    it('commits while its holder holds the lease, or nobody does', async () => {
      fencedCommit([entry(1)], [advance(1, 0)]);
      await leases.acquire('projector', 'A', 60_000, new Date());
      fencedCommit([entry(2)], [advance(2, 1)]);
      expect(gate.committed()).to.deep.equal({ documents: 2, checkpoint: 2 });
    });

    it('writes nothing once another holder has taken the lease, so it cannot write back what the other deleted', async () => {
      await leases.acquire('projector', 'A', 60_000, new Date());
      onHold(1, () => takenBy('B'));
      expect(() => fencedCommit([entry(1), entry(2)], [advance(2, 0)])).to.throw(FencedOutError);
      expect(gate.committed()).to.deep.equal({ documents: 0, checkpoint: 0 });
    });

    it('stops between its transactions when another holder takes the lease meanwhile', async () => {
      gate.logWriterWaits = true;
      await leases.acquire('projector', 'A', 60_000, new Date());
      onHold(2, () => takenBy('B'));
      expect(() => fencedCommit([entry(1), entry(2), entry(3)], [advance(3, 0)])).to.throw(FencedOutError);
      expect(gate.committed()).to.deep.equal({ documents: 1, checkpoint: 0 });
    });
  });
});
