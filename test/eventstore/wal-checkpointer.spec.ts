import { expect } from 'chai';
import { statSync } from 'node:fs';
import { openSqliteDatabase } from '../../src/eventstore/sqlite-database.js';
import { startModuleWorker } from '../../src/eventstore/module-worker.js';
import { SqliteEventStore } from '../../src/eventstore/sqlite-event-store.js';
import { WalCheckpointer } from '../../src/eventstore/wal-checkpointer.js';
import { WriteGate } from '../../src/eventstore/write-gate.js';
import { eventually } from '../support/eventually.js';
import { makeTempDir } from '../support/temp-dir.js';

describe('WalCheckpointer', () => {
  let dir: ReturnType<typeof makeTempDir>;
  beforeEach(() => (dir = makeTempDir('vigil-wal-checkpointer')));
  afterEach(() => dir.remove());

  /** A connection with SQLite's autocheckpoint off, as the server opens them, and 4 MB written through it. */
  const writeWithoutCheckpoints = (path: string) => {
    const db = openSqliteDatabase(path, { autocheckpoint: false });
    db.exec('CREATE TABLE t (doc TEXT)');
    const insert = db.prepare('INSERT INTO t (doc) VALUES (?)');
    db.transaction(() => {
      for (let i = 0; i < 1000; i++) insert.run('x'.repeat(4000));
    })();
    return db;
  };

  it('copies the WAL into the database file on its own thread, which the writers no longer do', async () => {
    const path = `${dir.path}/vigil.db`;
    const db = writeWithoutCheckpoints(path);
    // Everything written is still in the WAL only: the writer's commits did not checkpoint.
    expect(statSync(path).size).to.be.below(100_000);
    const checkpointer = WalCheckpointer.start(path, { intervalMs: 20 });
    try {
      await eventually(() => expect(statSync(path).size).to.be.above(4_000_000), 10_000);
    } finally {
      await checkpointer.stop();
      db.close();
    }
  });

  it('checkpoints once more when stopped', async () => {
    const path = `${dir.path}/vigil.db`;
    const db = writeWithoutCheckpoints(path);
    const checkpointer = WalCheckpointer.start(path, { intervalMs: 3_600_000 });
    await checkpointer.stop();
    expect(statSync(path).size).to.be.above(4_000_000);
    db.close();
  });
});

describe('WalCheckpointer beside a long reader', () => {
  let dir: ReturnType<typeof makeTempDir>;
  beforeEach(() => (dir = makeTempDir('vigil-wal-reader')));
  afterEach(() => dir.remove());

  it("keeps the writers waiting for a reader's old snapshot only briefly, not for SQLite's whole busy timeout (5 s)", async () => {
    const path = `${dir.path}/vigil.db`;
    const gate = new WriteGate();
    const db = openSqliteDatabase(path, { autocheckpoint: false });
    const events = new SqliteEventStore(db, { writeGate: gate });
    const reader = openSqliteDatabase(path);
    const big = 'x'.repeat(4000);
    const checkpointer = WalCheckpointer.start(path, { intervalMs: 20, writeGate: gate, restartAfterFrames: 100 });
    try {
      await events.appendToStream('before', [{ type: 'T', data: { big } }]);
      // Another process's long read (a verify, a backup) holds the snapshot it began with...
      reader.exec('BEGIN');
      reader.prepare('SELECT COUNT(*) FROM es_events').get();
      // ...while the WAL grows past the size at which the checkpointer restarts it.
      for (let i = 0; i < 200; i++) await events.appendToStream(`s-${i}`, [{ type: 'T', data: { big } }]);
      const waits: number[] = [];
      for (let i = 0; i < 20; i++) {
        const started = performance.now();
        await events.appendToStream('ping', [{ type: 'P', data: {} }]);
        waits.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(Math.max(...waits)).to.be.below(1000);
    } finally {
      reader.exec('COMMIT');
      reader.close();
      await checkpointer.stop();
      await events.close();
      db.close();
    }
  });
});

describe('WalCheckpointer past a size', () => {
  let dir: ReturnType<typeof makeTempDir>;
  beforeEach(() => (dir = makeTempDir('vigil-wal-restart')));
  afterEach(() => dir.remove());

  /** Frames in the WAL, as SQLite counts them. */
  const framesInWal = (db: ReturnType<typeof openSqliteDatabase>) => (db.pragma('wal_checkpoint(PASSIVE)') as { log: number }[])[0]!.log;

  /**
   * What another process's writers do to a checkpoint the gate cannot shield (a reader of an
   * older snapshot stands in for them, deterministically): its gated PASSIVE finds the WAL not
   * copied to its end. Past `restartAfterFrames`, a RESTART then waits for them and copies the
   * rest, and the next writer starts the WAL over; without it the WAL only grows. The
   * checkpointer runs only its last checkpoint, on stop; the reader lets go between its two gated steps.
   */
  async function walAfterOneCheckpoint(restartAfterFrames: number): Promise<{ frames: number; walGrew: boolean }> {
    const path = `${dir.path}/vigil.db`;
    const db = openSqliteDatabase(path, { autocheckpoint: false });
    db.exec('CREATE TABLE t (doc TEXT)');
    const insert = db.prepare('INSERT INTO t (doc) VALUES (?)');
    const write = (rows: number) => db.transaction(() => {
      for (let i = 0; i < rows; i++) insert.run('x'.repeat(4000));
    })();
    const gate = new WriteGate();
    const checkpointer = WalCheckpointer.start(path, { intervalMs: 3_600_000, writeGate: gate, restartAfterFrames });
    write(1000);
    const reader = startModuleWorker(new URL('../support/snapshot-reader.ts', import.meta.url).href, 'snapshot-reader', { path, gate: gate.buffer });
    try {
      await new Promise((resolve, reject) => {
        reader.once('message', resolve);
        reader.once('error', reject);
      });
      // Written after the reader's snapshot: no checkpoint may copy it while that reader lives.
      write(1000);
      const walBefore = statSync(`${path}-wal`).size;
      await checkpointer.stop();
      write(10);
      return { frames: framesInWal(db), walGrew: statSync(`${path}-wal`).size > walBefore };
    } finally {
      await reader.terminate();
      db.close();
    }
  }

  it('starts the WAL over with a RESTART when a gated checkpoint could not copy it to its end', async () => {
    const { frames, walGrew } = await walAfterOneCheckpoint(1000);
    // The next commit (10 rows: some 10 frames) was written from the WAL's beginning.
    expect(frames).to.be.below(100);
    expect(walGrew).to.equal(false);
  });

  it('leaves a WAL it could not copy to its end growing while it is under the size', async () => {
    const { frames, walGrew } = await walAfterOneCheckpoint(1_000_000_000);
    expect(frames).to.be.above(2000);
    expect(walGrew).to.equal(true);
  });
});
