import { expect } from 'chai';
import { runCli } from '../../src/main/cli.js';
import { eventually } from '../support/eventually.js';
import { spawnServer } from '../support/server-process.js';
import { makeTempDir } from '../support/temp-dir.js';

describe('npm start with the projector on a thread of its own (VIGIL_PROJECTOR_THREAD, the default)', function () {
  this.timeout(60_000);
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0).reverse()) cleanup();
  });

  it('answers writes once they are readable, serves the incidents the thread counts on /metrics, and stops cleanly on SIGTERM', async () => {
    const dir = makeTempDir('vigil-projector-thread');
    cleanups.push(dir.remove);
    const env = { VIGIL_DATA_DIR: dir.path };
    const printed: string[] = [];
    const io = { env, stdout: (text: string) => printed.push(text), stderr: process.stderr };
    await runCli(['users', 'create', '--email', 'thread@example.com'], io);
    await runCli(['keys', 'create', '--email', 'thread@example.com', '--name', 'k', '--days', '1', '--scopes', 'read,manage_projects,manage_monitors'], io);
    const { key } = JSON.parse(printed[1]!);
    const server = await spawnServer(env);
    cleanups.push(() => server.child.kill('SIGKILL'));
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: { 'X-API-Key': key, ...(body ? { 'Content-Type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: response.status, body: (await response.json()) as any };
    };

    // Read-your-writes: the answer to a write waits until the projector thread has it in the read models.
    const created = await call('POST', '/v1/projects', { name: 'Threaded' });
    expect(created.status).to.equal(201);
    const monitor = await call('POST', '/v1/monitors', { project_id: created.body.project.id, name: 'Job', type: 'JOB_HEARTBEAT', schedule: '1h' });
    expect(monitor.status).to.equal(201);
    expect((await call('GET', `/v1/monitors/${monitor.body.monitor.id}`)).body.monitor).to.include({ name: 'Job', status: 'UP' });

    expect((await fetch(`${server.url}/v1/ping/${monitor.body.monitor.id}/fail`)).status).to.equal(200);
    await eventually(async () => {
      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      expect(metrics).to.match(/^vigil_incidents_opened_total\{kind="FAILED"\} 1$/m);
    }, 10_000);

    server.child.kill('SIGTERM');
    expect(await server.exited).to.equal(0);
  });
});
