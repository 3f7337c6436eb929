import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { childEnv, spawnServer, vigilCli } from '../support/server-process.js';
import { makeTempDir } from '../support/temp-dir.js';

describe('Bootstrap from the CLI against a running server', function () {
  this.timeout(60_000);
  const dir = makeTempDir('vigil-bootstrap');
  const env = { VIGIL_DATA_DIR: dir.path };
  let server: Awaited<ReturnType<typeof spawnServer>>;
  before(async () => (server = await spawnServer(env)));
  after(async () => {
    server.child.kill('SIGTERM');
    expect(await server.exited).to.equal(0);
    dir.remove();
  });

  it('answers 401 to GET /v1/projects without a key', async () => {
    const response = await fetch(`${server.url}/v1/projects`);
    expect(response.status).to.equal(401);
    expect(await response.json()).to.deep.equal({ error: 'missing X-API-Key header' });
  });

  it('users create → keys create → POST /v1/projects → GET /v1/projects lists it with its owner', async () => {
    const user = await vigilCli(['users', 'create', '--email', 'Ops@Example.com', '--first-name', 'Grace', '--last-name', 'Hopper'], env);
    expect(user).to.deep.include({ email: 'ops@example.com', first_name: 'Grace', last_name: 'Hopper' });
    expect(Object.keys(user)).to.deep.equal(['id', 'email', 'first_name', 'last_name']);

    const key = await vigilCli(['keys', 'create', '--email', 'ops@example.com', '--name', 'bootstrap', '--days', '30', '--scopes', 'read,manage_projects,manage_monitors'], env);
    expect(Object.keys(key)).to.deep.equal(['id', 'key', 'name', 'scopes', 'project_id', 'env', 'expires_at']);
    expect(key.key).to.match(/^vgl_live_[0-9A-Za-z]{26}$/);
    expect(key).to.deep.include({ name: 'bootstrap', scopes: ['read', 'manage_projects', 'manage_monitors'], project_id: null, env: 'live' });

    const headers = { 'X-API-Key': key.key, 'Content-Type': 'application/json' };
    // At once, as a newcomer pasting the README would: the server catches up with the CLI's key.
    const created = await fetch(`${server.url}/v1/projects`, { method: 'POST', headers, body: JSON.stringify({ name: 'Nightly' }) });
    expect(created.status).to.equal(201);
    const listed: any = await (await fetch(`${server.url}/v1/projects`, { headers })).json();
    expect(listed.projects).to.have.length(1);
    expect(listed.projects[0]._count.members).to.equal(1);
    expect(listed.projects[0].owner).to.deep.equal({ id: user.id, email: 'ops@example.com', first_name: 'Grace', last_name: 'Hopper' });

    // A read sees a ping acknowledged before it, though the Ping API answers before projecting
    // (and `npm start` projects on a thread of its own).
    for (const name of ['a', 'b', 'c', 'd', 'e']) {
      const monitor: any = await (await fetch(`${server.url}/v1/monitors`, {
        method: 'POST', headers, body: JSON.stringify({ project_id: listed.projects[0].id, name, type: 'JOB_HEARTBEAT', schedule: '1h' }),
      })).json();
      expect(monitor.monitor, JSON.stringify(monitor)).to.exist;
      expect((await fetch(`${server.url}/v1/ping/${monitor.monitor.id}/fail`)).status).to.equal(200);
      const incidents: any = await (await fetch(`${server.url}/v1/incidents?project_id=${listed.projects[0].id}&monitor_id=${monitor.monitor.id}`, { headers })).json();
      expect(incidents.data.map((i: any) => [i.event, i.status])).to.deep.equal([['FAILED', 'OPEN']]);
    }

    const projectKey = await vigilCli(['keys', 'create', '--email', 'ops@example.com', '--name', 'p', '--days', '1', '--project', listed.projects[0].id, '--env', 'test'], env);
    expect(projectKey.key).to.match(/^vgl_test_/);
    expect(projectKey).to.deep.include({ project_id: listed.projects[0].id, scopes: ['read', 'manage_monitors'], env: 'test' });
  });

  it('eval "$(npm run --silent vigil -- bootstrap --email …)" sets VIGIL_USER, VIGIL_API_KEY, VIGIL_PROJECT and VIGIL_PING_KEY for the running server', async () => {
    const script = 'eval "$(npm run --silent vigil -- bootstrap --email newcomer@example.com --project Backups)" && printf "%s\\n" "$VIGIL_USER" "$VIGIL_API_KEY" "$VIGIL_PROJECT" "$VIGIL_PING_KEY"';
    const { stdout, stderr } = await promisify(execFile)('sh', ['-c', script], { env: childEnv(env) });
    const [user, key, project, pingKey, ...rest] = stdout.split('\n');
    expect(rest).to.deep.equal(['']);
    expect(stderr).to.match(/^vigil: bootstrapped newcomer@example\.com with project "Backups" in .*vigil\.db \(VIGIL_DATA_DIR\)/);

    // At once, as the README has it: the server catches up with what the CLI wrote.
    const headers = { 'X-API-Key': key!, 'Content-Type': 'application/json' };
    const listed: any = await (await fetch(`${server.url}/v1/projects`, { headers })).json();
    expect(listed.projects.map((p: any) => [p.id, p.name, p.ping_key, p.owner.id])).to.deep.equal([[project, 'Backups', pingKey, user]]);
    const monitor = await fetch(`${server.url}/v1/monitors`, {
      method: 'POST', headers, body: JSON.stringify({ project_id: project, name: 'Nightly', slug: 'nightly', type: 'JOB_HEARTBEAT', schedule: '1d' }),
    });
    expect(monitor.status).to.equal(201);
    expect((await fetch(`${server.url}/v1/s-ping/${pingKey}/nightly/start`)).status).to.equal(200);
  });
});
