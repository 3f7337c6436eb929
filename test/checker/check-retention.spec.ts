import { expect } from 'chai';
import { PassThrough } from 'node:stream';
import { openSqliteDatabase } from '../../src/eventstore/sqlite-database.js';
import { runCli } from '../../src/main/cli.js';
import { loadMonitorState } from '../../src/app/monitors.js';
import { dumpReadModels } from '../support/embedded-stores.js';
import { type Target, startTarget } from '../support/http-targets.js';
import { ALL_SCOPES, TestClock, TestVigil } from '../support/test-vigil.js';

describe('Check results under retention', function () {
  this.timeout(120_000);
  const start = Date.parse('2026-11-21T12:00:00.000Z');
  let clock: TestClock;
  let target: Target;

  beforeEach(async () => {
    clock = new TestClock(start);
    // The check of every seventh minute finds the site down (its retries too).
    target = await startTarget((_request, response) => {
      response.writeHead(Math.floor((clock.now().getTime() - start) / 60_000) % 7 === 6 ? 503 : 200);
      response.end('ok');
    });
  });
  afterEach(() => target.close());

  it('keeps checks with the pings, truncated to retention_count, and a summary per hour or per retention_count checks in a stream of their own; figures, state and a rebuild stay whole', async () => {
    let vigil = await TestVigil.start({ clock });
    const key = await vigil.accountKey(await vigil.user('retention@example.com'), ALL_SCOPES);
    const projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Uptime' } })).body.project.id;
    const created = await vigil.request('POST', '/v1/monitors', {
      key, body: { project_id: projectId, name: 'Site', type: 'UPTIME_HTTP', schedule: '1m', uptime_url: target.url, retention_count: 10, failure_tolerance: 3 },
    });
    const monitorId: string = created.body.monitor.id;
    // 12:00 to 14:34: two whole hours and part of a third, with checks not yet summarized at the end.
    const checks = 155;
    for (let i = 0; i < checks; i += 1) {
      expect(await vigil.check()).to.equal(1);
      clock.advance(60_000);
    }
    const down = Math.floor(checks / 7);

    const pings = await vigil.vigil.stores.events.readStream(`pings-${monitorId}`);
    expect(pings.map((e) => e.type)).to.deep.equal(Array(10).fill('CheckCompleted'));
    expect(pings.at(-1)!.data['check_number']).to.equal(checks);
    const own = await vigil.vigil.stores.events.readStream(`monitor-${monitorId}`);
    expect(own.map((e) => e.type)).to.deep.equal(['MonitorCreated']);
    // At most one summary per retention_count checks, and one per hour, in a stream of their own.
    const summaries = await vigil.vigil.stores.events.readStream(`checkhours-${monitorId}`);
    expect(new Set(summaries.map((e) => e.type))).to.deep.equal(new Set(['ChecksSummarized']));
    expect(summaries.length).to.be.at.most(Math.ceil(checks / 10) + 3);

    const figures = async () => {
      const stats = (await vigil.request('GET', `/v1/monitors/${monitorId}/response-time-stats?period_hours=24`, { key })).body;
      const summary = (await vigil.request('GET', `/v1/projects/${projectId}/uptime-summary?period_hours=24`, { key })).body.overall;
      return { stats, summary };
    };
    const before = await figures();
    expect(before.stats).to.include({ total_checks: checks, up_count: checks - down, down_count: down });
    expect(before.summary).to.include({ total_checks: checks, up_count: checks - down, down_count: down });
    const days = await vigil.vigil.stores.readModels.find<{ total: number; up: number }>('check_days', { monitor_id: monitorId });
    expect(days.map((d) => [d.doc.total, d.doc.up])).to.deep.equal([[checks, checks - down]]);
    const hours = await vigil.vigil.stores.readModels.find<{ hour: string; total: number; times: number[] }>('check_hours', { monitor_id: monitorId });
    expect(hours.map((h) => [h.doc.hour, h.doc.total, h.doc.times.length])).to.deep.equal([
      ['2026-11-21T12:00:00.000Z', 60, 60],
      ['2026-11-21T13:00:00.000Z', 60, 60],
      ['2026-11-21T14:00:00.000Z', checks - 120, checks - 120],
    ]);
    const warm = await loadMonitorState(vigil.commands, monitorId);
    expect(warm.unsummarizedHours.map((h) => [h.hour, h.total])).to.deep.equal([['2026-11-21T14:00:00.000Z', 5]]);
    await vigil.stopKeepingData();

    // A fresh process folds what retention left: the same state, and the next checks count on.
    vigil = await TestVigil.reopen(vigil.dataDir, vigil.env, clock);
    const cold = await loadMonitorState(vigil.commands, monitorId);
    expect({ ...cold, incidents: [...cold.incidents] }).to.deep.equal({ ...warm, incidents: [...warm.incidents] });
    expect(await vigil.check()).to.equal(1);
    expect((await figures()).stats).to.include({ total_checks: checks + 1 });
    await vigil.stopKeepingData();

    const db = openSqliteDatabase(`${vigil.dataDir}/vigil.db`);
    const live = dumpReadModels(db);
    const code = await runCli(['projections', 'rebuild'], { env: vigil.env, stdout: () => undefined, stderr: new PassThrough() });
    expect(code).to.equal(0);
    const rebuilt = dumpReadModels(db);
    for (const table of ['rm_check_hours', 'rm_check_days', 'rm_check_results_latest', 'rm_monitors', 'rm_audit_events']) {
      expect(live[table]!.length, table).to.be.greaterThan(0);
      expect(rebuilt[table], table).to.deep.equal(live[table]);
    }
    expect(rebuilt).to.deep.equal(live);
    db.close();
    await (await TestVigil.reopen(vigil.dataDir, vigil.env, clock)).stop();
  });
});
