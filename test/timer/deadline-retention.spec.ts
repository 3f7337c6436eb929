import { expect } from 'chai';
import { PassThrough } from 'node:stream';
import { loadMonitorState } from '../../src/app/monitors.js';
import { openSqliteDatabase } from '../../src/eventstore/sqlite-database.js';
import { runCli } from '../../src/main/cli.js';
import { dumpReadModels } from '../support/embedded-stores.js';
import { ALL_SCOPES, TestClock, TestVigil } from '../support/test-vigil.js';

const HOUR = 3_600_000;

describe('Missed deadlines under retention', function () {
  this.timeout(120_000);

  it('are kept with the pings and truncated with them; the newest carries what the fold needs, and a rebuild stays whole', async () => {
    const clock = new TestClock(Date.parse('2026-11-21T12:00:00.000Z'));
    let vigil = await TestVigil.start({ clock });
    const key = await vigil.accountKey(await vigil.user('deadlines@example.com'), ALL_SCOPES);
    const projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Jobs' } })).body.project.id;
    const m = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Hourly', type: 'JOB_HEARTBEAT', schedule: '1h', retention_count: 10, schedule_tolerance: 2 } })).body.monitor;
    for (let i = 0; i < 3; i += 1) {
      expect((await vigil.request('GET', `/v1/ping/${m.id}/${i === 1 ? 'fail' : ''}`)).status).to.equal(200);
      clock.advance(HOUR);
    }
    // Then silence: 14 slots missed, one fire an hour.
    for (let i = 0; i < 14; i += 1) {
      clock.advance(HOUR);
      await vigil.tick();
    }
    const pings = await vigil.vigil.stores.events.readStream(`pings-${m.id}`);
    expect(pings.map((e) => e.type)).to.deep.equal(Array(10).fill('CheckInMissed'));
    const own = (await vigil.vigil.stores.events.readStream(`monitor-${m.id}`)).map((e) => e.type);
    expect(own).to.not.include('CheckInMissed');
    const shown = (await vigil.request('GET', `/v1/monitors/${m.id}`, { key })).body.monitor;
    expect(shown).to.include({ status: 'DOWN', consecutive_misses: 14, total_pings_received: 3 });
    const warm = await loadMonitorState(vigil.commands, m.id);
    await vigil.stopKeepingData();

    // A fresh process folds only what retention left: every ping is gone, and yet the same state.
    vigil = await TestVigil.reopen(vigil.dataDir, vigil.env, clock);
    const cold = await loadMonitorState(vigil.commands, m.id);
    expect({ ...cold, incidents: [...cold.incidents] }).to.deep.equal({ ...warm, incidents: [...warm.incidents] });
    expect(cold).to.include({ totalPings: 3, consecutiveFailures: 0, lastCheckinAt: '2026-11-21T14:00:00.000Z' });
    clock.advance(HOUR);
    await vigil.tick();
    expect((await vigil.request('GET', `/v1/monitors/${m.id}`, { key })).body.monitor).to.include({ consecutive_misses: 15 });
    const missed = (await vigil.request('GET', `/v1/monitors/${m.id}/incidents`, { key })).body.data.filter((i: { event: string }) => i.event === 'MISSED');
    expect(missed.map((i: { status: string }) => i.status)).to.deep.equal(['OPEN']);
    await vigil.stopKeepingData();

    const db = openSqliteDatabase(`${vigil.dataDir}/vigil.db`);
    const live = dumpReadModels(db);
    expect(await runCli(['projections', 'rebuild'], { env: vigil.env, stdout: () => undefined, stderr: new PassThrough() })).to.equal(0);
    const rebuilt = dumpReadModels(db);
    for (const table of ['rm_monitors', 'rm_audit_events', 'rm_deadlines', 'rm_incidents']) {
      expect(live[table]!.length, table).to.be.greaterThan(0);
      expect(rebuilt[table], table).to.deep.equal(live[table]);
    }
    expect(rebuilt).to.deep.equal(live);
    db.close();
    await (await TestVigil.reopen(vigil.dataDir, vigil.env, clock)).stop();
  });
});
