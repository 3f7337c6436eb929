import { expect } from 'chai';
import { PassThrough } from 'node:stream';
import { openSqliteDatabase } from '../../src/eventstore/sqlite-database.js';
import { SqliteEventStore } from '../../src/eventstore/sqlite-event-store.js';
import type { RecordedEvent } from '../../src/eventstore/event-store.js';
import { runCli } from '../../src/main/cli.js';
import { dumpReadModels } from '../support/embedded-stores.js';
import { eventually } from '../support/eventually.js';
import { reply, startTarget } from '../support/http-targets.js';
import { spawnServer } from '../support/server-process.js';
import { makeTempDir } from '../support/temp-dir.js';
import { TestClock, TestVigil } from '../support/test-vigil.js';

/** mulberry32: the kill moments and the ping mix repeat from run to run. */
function seededRandom(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What a monitor's log says after its pings: a recorded FAILURE leaves a FAILED incident open and a
 * recorded SUCCESS leaves none, and no incident is opened while another is open or resolved twice.
 * This holds for every recorded ping, answered or not: the embedded store appends a ping and the
 * transition it causes as one, so no kill can land between them.
 */
function incidentProblems(events: RecordedEvent[]): string[] {
  const problems: string[] = [];
  let open: unknown = null;
  let last: RecordedEvent | null = null;
  const check = () => {
    if (!last) return;
    if (last.data['event'] === 'FAILURE' && open === null) problems.push(`no incident open after recorded failure at ${last.position}`);
    if (last.data['event'] === 'SUCCESS' && open !== null) problems.push(`incident still open after recorded success at ${last.position}`);
  };
  for (const event of events) {
    if (event.type === 'PingReceived') {
      check();
      last = event;
    } else if (event.type === 'IncidentOpened') {
      if (open !== null) problems.push(`second incident opened at ${event.position} while ${open} is open`);
      open = event.data['incident_id'];
    } else if (event.type === 'IncidentResolved') {
      if (event.data['incident_id'] !== open) problems.push(`resolved ${event.data['incident_id']} at ${event.position}, not the open one`);
      open = null;
    }
  }
  check();
  return problems;
}

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
    const restarted = await TestVigil.reopen(dir.path, env, TestClock.atWallTime());
    const listed = await restarted.request('GET', '/v1/projects', { key });
    const listedIds = new Set(listed.body.projects.map((p: { id: string }) => p.id));
    expect(acknowledged.filter((id) => !listedIds.has(id))).to.deep.equal([]);
    await restarted.stop();
  });

  it('keeps every acknowledged ping, opens each incident once and loses no page when killed with SIGKILL under a ping load, again and again', async function () {
    this.timeout(60_000);
    const random = seededRandom(8);
    const dir = makeTempDir('vigil-crash-load');
    const sink = await startTarget(reply(200, 'ok'));
    const env = { VIGIL_DATA_DIR: dir.path, VIGIL_PRIVATE_TARGETS: 'allow', VIGIL_RATE_LIMIT_REQUESTS: '1000000', VIGIL_NOTIFY_RETRY_BASE_MS: '100' };
    const printed: string[] = [];
    const io = { env, stdout: (text: string) => printed.push(text), stderr: process.stderr };
    await runCli(['users', 'create', '--email', 'load@example.com'], io);
    await runCli(['keys', 'create', '--email', 'load@example.com', '--name', 'load', '--days', '1', '--scopes', 'manage_projects,manage_monitors,manage_notifications,read'], io);
    const { key } = JSON.parse(printed[1]!);

    let server = await spawnServer(env);
    const api = async (path: string, body: unknown) => {
      const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'X-API-Key': key, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      expect(response.status, path).to.equal(201);
      return (await response.json()) as any;
    };
    const projectId = (await api('/v1/projects', { name: 'Load' })).project.id;
    const hook = (await api('/v1/notification-channels', { project_id: projectId, name: 'sink', type: 'WEBHOOK', config: { url: `${sink.url}/hook` } })).channel.id;
    const monitors: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      const body = { project_id: projectId, name: `Job ${i}`, type: 'JOB_BASIC', schedule: 'x', notification_channel_ids: [hook], alert_surge_threshold: 1000, retention_count: 1000 };
      monitors.push((await api('/v1/monitors', body)).monitor.id);
    }

    // One sequential writer per monitor, a mix of successes and failures, through every crash;
    // fewer pings than the monitor retains, so every recorded one is still in the log at the end.
    const acknowledged: string[] = [];
    let loading = true;
    const writer = async (monitorId: string) => {
      for (let sent = 0; loading && sent < 900; sent += 1) {
        try {
          const response = await fetch(`${server.url}/v1/ping/${monitorId}${random() < 0.4 ? '/fail' : ''}`);
          if (response.status === 200) acknowledged.push(((await response.json()) as { ping_id: string }).ping_id);
          else await response.arrayBuffer();
        } catch {
          await sleep(20); // down, or killed mid-request
        }
      }
    };
    const writers = monitors.map(writer);
    for (let kill = 0; kill < 4; kill += 1) {
      await sleep(300 + random() * 1200);
      server.child.kill('SIGKILL');
      await server.exited;
      server = await spawnServer(env);
    }
    await sleep(500);
    loading = false;
    await Promise.all(writers);

    const db = openSqliteDatabase(`${dir.path}/vigil.db`);
    const events = new SqliteEventStore(db);
    const pagesUndelivered = async () => {
      const all = await events.readAll();
      const delivered = new Set(all.filter((e) => e.type === 'PageDelivered').map((e) => e.data['page_id']));
      return all.filter((e) => e.type === 'PageScheduled' && !delivered.has(e.data['page_id']));
    };
    await eventually(async () => expect(await pagesUndelivered()).to.deep.equal([]), 20_000, 100);
    await eventually(async () => {
      const { low } = db.prepare<[], { low: number }>('SELECT MIN(position) AS low FROM rm_checkpoints').get()!;
      expect(low).to.equal(await events.headPosition());
    }, 10_000, 50);
    server.child.kill('SIGTERM');
    await server.exited;

    const all = await events.readAll();
    const recorded = all.filter((e) => e.type === 'PingReceived');
    const recordedIds = new Set(recorded.map((e) => e.data['ping_id']));
    const lost = acknowledged.filter((id) => !recordedIds.has(id));
    expect(lost, `${lost.length} of ${acknowledged.length} acknowledged pings lost`).to.deep.equal([]);
    expect(acknowledged.length).to.be.above(100);

    for (const monitorId of monitors) {
      const history = all.filter((e) => e.data['monitor_id'] === monitorId && ['PingReceived', 'IncidentOpened', 'IncidentResolved'].includes(e.type));
      expect(incidentProblems(history), monitorId).to.deep.equal([]);
      expect(history.filter((e) => e.type === 'IncidentOpened').length, 'the load opened incidents').to.be.above(3);
    }
    const pages = all.filter((e) => e.type === 'PageScheduled');
    expect(pages.filter((e) => e.data['reason'] === 'opened')).to.have.length(all.filter((e) => e.type === 'IncidentOpened').length);
    const received = new Set(sink.seen.map((r) => r.headers['webhook-id']));
    const unseen = pages.filter((page) => !received.has(`${page.data['page_id']}|${hook}`));
    expect(unseen, 'pages the receiver never got').to.deep.equal([]);

    const live = dumpReadModels(db);
    expect(await runCli(['projections', 'rebuild'], { env, stdout: () => undefined, stderr: new PassThrough() })).to.equal(0);
    expect(dumpReadModels(db)).to.deep.equal(live);
    db.close();
    await sink.close();
    dir.remove();
  });
});
