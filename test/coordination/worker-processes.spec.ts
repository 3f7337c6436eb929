import { expect } from 'chai';
import { type ChildProcess, spawn } from 'node:child_process';
import { openSqliteDatabase } from '../../src/eventstore/sqlite-database.js';
import { SqliteEventStore } from '../../src/eventstore/sqlite-event-store.js';
import { runCli } from '../../src/main/cli.js';
import { eventually } from '../support/eventually.js';
import { reply, startTarget } from '../support/http-targets.js';
import { childEnv, spawnServer } from '../support/server-process.js';
import { makeTempDir } from '../support/temp-dir.js';

const PARTITIONS = 16;

/** `VIGIL_ROLES=timer,checker,notifier npm start`: a worker process with no API. */
function spawnWorker(env: NodeJS.ProcessEnv): { child: ChildProcess; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import=tsx', 'src/main/server.ts'], {
    env: childEnv({ ...env, VIGIL_ROLES: 'timer,checker,notifier', VIGIL_LOG_LEVEL: 'warn' }),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return { child, exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))) };
}

describe('Notifier processes sharing one data dir', function () {
  this.timeout(60_000);

  it('split the pages between them, deliver each once, and the survivor takes over a SIGKILLed one after the lease ttl', async () => {
    const dir = makeTempDir('vigil-workers');
    const sink = await startTarget(reply(200, 'ok'));
    const env = { VIGIL_DATA_DIR: dir.path, VIGIL_PRIVATE_TARGETS: 'allow', VIGIL_LEASE_TTL_MS: '1000', VIGIL_PARTITIONS: String(PARTITIONS), VIGIL_NOTIFY_POLL_MS: '20' };
    const printed: string[] = [];
    const io = { env, stdout: (text: string) => printed.push(text), stderr: process.stderr };
    await runCli(['users', 'create', '--email', 'workers@example.com'], io);
    await runCli(['keys', 'create', '--email', 'workers@example.com', '--name', 'w', '--days', '1', '--scopes', 'manage_projects,manage_monitors,manage_notifications,read'], io);
    const { key } = JSON.parse(printed[1]!);
    const api = await spawnServer({ ...env, VIGIL_ROLES: 'api,projector' });
    const workers = [spawnWorker(env), spawnWorker(env)];
    const db = openSqliteDatabase(`${dir.path}/vigil.db`);
    const events = new SqliteEventStore(db);
    const notifierPartitionsOf = (child: ChildProcess) =>
      db
        .prepare<[string, number], { n: number }>("SELECT COUNT(*) AS n FROM coordination_leases WHERE name LIKE 'notifier/%/partition/%' AND holder LIKE ? AND expires_at > ?")
        .get(`%:${child.pid}:%`, Date.now())!.n;
    try {
      const post = async (path: string, body: unknown) => {
        const response = await fetch(`${api.url}${path}`, { method: 'POST', headers: { 'X-API-Key': key, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
        expect(response.status, path).to.equal(201);
        return (await response.json()) as any;
      };
      const projectId = (await post('/v1/projects', { name: 'Workers' })).project.id;
      const hook = (await post('/v1/notification-channels', { project_id: projectId, name: 'sink', type: 'WEBHOOK', config: { url: `${sink.url}/hook` } })).channel.id;
      const monitors: string[] = [];
      for (let i = 0; i < 24; i += 1) {
        monitors.push((await post('/v1/monitors', { project_id: projectId, name: `Job ${i}`, type: 'JOB_BASIC', schedule: 'x', notification_channel_ids: [hook] })).monitor.id);
      }
      await eventually(() => expect(workers.map((w) => notifierPartitionsOf(w.child))).to.deep.equal([PARTITIONS / 2, PARTITIONS / 2]), 20_000, 50);

      const pages = async () => (await events.readAll()).filter((e) => e.type === 'PageScheduled').map((e) => `${e.data['page_id']}|${hook}`);
      const deliveredOnce = async (count: number) => {
        const scheduled = await pages();
        expect(scheduled).to.have.length(count);
        expect(sink.seen.map((r) => r.headers['webhook-id']).sort()).to.deep.equal(scheduled.sort());
      };
      for (const id of monitors) await fetch(`${api.url}/v1/ping/${id}/fail`);
      await eventually(() => deliveredOnce(monitors.length), 20_000, 50);

      workers[0]!.child.kill('SIGKILL');
      await workers[0]!.exited;
      for (const id of monitors) await fetch(`${api.url}/v1/ping/${id}`);
      await eventually(() => deliveredOnce(2 * monitors.length), 20_000, 50);
      expect(notifierPartitionsOf(workers[1]!.child)).to.equal(PARTITIONS);
    } finally {
      for (const process of [api, ...workers]) process.child.kill('SIGTERM');
      await Promise.all([api.exited, ...workers.map((w) => w.exited)]);
      db.close();
      await sink.close();
      dir.remove();
    }
  });
});
