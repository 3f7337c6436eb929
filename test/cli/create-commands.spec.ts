import { expect } from 'chai';
import { runCliCaptured } from '../support/cli-run.js';
import { TestClock, TestVigil } from '../support/test-vigil.js';

async function cli(args: string[], env: NodeJS.ProcessEnv) {
  const run = await runCliCaptured(args, env);
  return { ...run, stdout: run.stdout.join('\n') };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('The CLI’s create commands', () => {
  let vigil: TestVigil;
  // The CLI stamps what it writes with the wall clock, as it would beside a real server.
  before(async () => (vigil = await TestVigil.start({ clock: new TestClock(Date.now()) })));
  after(() => vigil.stop());

  /** What a key may see once the server has projected what the CLI wrote. */
  async function projectsSeenWith(key: string) {
    await vigil.settle();
    const answer = await vigil.request('GET', '/v1/projects', { key });
    expect(answer.status, answer.text).to.equal(200);
    return answer.body.projects as { id: string; name: string; ping_key: string; owner: Record<string, string>; _count: { members: number } }[];
  }

  describe('--print FIELD', () => {
    it('prints just the key, on one line, for keys create --print key; and the key works', async () => {
      expect((await cli(['users', 'create', '--email', 'print@example.com'], vigil.env)).code).to.equal(0);
      const run = await cli(['keys', 'create', '--email', 'print@example.com', '--name', 'k', '--days', '7', '--scopes', 'read', '--print', 'key'], vigil.env);
      expect(run.code).to.equal(0);
      expect(run.stderr).to.equal('');
      expect(run.stdout).to.match(/^vgl_live_[0-9A-Za-z]{26}$/);
      expect(await projectsSeenWith(run.stdout)).to.deep.equal([]);
    });

    it('prints a list as comma-separated words and a null as an empty line', async () => {
      expect((await cli(['users', 'create', '--email', 'list@example.com'], vigil.env)).code).to.equal(0);
      const base = ['keys', 'create', '--email', 'list@example.com', '--name', 'k', '--days', '7', '--scopes', 'read,manage_monitors'];
      expect((await cli([...base, '--print', 'scopes'], vigil.env)).stdout).to.equal('read,manage_monitors');
      expect((await cli([...base, '--print', 'project_id'], vigil.env)).stdout).to.equal('');
    });

    it('prints the user’s id alone for users create --print id', async () => {
      const run = await cli(['users', 'create', '--email', 'id@example.com', '--print', 'id'], vigil.env);
      expect(run.code).to.equal(0);
      expect(run.stdout).to.match(UUID);
    });

    it('refuses an unknown field as a usage error before creating anything', async () => {
      const user = await cli(['users', 'create', '--email', 'typo@example.com', '--print', 'uid'], vigil.env);
      expect(user.code).to.equal(2);
      expect(user.stderr).to.match(/^vigil: --print takes one of id, email, first_name, last_name, not uid\nusage:/);
      expect((await cli(['users', 'create', '--email', 'typo@example.com'], vigil.env)).code).to.equal(0);

      const key = await cli(['keys', 'create', '--email', 'typo@example.com', '--name', 'k', '--days', '7', '--scopes', 'read', '--print', 'api_key'], vigil.env);
      expect(key.code).to.equal(2);
      expect(key.stderr).to.match(/^vigil: --print takes one of id, key, name, scopes, project_id, env, expires_at, not api_key\n/);
      expect(key.stdout).to.equal('');
    });
  });

  describe('vigil bootstrap', () => {
    it('creates a user, a project it owns and a key with every scope, and prints them as shell lines', async () => {
      const run = await cli(['bootstrap', '--email', 'First@Example.com', '--first-name', 'Grace', '--last-name', 'Hopper', '--project', 'Nightly jobs'], vigil.env);
      expect(run.code, run.stderr).to.equal(0);
      const lines = run.stdout.split('\n');
      expect(lines.map((line) => line.split('=')[0])).to.deep.equal(['VIGIL_USER', 'VIGIL_API_KEY', 'VIGIL_PROJECT', 'VIGIL_PING_KEY']);
      const values = Object.fromEntries(lines.map((line) => [line.split('=')[0], line.slice(line.indexOf('=') + 1)]));
      expect(values['VIGIL_USER']).to.match(UUID);
      expect(values['VIGIL_API_KEY']).to.match(/^vgl_live_[0-9A-Za-z]{26}$/);
      expect(values['VIGIL_PROJECT']).to.match(UUID);
      expect(values['VIGIL_PING_KEY']).to.match(/^[0-9A-Za-z]{22}$/);
      expect(run.stderr).to.equal(
        `vigil: bootstrapped first@example.com with project "Nightly jobs" in ${vigil.dataDir}/vigil.db (VIGIL_DATA_DIR); the server must use the same store. The API key is shown only this once.\n`,
      );

      const key = values['VIGIL_API_KEY']!;
      const [project, ...others] = await projectsSeenWith(key);
      expect(others).to.deep.equal([]);
      expect(project).to.deep.include({ id: values['VIGIL_PROJECT'], name: 'Nightly jobs', ping_key: values['VIGIL_PING_KEY'] });
      expect(project!.owner).to.deep.equal({ id: values['VIGIL_USER'], email: 'first@example.com', first_name: 'Grace', last_name: 'Hopper' });

      // Every scope: it manages monitors and notifications in its project, and may delete it.
      const monitor = await vigil.request('POST', '/v1/monitors', { key, body: { project_id: project!.id, name: 'Backup', slug: 'backup', type: 'JOB_HEARTBEAT', schedule: '1h' } });
      expect(monitor.status, monitor.text).to.equal(201);
      expect((await vigil.request('GET', `/v1/s-ping/${values['VIGIL_PING_KEY']}/backup`)).status).to.equal(200);
      const channel = await vigil.request('POST', '/v1/notification-channels', { key, body: { project_id: project!.id, name: 'Hook', type: 'WEBHOOK', config: { url: 'http://127.0.0.1:9/hook' } } });
      expect(channel.status, channel.text).to.equal(201);
      expect((await vigil.request('DELETE', `/v1/projects/${project!.id}`, { key })).status).to.equal(204);
    });

    it('prints one JSON object with --json, the key lasting --days (90 unless given)', async () => {
      const before = Date.now();
      const run = await cli(['bootstrap', '--email', 'json@example.com', '--json'], vigil.env);
      expect(run.code, run.stderr).to.equal(0);
      const answer = JSON.parse(run.stdout);
      expect(Object.keys(answer)).to.deep.equal(['user', 'key', 'project']);
      expect(answer.user).to.deep.include({ email: 'json@example.com', first_name: '', last_name: '' });
      expect(answer.key).to.deep.include({ name: 'bootstrap', scopes: ['read', 'manage_monitors', 'manage_projects', 'manage_notifications', 'destroy'], project_id: null, env: 'live' });
      expect(answer.project).to.deep.include({ name: 'My project' });
      const lifetimeDays = (Date.parse(answer.key.expires_at) - before) / 86_400_000;
      expect(lifetimeDays).to.be.within(89.99, 90.01);
      expect((await projectsSeenWith(answer.key.key)).map((p) => p.id)).to.deep.equal([answer.project.id]);

      const short = JSON.parse((await cli(['bootstrap', '--email', 'short@example.com', '--json', '--days', '1'], vigil.env)).stdout);
      expect((Date.parse(short.key.expires_at) - before) / 86_400_000).to.be.within(0.99, 1.01);
    });

    it('refuses, changing nothing, for an email that already has a user, and says how to get another key', async () => {
      const first = await cli(['bootstrap', '--email', 'again@example.com', '--json'], vigil.env);
      const key = JSON.parse(first.stdout).key.key as string;
      const again = await cli(['bootstrap', '--email', 'Again@example.com', '--project', 'Second'], vigil.env);
      expect(again.code).to.equal(1);
      expect(again.stdout).to.equal('');
      expect(again.stderr).to.equal(
        `vigil: a user with email again@example.com already exists in ${vigil.dataDir}/vigil.db (VIGIL_DATA_DIR); bootstrap changed nothing.\n` +
          'vigil: bootstrap sets up a new user only; for another key of again@example.com, run: vigil keys create --email again@example.com --name NAME --days 90 --scopes read,manage_monitors,manage_projects,manage_notifications,destroy\n',
      );
      expect((await projectsSeenWith(key)).map((p) => p.name)).to.deep.equal(['My project']);
    });

    it('exits 2 with the usage for a missing or bad email, a bad --days or an empty --project', async () => {
      for (const [args, message] of [
        [[], /--email is required/],
        [['--email', 'nope'], /--email must be an email address, not nope/],
        [['--email', 'd@example.com', '--days', '366'], /--days must be a whole number from 1 to 365, not 366/],
        [['--email', 'd@example.com', '--project', ' '], /--project must be a name of 1 to 100 characters/],
      ] as const) {
        const run = await cli(['bootstrap', ...args], vigil.env);
        expect(run.code, args.join(' ')).to.equal(2);
        expect(run.stderr, args.join(' ')).to.match(message);
        expect(run.stderr).to.include('usage:\n  vigil bootstrap');
      }
      expect((await cli(['bootstrap', '--email', 'd@example.com', '--json'], vigil.env)).code).to.equal(0);
    });
  });
});
