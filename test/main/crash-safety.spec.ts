import { expect } from 'chai';
import { openSqliteDatabase } from '../../src/eventstore/sqlite-database.js';
import { SqliteEventStore } from '../../src/eventstore/sqlite-event-store.js';
import { runCli } from '../../src/main/cli.js';
import { spawnServer } from '../support/server-process.js';
import { makeTempDir } from '../support/temp-dir.js';
import { TestVigil } from '../support/test-vigil.js';

describe('Crash safety', function () {
  this.timeout(90_000);

  it('loses no acknowledged event when the server is killed with SIGKILL during concurrent appends', async () => {
    const dir = makeTempDir('vigil-crash');
    const env = { VIGIL_DATA_DIR: dir.path, VIGIL_RATE_LIMIT_REQUESTS: '1000000' };
    const printed: string[] = [];
    const io = { env, stdout: (text: string) => printed.push(text), stderr: process.stderr };
    await runCli(['users', 'create', '--email', 'crash@example.com'], io);
    await runCli(['keys', 'create', '--email', 'crash@example.com', '--name', 'load', '--days', '1', '--scopes', 'manage_projects'], io);
    const { key } = JSON.parse(printed[1]!);

    const server = await spawnServer(env);
    const acknowledged: string[] = [];
    let killed = false;
    const worker = async (w: number) => {
      for (let i = 0; !killed; i++) {
        try {
          const response = await fetch(`${server.url}/v1/projects`, {
            method: 'POST',
            headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
            body: JSON.stringify({ name: `load ${w}-${i}` }),
          });
          if (response.status === 201) acknowledged.push(((await response.json()) as any).project.id);
        } catch {
          return; // the connection died with the server
        }
      }
    };
    const workers = Array.from({ length: 16 }, (_, w) => worker(w));
    while (acknowledged.length < 300) await new Promise((resolve) => setTimeout(resolve, 5));
    server.child.kill('SIGKILL');
    killed = true;
    await server.exited;
    await Promise.all(workers);

    const db = openSqliteDatabase(`${dir.path}/vigil.db`);
    expect(db.pragma('integrity_check', { simple: true })).to.equal('ok');
    const events = await new SqliteEventStore(db).readAll();
    const recorded = new Set(events.filter((e) => e.type === 'ProjectCreated').map((e) => e.data['project_id']));
    const lost = acknowledged.filter((id) => !recorded.has(id));
    expect(lost, `${lost.length} of ${acknowledged.length} acknowledged projects lost`).to.deep.equal([]);
    db.close();

    // Restarted, the projector catches up and serves every acknowledged project.
    const restarted = await TestVigil.reopen(dir.path, env);
    const listed = await restarted.request('GET', '/v1/projects', { key });
    const listedIds = new Set(listed.body.projects.map((p: { id: string }) => p.id));
    expect(acknowledged.filter((id) => !listedIds.has(id))).to.deep.equal([]);
    await restarted.stop();
  });
});
