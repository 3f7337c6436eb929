import { expect } from 'chai';
import { runCliCaptured } from '../support/cli-run.js';
import { existsSync, mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describeStore, withoutCredentials } from '../../src/cli/store-description.js';
import { loadConfig } from '../../src/main/config.js';
import { makeTempDir } from '../support/temp-dir.js';

const cli = (args: string[], env: NodeJS.ProcessEnv) => runCliCaptured(args, env);

describe('The CLI and the store it opens', () => {
  let dir: ReturnType<typeof makeTempDir>;
  let env: NodeJS.ProcessEnv;
  let database: string;
  beforeEach(async () => {
    dir = makeTempDir('vigil-cli-store');
    env = { VIGIL_DATA_DIR: join(dir.path, 'data') };
    database = join(dir.path, 'data', 'vigil.db');
  });
  afterEach(() => dir.remove());

  describe('a refusal that depends on what is stored', () => {
    beforeEach(async () => {
      expect((await cli(['users', 'create', '--email', 'ops@example.com'], env)).code).to.equal(0);
    });

    it('names the absolute database file and VIGIL_DATA_DIR for an email no user has', async () => {
      const run = await cli(['keys', 'create', '--email', 'nobody@example.com', '--name', 'k', '--days', '1', '--scopes', 'read'], env);
      expect(run).to.deep.equal({ code: 1, stdout: [], stderr: `vigil: no user has the email nobody@example.com in ${database} (VIGIL_DATA_DIR)\n` });
    });

    it('names it absolute when VIGIL_DATA_DIR is relative', async () => {
      const run = await cli(['keys', 'create', '--email', 'nobody@example.com', '--name', 'k', '--days', '1', '--scopes', 'read'], { VIGIL_DATA_DIR: relative(process.cwd(), env['VIGIL_DATA_DIR']!) });
      expect(run.stderr).to.equal(`vigil: no user has the email nobody@example.com in ${database} (VIGIL_DATA_DIR)\n`);
    });

    it('names it for an email already registered, and for a project that is not there', async () => {
      const again = await cli(['users', 'create', '--email', 'ops@example.com'], env);
      expect(again).to.deep.include({ code: 1, stderr: `vigil: a user with email ops@example.com already exists in ${database} (VIGIL_DATA_DIR)\n` });
      const project = '6f0b0a57-1d7c-4b36-9f1a-2a6a1b0f9a00';
      const scoped = await cli(['keys', 'create', '--email', 'ops@example.com', '--name', 'k', '--days', '1', '--project', project], env);
      expect(scoped).to.deep.include({ code: 1, stderr: `vigil: no project has the id ${project} in ${database} (VIGIL_DATA_DIR)\n` });
    });

    it('says that VIGIL_DATA_DIR is not set when the default ./data was used', async () => {
      const cwd = process.cwd();
      process.chdir(dir.path);
      try {
        const run = await cli(['keys', 'create', '--email', 'nobody@example.com', '--name', 'k', '--days', '1', '--scopes', 'read'], {});
        expect(run.stderr).to.equal(`vigil: no user has the email nobody@example.com in ${database} (VIGIL_DATA_DIR is not set, so ./data)\n`);
      } finally {
        process.chdir(cwd);
      }
    });
  });

  describe('a data dir without a database', () => {
    const readers: [string, string[]][] = [
      ['keys create', ['keys', 'create', '--email', 'ops@example.com', '--name', 'k', '--days', '1', '--scopes', 'read']],
      ['verify', ['verify']],
      ['projections rebuild', ['projections', 'rebuild']],
      ['events export', ['events', 'export', '--project', '6f0b0a57-1d7c-4b36-9f1a-2a6a1b0f9a00']],
    ];
    for (const [name, args] of readers) {
      it(`is refused by ${name}, naming the file and creating nothing`, async () => {
        mkdirSync(env['VIGIL_DATA_DIR']!);
        const run = await cli(args, env);
        expect(run.code).to.equal(1);
        expect(run.stdout).to.deep.equal([]);
        expect(run.stderr).to.equal(
          `vigil: no database at ${database} (VIGIL_DATA_DIR); nothing was created.\n` +
            'vigil: set VIGIL_DATA_DIR to the data dir of your Vigil server, or start a new one with: vigil bootstrap --email you@example.com\n',
        );
        expect(existsSync(database)).to.equal(false);
      });
    }

    it('is where users create and bootstrap start a new one', async () => {
      expect((await cli(['users', 'create', '--email', 'first@example.com'], env)).code).to.equal(0);
      expect((await cli(['bootstrap', '--email', 'second@example.com'], { VIGIL_DATA_DIR: join(dir.path, 'other') })).code).to.equal(0);
      expect(existsSync(database)).to.equal(true);
      expect(existsSync(join(dir.path, 'other', 'vigil.db'))).to.equal(true);
    });
  });

  it('refuses --days out of range as a usage error, before opening any store', async () => {
    const run = await cli(['keys', 'create', '--email', 'ops@example.com', '--name', 'k', '--days', '400', '--scopes', 'read'], env);
    expect(run.code).to.equal(2);
    expect(run.stderr).to.match(/^vigil: --days must be a whole number from 1 to 365, not 400\nusage:/);
    expect(existsSync(env['VIGIL_DATA_DIR']!)).to.equal(false);
  });

  describe('in production mode', () => {
    it('names the EventStoreDB and MongoDB servers, without their user, password or options', () => {
      const production = {
        VIGIL_EVENTSTORE_URL: 'esdb://admin:changeit@esdb.internal:2113?tls=false',
        VIGIL_MONGODB_URL: 'mongodb://vigil:s3cret@mongo-a:27017,mongo-b:27017/vigil?replicaSet=rs0&tlsCertificateKeyFilePassword=pw',
      };
      const name = describeStore(loadConfig(production), production, '/unused/vigil.db');
      expect(name).to.equal('EventStoreDB esdb://esdb.internal:2113 (VIGIL_EVENTSTORE_URL) and MongoDB mongodb://mongo-a:27017,mongo-b:27017/vigil (VIGIL_MONGODB_URL)');
      expect(name).not.to.match(/changeit|s3cret|pw|admin/);
    });

    it('names the embedded file beside a server where only one side is one', () => {
      const esdbOnly = { VIGIL_EVENTSTORE_URL: 'esdb://localhost:2113', VIGIL_DATA_DIR: '/srv/vigil' };
      expect(describeStore(loadConfig(esdbOnly), esdbOnly, '/srv/vigil/vigil.db')).to.equal(
        'EventStoreDB esdb://localhost:2113 (VIGIL_EVENTSTORE_URL) with read models in /srv/vigil/vigil.db (VIGIL_DATA_DIR)',
      );
      expect(withoutCredentials('mongodb+srv://u:p@cluster0.example.net/')).to.equal('mongodb+srv://cluster0.example.net/');
    });

    it('names the servers when they cannot be reached', async function () {
      this.timeout(60_000);
      const unreachable = { VIGIL_EVENTSTORE_URL: 'esdb://admin:changeit@127.0.0.1:1?tls=false', VIGIL_MONGODB_URL: 'mongodb://u:p@127.0.0.1:1/vigil?serverSelectionTimeoutMS=200' };
      const run = await cli(['keys', 'create', '--email', 'ops@example.com', '--name', 'k', '--days', '1', '--scopes', 'read'], unreachable);
      expect(run.code).to.equal(1);
      expect(run.stderr).to.match(/^vigil: could not open EventStoreDB esdb:\/\/127\.0\.0\.1:1 \(VIGIL_EVENTSTORE_URL\) and MongoDB mongodb:\/\/127\.0\.0\.1:1\/vigil \(VIGIL_MONGODB_URL\): /);
      expect(run.stderr).not.to.match(/changeit|u:p/);
    });
  });
});
