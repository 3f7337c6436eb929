import { expect } from 'chai';
import { statSync } from 'node:fs';
import { openSqliteDatabase } from '../../src/eventstore/sqlite-database.js';
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

describe('WalCheckpointer under writers that never stop', () => {
  let dir: ReturnType<typeof makeTempDir>;
  beforeEach(() => (dir = makeTempDir('vigil-wal-steady')));
  afterEach(() => dir.remove());

  it('lets the WAL start over, so it stays small however much is written', async () => {
    const path = `${dir.path}/vigil.db`;
    const gate = new WriteGate();
    const db = openSqliteDatabase(path, { autocheckpoint: false });
    db.exec('CREATE TABLE t (doc TEXT)');
    const insert = db.prepare('INSERT INTO t (doc) VALUES (?)');
    const commit = db.transaction(() => {
      for (let i = 0; i < 10; i++) insert.run('x'.repeat(4000));
    });
    const checkpointer = WalCheckpointer.start(path, { intervalMs: 10, writeGate: gate });
    try {
      // Once its thread is at work (it copied a first commit into the file): 32 MB in commits of 40 KB, back to back as a busy server's are: a checkpoint beside them
      // never finds the WAL copied to its end.
      gate.hold(() => commit());
      await eventually(() => expect(statSync(path).size).to.be.above(40_000), 10_000);
      let largestWal = 0;
      for (let n = 0; n < 800; n++) {
        gate.hold(() => commit());
        if (n % 8 === 0) await new Promise((resolve) => setImmediate(resolve));
        largestWal = Math.max(largestWal, statSync(`${path}-wal`).size);
      }
      expect(largestWal).to.be.below(12_000_000);
    } finally {
      await checkpointer.stop();
      db.close();
    }
  });
});
