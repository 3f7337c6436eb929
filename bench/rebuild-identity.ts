/**
 * Replays data dirs written by another version of Vigil and compares the rebuilt read models with
 * the ones that version's projectors wrote, document by document. A restructuring that must not
 * change the event log or the read models is checked like this:
 *
 *   git checkout <before>; VIGIL_TEST_KEEP_DATA=/tmp/corpus npx mocha <specs>   # keeps each spec's data dir
 *   git checkout <after>;  npm run bench:rebuild-identity -- /tmp/corpus
 *
 * Each kept dir is copied before it is rebuilt; the corpus stays as it was.
 */
import { cpSync, mkdtempSync, readdirSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { openSqliteDatabase, type SqliteDatabase } from '../src/eventstore/sqlite-database.js';
import { runCli } from '../src/main/cli.js';

type Rows = Record<string, unknown[]>;

function readModels(db: SqliteDatabase): Rows {
  const tables = db
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'rm\\_%' ESCAPE '\\' ORDER BY name")
    .all();
  return Object.fromEntries(tables.map(({ name }) => [name, db.prepare(`SELECT * FROM ${name} ORDER BY ${name === 'rm_checkpoints' ? 'name' : 'id'}`).all()]));
}

function eventCount(db: SqliteDatabase): number {
  return db.prepare<[], { n: number }>('SELECT count(*) AS n FROM es_events').get()?.n ?? 0;
}

const corpus = process.argv[2];
if (!corpus || !existsSync(corpus)) {
  console.error('usage: npm run bench:rebuild-identity -- <dir of kept data dirs>');
  process.exit(2);
}
let dirs = 0;
let events = 0;
let documents = 0;
const differing: string[] = [];
for (const name of readdirSync(corpus).sort()) {
  const source = join(corpus, name);
  if (!existsSync(join(source, 'vigil.db'))) continue;
  const scratch = mkdtempSync(join(tmpdir(), 'vigil-identity-'));
  try {
    cpSync(source, scratch, { recursive: true });
    const before = openSqliteDatabase(join(scratch, 'vigil.db'));
    const live = readModels(before);
    events += eventCount(before);
    before.close();
    const code = await runCli(['projections', 'rebuild'], { env: { VIGIL_DATA_DIR: scratch, VIGIL_LOG_LEVEL: 'silent' }, stdout: () => {}, stderr: new PassThrough() });
    if (code !== 0) {
      differing.push(`${name}: rebuild exited ${code}`);
      continue;
    }
    const after = openSqliteDatabase(join(scratch, 'vigil.db'));
    const rebuilt = readModels(after);
    after.close();
    dirs += 1;
    for (const table of new Set([...Object.keys(live), ...Object.keys(rebuilt)])) {
      const was = live[table] ?? [];
      const now = rebuilt[table] ?? [];
      documents += was.length;
      if (JSON.stringify(was) !== JSON.stringify(now)) differing.push(`${name} ${table}: ${was.length} documents before, ${now.length} after`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
console.log(JSON.stringify({ data_dirs: dirs, events, documents, differing: differing.length }));
for (const line of differing) console.log(`differs: ${line}`);
process.exit(differing.length === 0 ? 0 : 1);
