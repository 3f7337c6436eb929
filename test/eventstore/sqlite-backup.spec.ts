import { expect } from 'chai';
import Database from 'better-sqlite3';
import { copyFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { openSqliteDatabase } from '../../src/eventstore/sqlite-database.js';
import { copySqliteDatabase } from '../../src/eventstore/sqlite-backup.js';
import { makeTempDir } from '../support/temp-dir.js';

describe('copySqliteDatabase', () => {
  let dir: ReturnType<typeof makeTempDir>;
  let source: string;
  let writer: Database.Database;
  beforeEach(() => {
    dir = makeTempDir('vigil-sqlite-backup');
    source = join(dir.path, 'vigil.db');
    writer = openSqliteDatabase(source, { autocheckpoint: false });
    writer.exec('CREATE TABLE rows (id INTEGER PRIMARY KEY, value TEXT NOT NULL)');
  });
  afterEach(() => {
    writer.close();
    dir.remove();
  });

  const count = (file: string) => {
    const db = new Database(file, { readonly: true });
    try {
      return db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM rows').get()!.n;
    } finally {
      db.close();
    }
  };

  it('holds the commits still in the WAL, which a copy of the file alone would miss', () => {
    const insert = writer.prepare('INSERT INTO rows (value) VALUES (?)');
    for (let i = 0; i < 100; i += 1) insert.run(`row ${i}`);
    writer.pragma('wal_checkpoint(TRUNCATE)');
    for (let i = 100; i < 150; i += 1) insert.run(`row ${i}`);
    const fileAlone = join(dir.path, 'file-alone.db');
    copyFileSync(source, fileAlone);
    expect(count(fileAlone)).to.equal(100);

    const target = join(dir.path, 'copy.db');
    copySqliteDatabase(source, target, { overwrite: false });
    expect(count(target)).to.equal(150);
    expect(existsSync(`${target}-wal`)).to.equal(false);
  });

  it('is taken beside a writer holding its write transaction open, and holds only what was committed', () => {
    writer.prepare('INSERT INTO rows (value) VALUES (?)').run('committed');
    writer.exec('BEGIN IMMEDIATE');
    writer.prepare('INSERT INTO rows (value) VALUES (?)').run('not yet');

    const started = Date.now();
    const copy = copySqliteDatabase(source, join(dir.path, 'copy.db'), { overwrite: false });
    expect(Date.now() - started, 'waited for the writer').to.be.below(4000);
    writer.exec('COMMIT');
    expect(count(copy.file)).to.equal(1);
    expect(readdirSync(dir.path).filter((name) => name.endsWith('.partial'))).to.deep.equal([]);
  });
});
