import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { PassThrough } from 'node:stream';
import { loadMonitorState, runMonitorCommand } from '../../src/app/monitors.js';
import type { CheckObservation } from '../../src/domain/monitors/monitor.js';
import { openSqliteDatabase } from '../../src/eventstore/sqlite-database.js';
import { runCli } from '../../src/main/cli.js';
import { dumpReadModels } from '../support/embedded-stores.js';
import { ALL_SCOPES, TestClock, TestVigil } from '../support/test-vigil.js';

const HOUR = 3_600_000;
const CHECKER = { kind: 'system' as const, user_id: null, api_key_id: null, request_id: null };

/** The check of hour `n` finds the site down every 17th hour, and answers in a time of its own. */
const isUp = (n: number) => n % 17 !== 5;
const observation = (n: number): CheckObservation => ({
  check_id: randomUUID(), status_code: isUp(n) ? 200 : 503, response_time_ms: 20 + (n % 31), is_up: isUp(n), error: isUp(n) ? null : 'HTTP 503, expected 2xx',
  ssl_expires_at: null, ssl_issuer: null, check_region: 'local', check_status: 'ok', cycle_id: null, attempts: 1,
});

describe('Check summaries over months', function () {
  this.timeout(300_000);

  it('keep the monitor stream to its configuration and the summaries stream to its window, with the status page\'s 90 days, the state and a rebuild unchanged', async () => {
    const start = Date.parse('2026-01-01T00:30:00.000Z');
    const clock = new TestClock(start);
    let vigil = await TestVigil.start({ clock });
    const key = await vigil.accountKey(await vigil.user('months@example.com'), ALL_SCOPES);
    const projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Uptime' } })).body.project.id;
    // Checked every hour, ten checks kept; never down long enough to open an incident.
    const created = await vigil.request('POST', '/v1/monitors', {
      key, body: { project_id: projectId, name: 'Site', slug: 'site', type: 'UPTIME_HTTP', schedule: '1h', uptime_url: 'https://site.example.com/', retention_count: 10, failure_tolerance: 5 },
    });
    expect(created.status, created.text).to.equal(201);
    const monitorId: string = created.body.monitor.id;
    const page = await vigil.request('POST', `/v1/projects/${projectId}/status-pages`, { key, body: { slug: 'uptime', title: 'Uptime', published: true, monitors: [{ monitor_id: monitorId }] } });
    expect(page.status, page.text).to.equal(201);

    // 100 days of hourly checks, as the checker records them (the read models following as they go).
    const checks = 100 * 24;
    const expected = new Map<string, { total: number; up: number }>();
    for (let n = 0; n < checks; n += 1) {
      if (n > 0) clock.advance(HOUR);
      const now = clock.now().toISOString();
      await runMonitorCommand(vigil.commands, {
        type: 'RecordCheck', monitor_id: monitorId, check: observation(n), incident_ids: { failed: randomUUID(), ssl: randomUUID() }, ssl_warning_days: 14, repage_after_seconds: 3600, now,
      }, CHECKER);
      const day = expected.get(now.slice(0, 10)) ?? { total: 0, up: 0 };
      expected.set(now.slice(0, 10), { total: day.total + 1, up: day.up + (isUp(n) ? 1 : 0) });
      if (n % 4 === 3) await vigil.settle();
    }
    await vigil.settle();

    const events = vigil.vigil.stores.events;
    expect((await events.readStream(`monitor-${monitorId}`)).map((e) => e.type)).to.deep.equal(['MonitorCreated']);
    expect(await events.readStream(`pings-${monitorId}`)).to.have.length(10);
    // One summary an hour, each hour's closed by the next one's check: 93 days of them are kept.
    const summaries = await events.readStream(`checkhours-${monitorId}`);
    expect(summaries).to.have.length(93 * 24);
    expect(summaries.at(-1)!.revision).to.equal(checks - 2);
    expect(summaries.map((e) => e.data['summaries_kept'])).to.deep.equal(Array(93 * 24).fill(93 * 24));

    // The page's 90 days: each one's share of checks up, as the checks were.
    const statusPage = async () => (await vigil.request('GET', '/status/uptime')).text;
    const bars = (html: string) => [...html.matchAll(/aria-label="(\d{4}-\d{2}-\d{2}): ([^"]+)"/g)].map((m): [string, string] => [m[1]!, m[2]!]);
    const html = await statusPage();
    const shown = bars(html);
    expect(shown).to.have.length(90);
    const today = clock.now().toISOString().slice(0, 10);
    // As the page shows a share: to the hundredth of a percent, rounded down.
    const percent = (up: number, total: number) => Math.floor((up / total) * 10_000) / 100;
    for (const [day, label] of shown) {
      const figures = expected.get(day)!;
      expect(label, day).to.match(new RegExp(`^${String(percent(figures.up, figures.total)).replace('.', '\\.')}% up`));
    }
    expect(shown.at(-1)![0]).to.equal(today);
    const shownDays = shown.map(([day]) => expected.get(day)!);
    const overall = percent(shownDays.reduce((sum, d) => sum + d.up, 0), shownDays.reduce((sum, d) => sum + d.total, 0));
    expect(html).to.contain(`${overall}% uptime`);
    const days = await vigil.vigil.stores.readModels.find<{ day: string; total: number; up: number }>('check_days', { monitor_id: monitorId });
    expect(days).to.have.length(92);
    for (const { doc } of days) expect({ total: doc.total, up: doc.up }, doc.day).to.deep.equal(expected.get(doc.day));

    // A fresh process folds the same state from what the streams kept, and checks on.
    const warm = await loadMonitorState(vigil.commands, monitorId);
    await vigil.stopKeepingData();
    vigil = await TestVigil.reopen(vigil.dataDir, vigil.env, clock);
    const cold = await loadMonitorState(vigil.commands, monitorId);
    expect({ ...cold, incidents: [...cold.incidents] }).to.deep.equal({ ...warm, incidents: [...warm.incidents] });
    await vigil.stopKeepingData();

    // A rebuild makes the same documents, history included, from what the window kept.
    const db = openSqliteDatabase(`${vigil.dataDir}/vigil.db`);
    const live = dumpReadModels(db);
    expect(live['rm_audit_events']!.filter((row) => row.id.startsWith('checkhours-'))).to.have.length(93 * 24);
    const code = await runCli(['projections', 'rebuild'], { env: vigil.env, stdout: () => undefined, stderr: new PassThrough() });
    expect(code).to.equal(0);
    expect(dumpReadModels(db)).to.deep.equal(live);
    db.close();
    vigil = await TestVigil.reopen(vigil.dataDir, vigil.env, clock);
    expect(await statusPage()).to.equal(html);
    await vigil.stop();
  });

  it('go on from a log whose summaries are in the monitor stream: the next one, in its own stream, follows the last there, and the figures and a rebuild stay whole', async () => {
    const clock = new TestClock(Date.parse('2026-03-01T12:01:00.000Z'));
    let vigil = await TestVigil.start({ clock });
    const key = await vigil.accountKey(await vigil.user('old@example.com'), ALL_SCOPES);
    const projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Uptime' } })).body.project.id;
    const created = await vigil.request('POST', '/v1/monitors', {
      key, body: { project_id: projectId, name: 'Site', slug: 'site', type: 'UPTIME_HTTP', schedule: '1m', uptime_url: 'https://site.example.com/', retention_count: 10, failure_tolerance: 5 },
    });
    const monitorId: string = created.body.monitor.id;
    const ids = { monitor_id: monitorId, project_id: projectId };
    // As an earlier Vigil left it: three checks of the 11 o'clock hour, summarized (version 1) in the
    // monitor stream with the first check of 12 o'clock.
    const events = vigil.vigil.stores.events;
    const recorded = (n: number, at: string) => ({
      type: 'CheckCompleted', metadata: { kind: 'system', schema_version: 2 },
      data: { ...ids, ...observation(n), check_id: `old-${n}`, checked_at: at, check_number: n + 1, consecutive_failures: 0, last_success_at: at, next_expected_at: at, retention_count: 10 },
    });
    await events.appendToStream(`pings-${monitorId}`, [recorded(0, '2026-03-01T11:57:00.000Z'), recorded(1, '2026-03-01T11:58:00.000Z'), recorded(2, '2026-03-01T11:59:00.000Z')]);
    await events.appendToStream(`pings-${monitorId}`, [recorded(3, '2026-03-01T12:00:00.000Z')]);
    await events.appendToStream(`monitor-${monitorId}`, [{
      type: 'ChecksSummarized', metadata: { kind: 'system' },
      data: { ...ids, hour: '2026-03-01T11:00:00.000Z', total: 3, up: 3, down: 0, times: [20, 21, 22], summarized_at: '2026-03-01T12:00:00.000Z' },
    }]);
    await vigil.stopKeepingData();

    // This Vigil checks on: the rest of the 12 o'clock hour and the first of 13 o'clock.
    vigil = await TestVigil.reopen(vigil.dataDir, vigil.env, clock);
    for (let n = 4; n <= 64; n += 1) {
      await runMonitorCommand(vigil.commands, {
        type: 'RecordCheck', monitor_id: monitorId, check: observation(n), incident_ids: { failed: randomUUID(), ssl: randomUUID() }, ssl_warning_days: 14, repage_after_seconds: 3600, now: clock.now().toISOString(),
      }, CHECKER);
      if (n % 4 === 3) await vigil.settle();
      clock.advance(60_000);
    }
    await vigil.settle();

    expect((await vigil.vigil.stores.events.readStream(`monitor-${monitorId}`)).map((e) => e.type)).to.deep.equal(['MonitorCreated', 'ChecksSummarized']);
    const summaries = (await vigil.vigil.stores.events.readStream(`checkhours-${monitorId}`)).map((e) => e.data);
    // Checks of 12 o'clock kept ten at a time: six summaries, the first naming the last of the old ones.
    expect(summaries.map((d) => [d['hour'], d['total'], d['previous_hour']])).to.deep.equal([
      ['2026-03-01T12:00:00.000Z', 10, '2026-03-01T11:00:00.000Z'],
      ...Array.from({ length: 5 }, () => ['2026-03-01T12:00:00.000Z', 10, '2026-03-01T12:00:00.000Z']),
    ]);
    const hours = await vigil.vigil.stores.readModels.find<{ hour: string; total: number; up: number }>('check_hours', { monitor_id: monitorId });
    const upIn = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i).filter(isUp).length;
    expect(hours.map(({ doc }) => [doc.hour, doc.total, doc.up])).to.deep.equal([
      ['2026-03-01T11:00:00.000Z', 3, 3],
      ['2026-03-01T12:00:00.000Z', 60, upIn(3, 63)],
      ['2026-03-01T13:00:00.000Z', 2, upIn(63, 65)],
    ]);
    const warm = await loadMonitorState(vigil.commands, monitorId);
    await vigil.stopKeepingData();

    vigil = await TestVigil.reopen(vigil.dataDir, vigil.env, clock);
    const cold = await loadMonitorState(vigil.commands, monitorId);
    expect({ ...cold, incidents: [...cold.incidents] }).to.deep.equal({ ...warm, incidents: [...warm.incidents] });
    await vigil.stopKeepingData();
    const db = openSqliteDatabase(`${vigil.dataDir}/vigil.db`);
    const live = dumpReadModels(db);
    expect(await runCli(['projections', 'rebuild'], { env: vigil.env, stdout: () => undefined, stderr: new PassThrough() })).to.equal(0);
    expect(dumpReadModels(db)).to.deep.equal(live);
    db.close();
    await (await TestVigil.reopen(vigil.dataDir, vigil.env, clock)).stop();
  });
});
