import { expect } from 'chai';
import { copyFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { openSqliteDatabase } from '../../src/eventstore/sqlite-database.js';
import { SqliteEventStore } from '../../src/eventstore/sqlite-event-store.js';
import { runCliCaptured } from '../support/cli-run.js';
import { spawnCli } from '../support/cli-process.js';
import { spawnServer } from '../support/server-process.js';
import { makeTempDir } from '../support/temp-dir.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Big enough that the copy takes a while (~0.5 s here): a kill can land in it, and pings go on beside it. */
const FILL_PINGS = 24;
const FILL_PAYLOAD_BYTES = 1_000_000;

type Server = Awaited<ReturnType<typeof spawnServer>>;

/** A server on a fresh data dir, with a monitor whose pings filled the store with ~24 MB. */
async function servedStore(dataDir: string) {
  const env = { VIGIL_DATA_DIR: dataDir, VIGIL_RATE_LIMIT_REQUESTS: '1000000', VIGIL_PING_PAYLOAD_LIMIT: String(FILL_PAYLOAD_BYTES) };
  const io = { VIGIL_DATA_DIR: dataDir };
  expect((await runCliCaptured(['users', 'create', '--email', 'backup@example.com'], io)).code).to.equal(0);
  const created = await runCliCaptured(['keys', 'create', '--email', 'backup@example.com', '--name', 'b', '--days', '1', '--scopes', 'manage_projects,manage_monitors,read'], io);
  const { key } = JSON.parse(created.stdout[0]!);
  const server = await spawnServer(env);
  const api = async (path: string, body: unknown) => {
    const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'X-API-Key': key, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    expect(response.status, path).to.equal(201);
    return (await response.json()) as any;
  };
  const projectId = (await api('/v1/projects', { name: 'Backed up' })).project.id;
  const monitorId = (await api('/v1/monitors', { project_id: projectId, name: 'Job', type: 'JOB_BASIC', schedule: 'x', retention_count: 1000 })).monitor.id;
  for (let i = 0; i < FILL_PINGS; i += 1) {
    const payload = `${i}:`.padEnd(FILL_PAYLOAD_BYTES, String.fromCharCode(97 + (i % 26)));
    const response = await fetch(`${server.url}/v1/ping/${monitorId}`, { method: 'POST', body: payload });
    expect(response.status).to.equal(200);
    await response.arrayBuffer();
  }
  // The pings sent while the backup runs go round these, so that none leaves its window (1,000
  // each) before the copy is checked, however many a slow machine acknowledges before it starts.
  const beats: string[] = [];
  for (let i = 0; i < 8; i += 1) {
    beats.push((await api('/v1/monitors', { project_id: projectId, name: `Beat ${i}`, type: 'JOB_BASIC', schedule: 'x', retention_count: 1000 })).monitor.id);
  }
  return { env, server, monitorId, beats };
}

async function stop(server: Server): Promise<void> {
  server.child.kill('SIGTERM');
  await server.exited;
}

function recordedPingIds(databaseFile: string): Promise<Set<unknown>> {
  const db = openSqliteDatabase(databaseFile);
  return new SqliteEventStore(db)
    .readAll()
    .then((events) => new Set(events.filter((e) => e.type === 'PingReceived').map((e) => e.data['ping_id'])))
    .finally(() => db.close());
}

describe('vigil backup beside a running server', function () {
  this.timeout(180_000);
  let dirs: ReturnType<typeof makeTempDir>[] = [];
  let servers: Server[] = [];
  const tempDir = (label: string) => {
    const dir = makeTempDir(label);
    dirs.push(dir);
    return dir.path;
  };
  afterEach(async () => {
    for (const server of servers) if (server.child.exitCode === null && server.child.signalCode === null) await stop(server);
    for (const dir of dirs) dir.remove();
    dirs = [];
    servers = [];
  });

  it('copies every ping acknowledged before it started while the server goes on acknowledging pings, and the copy restored verifies and serves', async () => {
    const dataDir = tempDir('vigil-backup-live');
    const { env, server, monitorId, beats } = await servedStore(dataDir);
    servers.push(server);

    const acknowledged: { id: string; at: number }[] = [];
    let pinging = true;
    let sent = 0;
    const pinger = async () => {
      while (pinging) {
        const response = await fetch(`${server.url}/v1/ping/${beats[sent++ % beats.length]}`);
        const at = Date.now();
        if (response.status === 200) acknowledged.push({ id: ((await response.json()) as { ping_id: string }).ping_id, at });
        else await response.arrayBuffer();
      }
    };
    const pingers = [pinger(), pinger(), pinger()];
    while (acknowledged.length < 60) await sleep(5);

    const target = join(tempDir('vigil-backups'), 'vigil-backup.db');
    const backup = await spawnCli(['backup', target], env).exited;
    const countAtEnd = acknowledged.length;
    while (acknowledged.length < countAtEnd + 30) await sleep(5);
    pinging = false;
    await Promise.all(pingers);

    expect(backup, backup.stderr).to.deep.include({ code: 0 });
    const printed = JSON.parse(backup.stdout);
    expect(printed).to.include({ backup: target, source: join(dataDir, 'vigil.db') });
    // Wall-clock times of this process and the backup's, on one machine.
    const takenAt = Date.parse(printed.taken_at);
    const before = acknowledged.filter((ping) => ping.at < takenAt).map((ping) => ping.id);
    const during = acknowledged.filter((ping) => ping.at > takenAt && ping.at < takenAt + printed.read_ms);
    // A copy that held the writers would let through only the few pings already committing as it began.
    expect(during.length, `pings acknowledged during the ${printed.read_ms} ms of the copy's read`).to.be.at.least(10);

    // The backup itself, left as it is: its log and read models agree with a replay.
    const checked = await runCliCaptured(['verify', '--file', target]);
    expect(checked.code, checked.stderr + checked.stdout.join('\n')).to.equal(0);
    expect(JSON.parse(checked.stdout[0]!).log.head_chain).to.equal(printed.head_chain);

    // Restored as docs/operations.md says: the file as vigil.db of a fresh data dir, with the secret key.
    const restoredDir = tempDir('vigil-restored');
    copyFileSync(target, join(restoredDir, 'vigil.db'));
    copyFileSync(join(dataDir, 'secret.key'), join(restoredDir, 'secret.key'));
    const recorded = await recordedPingIds(join(restoredDir, 'vigil.db'));
    const lost = before.filter((id) => !recorded.has(id));
    expect(lost, `${lost.length} of ${before.length} pings acknowledged before the backup are not in it`).to.deep.equal([]);
    expect(before.length).to.be.at.least(60);

    const restoredEnv = { ...env, VIGIL_DATA_DIR: restoredDir };
    const restored = await spawnServer(restoredEnv);
    servers.push(restored);
    const ping = await fetch(`${restored.url}/v1/ping/${monitorId}`);
    expect(ping.status).to.equal(200);
    await ping.arrayBuffer();
    await stop(restored);
    const verified = await runCliCaptured(['verify'], { VIGIL_DATA_DIR: restoredDir });
    expect(verified.code, verified.stdout.join('\n')).to.equal(0);
    expect(JSON.parse(verified.stdout[0]!)).to.include({ ok: true });
  });

  it('leaves no file under the target and the server\'s store whole when the backup is killed with SIGKILL mid-copy', async () => {
    const dataDir = tempDir('vigil-backup-kill');
    const { env, server, monitorId } = await servedStore(dataDir);
    servers.push(server);
    const backups = tempDir('vigil-backups');
    const target = join(backups, 'vigil-backup.db');

    const { child, exited } = spawnCli(['backup', target], env);
    const partial = `.vigil-backup.db.${child.pid}.partial`;
    while (child.exitCode === null && !readdirSync(backups).includes(partial)) await sleep(1);
    child.kill('SIGKILL');
    const killed = await exited;

    expect(killed.signal, 'killed before it finished').to.equal('SIGKILL');
    expect(existsSync(target)).to.equal(false);
    // The copy's own rollback journal may be there beside it.
    expect(readdirSync(backups), 'killed mid-copy').to.include(partial);
    expect(readdirSync(backups)).to.satisfy((names: string[]) => names.every((name) => name === partial || name === `${partial}-journal`));

    const ping = await fetch(`${server.url}/v1/ping/${monitorId}`);
    expect(ping.status).to.equal(200);
    await ping.arrayBuffer();
    await stop(server);
    const db = openSqliteDatabase(join(dataDir, 'vigil.db'));
    expect(db.pragma('integrity_check', { simple: true })).to.equal('ok');
    db.close();
    const verified = await runCliCaptured(['verify'], { VIGIL_DATA_DIR: dataDir });
    expect(verified.code, verified.stdout.join('\n')).to.equal(0);

    // The next backup to that name removes what the killed one left, and writes a whole copy.
    const again = await runCliCaptured(['backup', target], { VIGIL_DATA_DIR: dataDir });
    expect(again.code, again.stderr).to.equal(0);
    expect(readdirSync(backups)).to.deep.equal(['vigil-backup.db']);
    expect((await runCliCaptured(['verify', '--file', target])).code).to.equal(0);
  });
});
