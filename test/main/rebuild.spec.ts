import { expect } from 'chai';
import { PassThrough } from 'node:stream';
import { openSqliteDatabase } from '../../src/eventstore/sqlite-database.js';
import { allProjections } from '../../projections/index.js';
import { runCli } from '../../src/main/cli.js';
import { dumpReadModels } from '../support/embedded-stores.js';
import { reply, startTarget } from '../support/http-targets.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

describe('vigil projections rebuild', function () {
  this.timeout(30_000);

  it('drops and replays every read model into rows identical to the live ones', async () => {
    const vigil = await TestVigil.start();
    const ownerId = await vigil.user('rebuild@example.com');
    const key = await vigil.accountKey(ownerId, ALL_SCOPES);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await vigil.request('POST', '/v1/projects', { key, body: { name: `P${i}` } })).body.project.id);
    await vigil.request('PATCH', `/v1/projects/${ids[0]}`, { key, body: { description: 'renamed' } });
    for (let i = 0; i < 3; i++) {
      const userId = await vigil.user(`member${i}@example.com`);
      await vigil.settle();
      await vigil.request('POST', `/v1/projects/${ids[1]}/members`, { key, body: { user_id: userId, role: 'MEMBER' } });
      await vigil.request('POST', `/v1/projects/${ids[2]}/members`, { key, body: { user_id: userId, role: 'READONLY' } });
      if (i === 0) await vigil.request('PATCH', `/v1/projects/${ids[1]}/members/${userId}`, { key, body: { role: 'MANAGER' } });
      if (i === 1) await vigil.request('DELETE', `/v1/projects/${ids[2]}/members/${userId}`, { key });
    }
    const child = await vigil.request('POST', '/v1/api-keys', { key, body: { name: 'child', expires_in_days: 3, scopes: ['read'] } });
    await vigil.request('DELETE', `/v1/api-keys/${child.body.api_key.id}`, { key });
    await vigil.request('POST', `/v1/projects/${ids[3]}/ping-key/rotate`, { key });
    await vigil.request('DELETE', `/v1/projects/${ids[4]}`, { key });

    const monitor = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: ids[0], name: 'Job', type: 'JOB_CRON', schedule: '*/5 * * * *', retention_count: 10, max_duration_seconds: 60 } })).body.monitor;
    for (let i = 0; i < 14; i++) {
      await vigil.request('GET', `/v1/ping/${monitor.id}/start?run_id=${i}`);
      vigil.clock.advance(i % 3 === 0 ? 90_000 : 5_000);
      await vigil.request('GET', `/v1/ping/${monitor.id}/${i % 4 === 0 ? 1 : 0}?run_id=${i}`);
    }
    const [incident] = (await vigil.request('GET', `/v1/monitors/${monitor.id}/incidents`, { key })).body.data;
    await vigil.request('POST', `/v1/incidents/${incident.id}/acknowledge`, { key });
    const noted = (await vigil.request('GET', `/v1/incidents/${incident.id}`, { key })).body.incident;
    const note = { text: 'Rebuilt as written', visibility: 'public', kind: noted.status === 'RESOLVED' ? 'postmortem' : 'note' };
    expect((await vigil.request('POST', `/v1/incidents/${incident.id}/notes`, { key, body: note })).status).to.equal(201);
    await vigil.request('PATCH', `/v1/monitors/${monitor.id}`, { key, body: { name: 'Renamed job', retention_count: 12 } });
    await vigil.request('POST', `/v1/monitors/${monitor.id}/pause`, { key });
    await vigil.request('GET', `/v1/ping/${monitor.id}/fail`);
    const site = await startTarget(reply(200, 'ok'));
    const uptime = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: ids[0], name: 'Site', type: 'UPTIME_HTTP', schedule: '1m', uptime_url: site.url, retention_count: 10 } })).body.monitor;
    for (let i = 0; i < 12; i++) {
      await vigil.check();
      vigil.clock.advance(60_000);
    }
    await vigil.tick();
    await site.close();
    expect(uptime.id).to.be.a('string');
    const doomed = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: ids[0], name: 'Doomed', type: 'JOB_BASIC', schedule: 'x' } })).body.monitor;
    await vigil.request('GET', `/v1/ping/${doomed.id}/fail`);
    await vigil.request('DELETE', `/v1/monitors/${doomed.id}`, { key });
    // Maintenance windows, a problem one held back, and its incident opened when the window was ended early.
    const held = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: ids[0], name: 'Held', type: 'JOB_BASIC', schedule: 'x' } })).body.monitor;
    const window = (await vigil.request('POST', `/v1/projects/${ids[0]}/maintenance-windows`, { key, body: { name: 'Deploy', monitor_ids: [held.id], duration_seconds: 3600 } })).body.maintenance_window;
    await vigil.request('POST', `/v1/projects/${ids[0]}/maintenance-windows`, { key, body: { name: 'Sundays', rrule: 'RRULE:FREQ=WEEKLY;BYDAY=SU;BYHOUR=2', timezone: 'Europe/Paris', duration_seconds: 3600 } });
    const cancelled = (await vigil.request('POST', `/v1/projects/${ids[0]}/maintenance-windows`, { key, body: { name: 'Never', starts_at: '2027-01-01T00:00:00Z', duration_seconds: 600 } })).body.maintenance_window;
    await vigil.request('GET', `/v1/ping/${held.id}/fail`);
    await vigil.request('PATCH', `/v1/maintenance-windows/${window.id}`, { key, body: { name: 'Deploy 2' } });
    await vigil.tick();
    await vigil.request('POST', `/v1/maintenance-windows/${window.id}/end`, { key });
    await vigil.request('DELETE', `/v1/maintenance-windows/${cancelled.id}`, { key });
    await vigil.tick();
    expect((await vigil.request('GET', `/v1/monitors/${held.id}/incidents`, { key })).body.data).to.have.length(1);
    await vigil.settle();
    expect(await vigil.vigil.stores.events.readStream(`pings-${monitor.id}`)).to.have.length(11);
    // Retention 10 kept 10 of 28 pings; raised to 12, it keeps those and the one that came after.
    expect((await vigil.request('GET', `/v1/monitors/${monitor.id}/pings?limit=100`, { key })).body.pagination.total).to.equal(11);
    await vigil.stopKeepingData();

    const db = openSqliteDatabase(`${vigil.dataDir}/vigil.db`);
    const live = dumpReadModels(db);
    const liveCheckpoints = db.prepare('SELECT * FROM rm_checkpoints ORDER BY name').all();
    expect(live['rm_projects']).to.have.length(4);
    expect(live['rm_project_members']!.length).to.be.greaterThan(4);
    expect(live['rm_monitors']).to.have.length(3);
    expect(live['rm_maintenance_windows']).to.have.length(2);
    expect(live['rm_check_hours']!.length).to.be.greaterThan(0);
    expect(live['rm_check_results_latest']).to.have.length(1);
    expect(live['rm_incidents']!.length).to.be.greaterThan(1);
    expect(live['rm_incident_notes']).to.have.length(1);

    const output: string[] = [];
    const progress = new PassThrough();
    const shown: Buffer[] = [];
    progress.on('data', (chunk: Buffer) => shown.push(chunk));
    const code = await runCli(['projections', 'rebuild'], { env: vigil.env, stdout: (text) => output.push(text), stderr: progress });
    expect(Buffer.concat(shown).toString()).to.match(/rebuilding read models .*100%/);
    expect(code).to.equal(0);
    expect(JSON.parse(output[0]!).rebuilt).to.deep.equal(allProjections().map((p) => p.name));
    const rebuilt = dumpReadModels(db);
    for (const table of Object.keys(live)) {
      const differing = (live[table] ?? []).filter((row, i) => JSON.stringify(row) !== JSON.stringify(rebuilt[table]?.[i]));
      expect(differing, `${table} differs after rebuild: ${JSON.stringify(differing[0])} vs ${JSON.stringify(rebuilt[table]?.find((r) => r.id === differing[0]?.id))}`).to.deep.equal([]);
    }
    expect(rebuilt).to.deep.equal(live);
    expect(db.prepare('SELECT * FROM rm_checkpoints ORDER BY name').all()).to.deep.equal(liveCheckpoints);
    db.close();
    await (await TestVigil.reopen(vigil.dataDir, vigil.env, vigil.clock)).stop();
  });
});
