import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCliCaptured } from '../support/cli-run.js';
import { makeTempDir } from '../support/temp-dir.js';

const digest = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('vigil backup', () => {
  let dir: ReturnType<typeof makeTempDir>;
  let env: NodeJS.ProcessEnv;
  let target: string;
  beforeEach(async () => {
    dir = makeTempDir('vigil-backup-cli');
    env = { VIGIL_DATA_DIR: join(dir.path, 'data') };
    target = join(dir.path, 'vigil-backup.db');
    expect((await runCliCaptured(['bootstrap', '--email', 'ops@example.com'], env)).code).to.equal(0);
  });
  afterEach(() => dir.remove());

  it('writes a copy that vigil verify --file passes, and prints where, when it was taken and the head of its log', async () => {
    const run = await runCliCaptured(['backup', target], env, () => new Date('2026-11-28T03:00:00.000Z'));
    expect(run.code, run.stderr).to.equal(0);
    const printed = JSON.parse(run.stdout[0]!);
    expect(printed).to.include({ backup: target, source: join(dir.path, 'data', 'vigil.db'), taken_at: '2026-11-28T03:00:00.000Z', position: 6 });
    expect(printed.read_ms).to.be.a('number');
    expect(printed.bytes).to.equal(readFileSync(target).length);
    const verified = await runCliCaptured(['verify', '--file', target]);
    expect(verified.code, verified.stdout.join('\n')).to.equal(0);
    expect(JSON.parse(verified.stdout[0]!).log).to.include({ ok: true, events_checked: 6, head_chain: printed.head_chain });
  });

  it('gives the copy the live file\'s permissions', async () => {
    chmodSync(join(dir.path, 'data', 'vigil.db'), 0o600);
    expect((await runCliCaptured(['backup', target], env)).code).to.equal(0);
    expect(statSync(target).mode & 0o777).to.equal(0o600);
  });

  it('refuses to overwrite an existing file without --force, leaving it as it was', async () => {
    writeFileSync(target, 'last week\'s backup');
    const run = await runCliCaptured(['backup', target], env);
    expect(run).to.deep.equal({ code: 1, stdout: [], stderr: `vigil: ${target} already exists; nothing was written. Give another name, or --force to replace it\n` });
    expect(readFileSync(target, 'utf8')).to.equal('last week\'s backup');
    expect(readdirSync(dir.path).sort()).to.deep.equal(['data', 'vigil-backup.db']);
  });

  it('replaces an existing file with --force', async () => {
    writeFileSync(target, 'last week\'s backup');
    expect((await runCliCaptured(['backup', target, '--force'], env)).code).to.equal(0);
    expect((await runCliCaptured(['verify', '--file', target])).code).to.equal(0);
    expect(readdirSync(dir.path).sort()).to.deep.equal(['data', 'vigil-backup.db']);
  });

  it('refuses to write over the database it copies, even with --force', async () => {
    const live = join(dir.path, 'data', 'vigil.db');
    const before = digest(live);
    const run = await runCliCaptured(['backup', live, '--force'], env);
    expect(run).to.deep.include({ code: 1, stderr: `vigil: ${live} is the database being backed up; give another file\n` });
    expect(digest(live)).to.equal(before);
  });

  it('removes the temporary file a killed backup to the same name left behind', async () => {
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    const abandoned = join(dir.path, `.vigil-backup.db.${gone}.partial`);
    writeFileSync(abandoned, 'half a copy');
    writeFileSync(`${abandoned}-journal`, 'its journal');
    expect((await runCliCaptured(['backup', target], env)).code).to.equal(0);
    expect(readdirSync(dir.path).sort()).to.deep.equal(['data', 'vigil-backup.db']);
  });

  it('leaves alone the temporary file of a backup to the same name that is still running', async () => {
    const running = join(dir.path, `.vigil-backup.db.${process.ppid}.partial`);
    writeFileSync(running, 'a copy under way');
    expect((await runCliCaptured(['backup', target], env)).code).to.equal(0);
    expect(readFileSync(running, 'utf8')).to.equal('a copy under way');
  });

  it('leaves the backup that verify --file checks as it was written', async () => {
    expect((await runCliCaptured(['backup', target], env)).code).to.equal(0);
    const before = digest(target);
    const verified = await runCliCaptured(['verify', '--file', target]);
    expect(verified.code).to.equal(0);
    expect(verified.stderr).to.equal(`vigil: verifying a copy of ${target}, which is left as it is\n`);
    expect(digest(target)).to.equal(before);
    expect(readdirSync(dir.path).sort()).to.deep.equal(['data', 'vigil-backup.db']);
  });

  it('says that a file verify --file cannot read is no Vigil database', async () => {
    writeFileSync(target, 'not a database at all, but long enough to have a header'.repeat(20));
    const run = await runCliCaptured(['verify', '--file', target]);
    expect(run).to.deep.include({ code: 1, stderr: `vigil: could not read ${target} as a Vigil database: file is not a database\n` });
  });

  it('refuses a data dir without a database, creating nothing', async () => {
    const empty = { VIGIL_DATA_DIR: join(dir.path, 'elsewhere') };
    const run = await runCliCaptured(['backup', target], empty);
    expect(run.code).to.equal(1);
    expect(run.stderr).to.match(/^vigil: no database at .*elsewhere\/vigil\.db \(VIGIL_DATA_DIR\); nothing was written\./);
    expect(existsSync(target)).to.equal(false);
    expect(existsSync(join(dir.path, 'elsewhere'))).to.equal(false);
  });

  it('says that with EventStoreDB backups are made with its own tools, and where the docs say how', async () => {
    const run = await runCliCaptured(['backup', target], { ...env, VIGIL_EVENTSTORE_URL: 'esdb://127.0.0.1:1?tls=false', VIGIL_MONGODB_URL: 'mongodb://127.0.0.1:1' });
    expect(run.code).to.equal(1);
    expect(run.stdout).to.deep.equal([]);
    expect(run.stderr).to.include('back EventStoreDB up with its own tools');
    expect(run.stderr).to.include('See docs/operations.md#backups');
    expect(existsSync(target)).to.equal(false);
  });

  it('asks for one FILE', async () => {
    const none = await runCliCaptured(['backup'], env);
    expect(none.code).to.equal(2);
    expect(none.stderr).to.match(/^vigil: backup needs the FILE to write the copy to\nusage:\n {2}vigil backup FILE \[--force\]/);
    expect((await runCliCaptured(['backup', target, 'another.db'], env)).code).to.equal(2);
  });
});
