import { expect } from 'chai';
import { toJsonObject } from '../../src/app/command-handler.js';
import { maintenanceStream } from '../../src/domain/maintenance/window.js';
import { monitorStream } from '../../src/domain/monitors/monitor.js';
import { ALL_SCOPES, TestClock, TestVigil } from '../support/test-vigil.js';

const until = (n: number) => Array.from({ length: n }, (_, i) => i).join(',');
const EVERY_DAY = 'BYDAY=MO,TU,WE,TH,FR,SA,SU';
/** Issue 37's rules, accepted before the limits on an RRULE's occurrences and still in the log. */
const EVERY_SECOND = `RRULE:FREQ=YEARLY;${EVERY_DAY};BYHOUR=${until(24)};BYMINUTE=${until(60)};BYSECOND=${until(60)}`;
const LISTED = `RRULE:FREQ=YEARLY;${EVERY_DAY};BYHOUR=${until(18)};BYMINUTE=${until(18)};BYSECOND=${until(17)}`;
const SYSTEM = { kind: 'system', user_id: null, api_key_id: null, request_id: null };

describe('RRULEs kept before the limits on their occurrences', function () {
  this.timeout(60_000);
  let vigil: TestVigil;
  let key: string;
  let projectId: string;

  beforeEach(async () => {
    // Early in the year: without the bound, a look-up walks these rules from January 1st, and in
    // a zone every occurrence walked costs ~0.5 ms; a few days in are enough to stall for seconds.
    vigil = await TestVigil.start({ clock: new TestClock(Date.parse('2027-01-03T12:00:00.000Z')) });
    key = await vigil.accountKey(await vigil.user('ops@example.com'), ALL_SCOPES);
    projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Shop' } })).body.project.id;
  });
  afterEach(() => vigil.stop());

  /** Answers `path`, and how long it took on the test's own clock of real time (the server runs in this process). */
  async function timed(method: string, path: string, options: { key?: string } = {}) {
    const started = performance.now();
    const response = await vigil.request(method, path, options);
    return { response, ms: performance.now() - started };
  }

  /** A MonitorUpdated as one was recorded before the limits: the schedule such a rule. */
  async function keepSchedule(monitorId: string, schedule: string) {
    const [created] = await vigil.commands.events.readStream(monitorStream(monitorId));
    const { monitor_id, project_id, config } = created!.data as { monitor_id: string; project_id: string; config: Record<string, unknown> };
    const data = { monitor_id, project_id, config: { ...config, schedule }, updated_at: vigil.clock.now().toISOString(), last_ping_seq: null, next_expected_at: null };
    await vigil.commands.events.appendToStream(monitorStream(monitorId), [{ type: 'MonitorUpdated', data: toJsonObject(data), metadata: SYSTEM }], { expectedRevision: 'any' });
    await vigil.settle();
  }

  it('answers each ping of a JOB_CRON monitor on such a rule, and its schedule, without walking it: the rule has no next time', async () => {
    const created = await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Busy', type: 'JOB_CRON', schedule: 'RRULE:FREQ=DAILY;BYHOUR=3;BYMINUTE=0', timezone: 'America/New_York' } });
    expect(created.status, created.text).to.equal(201);
    const monitorId = created.body.monitor.id as string;
    await keepSchedule(monitorId, LISTED);

    for (let i = 0; i < 3; i += 1) {
      const ping = await timed('GET', `/v1/ping/${monitorId}`);
      expect(ping.response.status, ping.response.text).to.equal(200);
      expect(ping.ms, 'a ping').to.be.below(1000);
    }
    const schedule = await timed('GET', `/v1/monitors/${monitorId}/schedule`, { key });
    expect(schedule.response.status, schedule.response.text).to.equal(200);
    expect(schedule.ms, 'the schedule').to.be.below(1000);
    expect(schedule.response.body.upcoming).to.deep.equal([]);
    const health = await timed('GET', '/healthz');
    expect(health.response.status).to.equal(200);
    expect(health.ms).to.be.below(1000);
    expect((await vigil.request('GET', `/v1/monitors/${monitorId}`, { key })).body.monitor).to.include({ schedule: LISTED, next_expected_at: null });

    const renamed = await vigil.request('PATCH', `/v1/monitors/${monitorId}`, { key, body: { name: 'Still busy' } });
    expect(renamed.status, 'a change that leaves the rule be').to.equal(200);
    const rescheduled = await vigil.request('PATCH', `/v1/monitors/${monitorId}`, { key, body: { schedule: 'RRULE:FREQ=DAILY;BYHOUR=3;BYMINUTE=0' } });
    expect(rescheduled.status, rescheduled.text).to.equal(200);
    expect(rescheduled.body.monitor.next_expected_at).to.equal('2027-01-04T08:00:00.000Z');
  });

  it('shows a maintenance window on such a rule as over, on its list and its public status page, without walking it', async () => {
    const monitor = await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Shop', type: 'JOB_BASIC', schedule: 'x' } });
    const monitorId = monitor.body.monitor.id as string;
    const page = await vigil.request('POST', `/v1/projects/${projectId}/status-pages`, { key, body: { slug: 'shop', title: 'Shop', published: true, monitors: [{ monitor_id: monitorId }] } });
    expect(page.status, page.text).to.equal(201);
    const window = await vigil.request('POST', `/v1/projects/${projectId}/maintenance-windows`, { key, body: { name: 'Every second', monitor_ids: [monitorId], rrule: 'RRULE:FREQ=DAILY;BYHOUR=2;BYMINUTE=0', duration_seconds: 60 } });
    expect(window.status, window.text).to.equal(201);
    const [scheduled] = await vigil.commands.events.readStream(maintenanceStream(projectId));
    const { scheduled_at: _, ...settings } = scheduled!.data as Record<string, unknown>;
    const updated = { ...settings, rrule: EVERY_SECOND, updated_at: vigil.clock.now().toISOString() };
    await vigil.commands.events.appendToStream(maintenanceStream(projectId), [{ type: 'MaintenanceWindowUpdated', data: toJsonObject(updated), metadata: SYSTEM }], { expectedRevision: 'any' });
    await vigil.settle();

    const status = await timed('GET', '/status/shop');
    expect(status.response.status).to.equal(200);
    expect(status.ms, 'the status page').to.be.below(1000);
    expect(status.response.text).to.not.contain('Scheduled maintenance');
    const listed = await timed('GET', `/v1/projects/${projectId}/maintenance-windows`, { key });
    expect(listed.ms, 'the list of windows').to.be.below(1000);
    expect(listed.response.body.maintenance_windows[0]).to.include({ rrule: EVERY_SECOND, status: 'over', active_now: false });
    expect((await timed('GET', '/healthz')).ms).to.be.below(1000);
    const ping = await timed('GET', `/v1/ping/${monitorId}/fail`);
    expect(ping.response.status).to.equal(200);
    expect(ping.ms, 'a failing ping, whose incident reads the windows').to.be.below(1000);
    expect((await vigil.request('DELETE', `/v1/maintenance-windows/${window.body.maintenance_window.id}`, { key })).status, 'cancelled, to be scheduled again').to.equal(204);
  });
});
