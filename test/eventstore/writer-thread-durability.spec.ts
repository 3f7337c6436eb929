import { expect } from 'chai';
import { openSqliteDatabase } from '../../src/eventstore/sqlite-database.js';
import { SqliteEventStore } from '../../src/eventstore/sqlite-event-store.js';
import { runCli } from '../../src/main/cli.js';
import { spawnServer } from '../support/server-process.js';
import { makeTempDir } from '../support/temp-dir.js';

describe('Pings with the log committed on a writer thread (VIGIL_SQLITE_WRITER=thread)', function () {
  this.timeout(90_000);
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0).reverse()) cleanup();
  });

  it('keeps every acknowledged ping when the server is killed with SIGKILL mid-load', async () => {
    const dir = makeTempDir('vigil-writer-thread');
    cleanups.push(dir.remove);
    const env = { VIGIL_DATA_DIR: dir.path, VIGIL_SQLITE_WRITER: 'thread' };
    const printed: string[] = [];
    const io = { env, stdout: (text: string) => printed.push(text), stderr: process.stderr };
    await runCli(['users', 'create', '--email', 'thread@example.com'], io);
    await runCli(['keys', 'create', '--email', 'thread@example.com', '--name', 'load', '--days', '1', '--scopes', 'manage_projects,manage_monitors'], io);
    const { key } = JSON.parse(printed[1]!);

    const server = await spawnServer(env);
    // A failed expectation must not leave the server running (it would hold the test run open).
    cleanups.push(() => server.child.kill('SIGKILL'));
    const post = async (path: string, body: unknown) =>
      (await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'X-API-Key': key, 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).json() as Promise<any>;
    const projectId = (await post('/v1/projects', { name: 'Thread' })).project.id;
    const monitorIds: string[] = [];
    for (let i = 0; i < 8; i++) {
      monitorIds.push((await post('/v1/monitors', { project_id: projectId, name: `m${i}`, type: 'JOB_HEARTBEAT', schedule: '1h', retention_count: 1000 })).monitor.id);
    }

    const acknowledged: string[] = [];
    let killed = false;
    const pinger = async (n: number) => {
      for (let i = 0; !killed; i++) {
        try {
          const response = await fetch(`${server.url}/v1/ping/${monitorIds[(n + i) % monitorIds.length]}`);
          if (response.status === 200) acknowledged.push(((await response.json()) as { ping_id: string }).ping_id);
        } catch {
          return; // the connection died with the server
        }
      }
    };
    const pingers = Array.from({ length: 16 }, (_, n) => pinger(n));
    for (const deadline = Date.now() + 30_000; acknowledged.length < 400; ) {
      if (Date.now() > deadline) throw new Error(`only ${acknowledged.length} pings acknowledged in 30 s`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    server.child.kill('SIGKILL');
    killed = true;
    await server.exited;
    await Promise.all(pingers);

    const db = openSqliteDatabase(`${dir.path}/vigil.db`);
    expect(db.pragma('integrity_check', { simple: true })).to.equal('ok');
    const recorded = new Set((await new SqliteEventStore(db).readAll()).filter((e) => e.type === 'PingReceived').map((e) => e.data['ping_id']));
    const lost = acknowledged.filter((id) => !recorded.has(id));
    expect(lost, `${lost.length} of ${acknowledged.length} acknowledged pings lost`).to.deep.equal([]);
    db.close();
  });
});
