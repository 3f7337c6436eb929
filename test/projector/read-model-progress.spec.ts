import { expect } from 'chai';
import { CommitSignal } from '../../src/eventstore/commit-signal.js';
import { openSqliteDatabase, type SqliteDatabase } from '../../src/eventstore/sqlite-database.js';
import { CheckpointPoller, ReadModelLagError } from '../../src/projector/read-model-progress.js';
import { SqliteReadModelStore } from '../../src/readstore/sqlite-read-model-store.js';
import { eventually } from '../support/eventually.js';
import { makeTempDir } from '../support/temp-dir.js';

/** Far longer than any test here may take: whatever ends a wait, the signal brought, not the poll. */
const POLL_MS = 60_000;

describe('CheckpointPoller', () => {
  let dir: ReturnType<typeof makeTempDir>;
  let db: SqliteDatabase;
  let readModels: SqliteReadModelStore;
  let reads: number;
  const signal = new CommitSignal();
  beforeEach(async () => {
    dir = makeTempDir('vigil-poller');
    db = openSqliteDatabase(`${dir.path}/vigil.db`);
    readModels = new SqliteReadModelStore(db, { commitSignal: signal });
    await readModels.ensureCollections([{ name: 'monitors', indexes: [] }]);
    reads = 0;
    const read = readModels.readCheckpoints.bind(readModels);
    readModels.readCheckpoints = () => {
      reads += 1;
      return read();
    };
  });
  afterEach(() => {
    db.close();
    dir.remove();
  });
  const commitCheckpoint = (position: number, expectedPosition: number | null) =>
    readModels.commit([{ collection: 'monitors', id: 'm1', position, doc: { n: position } }], [{ name: 'monitors', version: 1, position, expectedPosition }]);

  it('answers a reader already served with one read of the checkpoints', async () => {
    await commitCheckpoint(5, null);
    const poller = new CheckpointPoller(readModels, ['monitors'], { intervalMs: POLL_MS, commits: signal });
    await poller.waitForPosition(5, 1000);
    expect(reads).to.equal(1);
  });

  it('serves every reader waiting with one read of the checkpoints per commit, however many wait', async () => {
    const poller = new CheckpointPoller(readModels, ['monitors'], { intervalMs: POLL_MS, commits: signal });
    const readers = 20;
    const waits = Array.from({ length: readers }, () => poller.waitForPosition(7, POLL_MS));
    // Each looked once for itself, and the round they share once: now they sleep until a commit.
    await eventually(() => expect(reads).to.equal(readers + 1));
    await commitCheckpoint(7, null);
    await Promise.all(waits);
    expect(reads).to.equal(readers + 2);
  });

  it('lets a reader give up at its own timeout while the others wait on', async () => {
    const poller = new CheckpointPoller(readModels, ['monitors'], { intervalMs: 5, maxIntervalMs: 20 });
    const patient = poller.waitForPosition(3, POLL_MS);
    const hasty = await poller.waitForPosition(3, 30).catch((error: unknown) => error);
    expect(hasty).to.be.instanceOf(ReadModelLagError);
    await commitCheckpoint(3, null);
    await patient;
  });
});
