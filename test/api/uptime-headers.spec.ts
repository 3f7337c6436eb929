import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { toJsonObject } from '../../src/app/command-handler.js';
import { MONITOR_DEFAULTS, UPTIME_DEFAULTS, type MonitorConfig } from '../../src/domain/monitors/monitor-config.js';
import { monitorDecider, monitorStream } from '../../src/domain/monitors/monitor.js';
import { openSqliteDatabase } from '../../src/eventstore/sqlite-database.js';
import { runCli } from '../../src/main/cli.js';
import { type Target, reply, startTarget } from '../support/http-targets.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

const MASK = '••••••';

describe('Uptime header values', function () {
  this.timeout(60_000);
  let vigil: TestVigil;
  let key: string;
  let projectId: string;
  let target: Target;

  beforeEach(async () => {
    vigil = await TestVigil.start();
    key = await vigil.accountKey(await vigil.user('headers@example.com'), ALL_SCOPES);
    projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Headers' } })).body.project.id;
    target = await startTarget(reply(200, 'fine'));
  });
  afterEach(async () => {
    await vigil.stop();
    await target.close();
  });

  const create = (body: Record<string, unknown>) =>
    vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Site', type: 'UPTIME_HTTP', schedule: '1m', uptime_url: `${target.url}/health`, ...body } });
  const patch = (id: string, body: Record<string, unknown>) => vigil.request('PATCH', `/v1/monitors/${id}`, { key, body });
  /** The headers of the next check the checker sends (the clock moves on to when it is due). */
  async function nextCheckHeaders() {
    vigil.clock.advance(60_000);
    const before = target.seen.length;
    expect(await vigil.check()).to.equal(1);
    expect(target.seen).to.have.length(before + 1);
    return target.seen.at(-1)!.headers;
  }

  /** Every row of every table of the store (event log and read models alike), and the files' bytes as they lie on disk. */
  function storeHolds(text: string): string[] {
    const path = vigil.vigil.stores.sqlitePath!;
    const found: string[] = [];
    const db = openSqliteDatabase(path);
    try {
      const tables = db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'").all();
      expect(tables.map((t) => t.name)).to.include.members(['es_events', 'rm_monitors', 'rm_audit_events']);
      for (const { name } of tables) {
        for (const row of db.prepare(`SELECT * FROM "${name}"`).all()) if (JSON.stringify(row).includes(text)) found.push(name);
      }
    } finally {
      db.close();
    }
    for (const file of [path, `${path}-wal`]) if (existsSync(file) && readFileSync(file).includes(text)) found.push(file);
    return found;
  }

  /** Everything the API answers about the monitor: lists, reads now and then, and its recorded history. */
  async function answersAbout(monitorId: string): Promise<string[]> {
    const paths = [
      `/v1/monitors?project_id=${projectId}`,
      `/v1/monitors/${monitorId}`,
      `/v1/monitors/${monitorId}?as_of=${vigil.clock.now().toISOString()}`,
      `/v1/monitors/${monitorId}/events`,
      `/v1/projects/${projectId}/events`,
    ];
    const texts: string[] = [];
    for (const path of paths) {
      const answer = await vigil.request('GET', path, { key });
      expect(answer.status, `${path}: ${answer.text}`).to.equal(200);
      texts.push(answer.text);
    }
    return texts;
  }

  it('seals the values before anything is recorded: no event, read model or answer holds them, yet the check sends them', async () => {
    const created = await create({ uptime_headers: { Authorization: 'Bearer s3cret', 'X-Env': 'staging' } });
    expect(created.status, created.text).to.equal(201);
    const monitor = created.body.monitor;
    expect(monitor.uptime_headers).to.deep.equal({ Authorization: MASK, 'X-Env': MASK });
    expect(monitor).to.not.have.property('uptime_headers_sealed');

    expect(await vigil.check()).to.equal(1);
    expect(target.seen[0]!.headers).to.include({ authorization: 'Bearer s3cret', 'x-env': 'staging' });

    await vigil.settle();
    for (const text of await answersAbout(monitor.id)) {
      expect(text).to.not.include('s3cret');
      expect(text).to.not.include('staging');
    }
    const history = (await vigil.request('GET', `/v1/monitors/${monitor.id}/events?type=MonitorCreated`, { key })).body.data;
    expect(history[0].data.config.uptime.uptime_headers).to.deep.equal({ Authorization: MASK, 'X-Env': MASK });
    expect(storeHolds('s3cret')).to.deep.equal([]);
    expect(storeHolds('staging')).to.deep.equal([]);
  });

  it('keeps a stored value where a PATCH sends back the mask, replaces it where one sends a new value, and refuses a mask that stands for nothing', async () => {
    const monitor = (await create({ uptime_headers: { Authorization: 'Bearer s3cret', 'X-Env': 'staging' } })).body.monitor;
    await vigil.check();
    const updates = async () => (await vigil.commands.events.readStream(monitorStream(monitor.id))).filter((e) => e.type === 'MonitorUpdated').length;

    const read = (await vigil.request('GET', `/v1/monitors/${monitor.id}`, { key })).body.monitor;
    const roundTrip = await patch(monitor.id, read);
    expect(roundTrip.status, roundTrip.text).to.equal(200);
    expect(roundTrip.body.monitor.uptime_headers).to.deep.equal({ Authorization: MASK, 'X-Env': MASK });
    expect(await updates(), 'sending back what was read changes nothing').to.equal(0);
    expect(await nextCheckHeaders()).to.include({ authorization: 'Bearer s3cret', 'x-env': 'staging' });

    expect((await patch(monitor.id, { uptime_headers: { Authorization: 'Bearer s3cret', 'X-Env': MASK } })).status).to.equal(200);
    expect(await updates(), 'nor does sending the same values again').to.equal(0);

    expect((await patch(monitor.id, { uptime_headers: { authorization: MASK, 'X-Env': 'production' } })).status).to.equal(200);
    expect(await nextCheckHeaders()).to.include({ authorization: 'Bearer s3cret', 'x-env': 'production' });

    expect((await patch(monitor.id, { name: 'Renamed', uptime_timeout_ms: 5000 })).status).to.equal(200);
    expect(await nextCheckHeaders()).to.include({ authorization: 'Bearer s3cret', 'x-env': 'production' });

    const replaced = await patch(monitor.id, { uptime_headers: { Authorization: 'Bearer n3w-s3cret' } });
    expect(replaced.body.monitor.uptime_headers).to.deep.equal({ Authorization: MASK });
    const sent = await nextCheckHeaders();
    expect(sent).to.include({ authorization: 'Bearer n3w-s3cret' });
    expect(sent).to.not.have.property('x-env');

    const nothingStored = await patch(monitor.id, { uptime_headers: { Authorization: MASK, 'X-Other': MASK } });
    expect(nothingStored.status).to.equal(400);
    expect(nothingStored.body.error).to.match(/^uptime_headers\.X-Other is the mask shown in place of a stored value/);
    const refusedNew = await create({ name: 'New', uptime_headers: { Authorization: MASK } });
    expect(refusedNew.status).to.equal(400);
    expect(refusedNew.body.error).to.match(/^uptime_headers\.Authorization is the mask/);
    expect(await nextCheckHeaders(), 'a refused PATCH leaves the stored value').to.include({ authorization: 'Bearer n3w-s3cret' });

    await vigil.settle();
    expect(storeHolds('n3w-s3cret')).to.deep.equal([]);
    expect(storeHolds('production')).to.deep.equal([]);
  });

  it('masks values recorded before they were sealed, sends them as recorded, and seals them at the next update; verify passes', async () => {
    // A monitor as Vigil recorded it before header values were sealed: the value in the event as sent.
    const monitorId = '00000000-0000-4000-8000-0000000000aa';
    const config: MonitorConfig = {
      ...MONITOR_DEFAULTS, tags: [], notification_group_ids: [], notification_channel_ids: [],
      name: 'Legacy', slug: 'legacy', type: 'UPTIME_HTTP', schedule: '1m',
      uptime: { ...UPTIME_DEFAULTS, uptime_url: `${target.url}/health`, uptime_headers: { Authorization: 'Bearer 0ld-s3cret' } },
    };
    const events = monitorDecider.decide(
      { type: 'CreateMonitor', monitor_id: monitorId, project_id: projectId, config, now: vigil.clock.now().toISOString() },
      monitorDecider.initialState(),
    );
    await vigil.commands.events.appendToStream(
      monitorStream(monitorId),
      events.map((e) => ({ type: e.type, data: toJsonObject(e.data), metadata: { kind: 'system', user_id: null, api_key_id: null, request_id: null } })),
      { expectedRevision: 'no_stream' },
    );
    await vigil.settle();

    const read = await vigil.request('GET', `/v1/monitors/${monitorId}`, { key });
    expect(read.body.monitor.uptime_headers).to.deep.equal({ Authorization: MASK });
    for (const text of await answersAbout(monitorId)) expect(text).to.not.include('0ld-s3cret');
    const tables = storeHolds('0ld-s3cret').filter((where) => !where.includes('/'));
    expect(tables, 'the old event stays as it was; no read model copies its value').to.deep.equal(['es_events']);

    expect(await vigil.check()).to.equal(1);
    expect(target.seen[0]!.headers).to.include({ authorization: 'Bearer 0ld-s3cret' });

    expect((await patch(monitorId, { description: 'any change' })).status).to.equal(200);
    const updated = (await vigil.commands.events.readStream(monitorStream(monitorId))).find((e) => e.type === 'MonitorUpdated');
    expect(JSON.stringify(updated!.data)).to.not.include('0ld-s3cret');
    expect(updated!.data).to.have.nested.property('config.uptime.uptime_headers_sealed', true);
    expect(await nextCheckHeaders()).to.include({ authorization: 'Bearer 0ld-s3cret' });

    await vigil.settle();
    await vigil.stopKeepingData();
    const out: string[] = [];
    const quiet = new PassThrough().resume();
    expect(await runCli(['verify'], { env: vigil.env, stdout: (text) => out.push(text), stderr: quiet })).to.equal(0);
    expect(JSON.parse(out[0]!)).to.include({ ok: true });
    const exported: string[] = [];
    expect(await runCli(['events', 'export', '--project', projectId], { env: vigil.env, stdout: (text) => exported.push(text), stderr: quiet })).to.equal(0);
    expect(exported.filter((line) => JSON.parse(line).type === 'MonitorUpdated')).to.have.length(1);
  });
});
