import { expect } from 'chai';
import { type Target, reply, startTarget } from '../support/http-targets.js';
import { ALL_SCOPES, TestClock, TestVigil } from '../support/test-vigil.js';

const MINUTE = 60_000;

describe('Maintenance windows', function () {
  this.timeout(60_000);
  let vigil: TestVigil;
  let clock: TestClock;
  let userId: string;
  let key: string;
  let projectId: string;
  let sink: Target;
  let channelId: string;
  const pages = () => sink.seen.filter((r) => r.url.startsWith('/slack')).map((r) => JSON.parse(r.body).text as string);

  beforeEach(async () => {
    sink = await startTarget(reply(200, 'ok'));
    // Saturday 2026-11-21 12:00 UTC (13:00 in Paris).
    clock = new TestClock();
    vigil = await TestVigil.start({ clock });
    userId = await vigil.user('ops@example.com');
    key = await vigil.accountKey(userId, ALL_SCOPES);
    projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Shop' } })).body.project.id;
    const channel = await vigil.request('POST', '/v1/notification-channels', { key, body: { project_id: projectId, name: 'Chat', type: 'SLACK', config: { webhook_url: `${sink.url}/slack/T0/B0/X` } } });
    expect(channel.status, channel.text).to.equal(201);
    channelId = channel.body.channel.id;
  });
  afterEach(async () => {
    await vigil.stop();
    await sink.close();
  });

  async function monitor(name = 'Nightly backup'): Promise<string> {
    const created = await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name, type: 'JOB_BASIC', schedule: 'x', notification_channel_ids: [channelId] } });
    expect(created.status, created.text).to.equal(201);
    return created.body.monitor.id;
  }
  async function schedule(body: Record<string, unknown>) {
    const created = await vigil.request('POST', `/v1/projects/${projectId}/maintenance-windows`, { key, body });
    expect(created.status, created.text).to.equal(201);
    return created.body.maintenance_window;
  }
  const fail = async (monitorId: string) => expect((await vigil.request('GET', `/v1/ping/${monitorId}/fail`)).status).to.equal(200);
  const succeed = async (monitorId: string) => expect((await vigil.request('GET', `/v1/ping/${monitorId}`)).status).to.equal(200);
  const incidents = async (monitorId: string) => (await vigil.request('GET', `/v1/monitors/${monitorId}/incidents`, { key })).body.data as { id: string; event: string; status: string; started_at: string }[];
  const events = async (monitorId: string, type: string) => (await vigil.request('GET', `/v1/monitors/${monitorId}/events?type=${type}`, { key })).body.data as { data: Record<string, unknown> }[];

  it('records a failure inside a window as suppressed, naming the window, pages nobody, and opens and pages it when the window ends with the monitor still failing', async () => {
    const m = await monitor();
    const window = await schedule({ name: 'Deploy', monitor_ids: [m], duration_seconds: 1800 });
    expect(window).to.include({ name: 'Deploy', kind: 'one_off', status: 'active', active_now: true, current_ends_at: '2026-11-21T12:30:00Z' });

    clock.advance(5 * MINUTE);
    await fail(m);
    await vigil.tick();
    await vigil.notify();
    expect(pages()).to.deep.equal([]);
    expect(await incidents(m)).to.deep.equal([]);
    const [suppressed] = await events(m, 'IncidentSuppressed');
    expect(suppressed!.data).to.include({ event: 'FAILED', window_id: window.id, window_name: 'Deploy', window_ends_at: '2026-11-21T12:30:00.000Z' });

    clock.advance(25 * MINUTE);
    await vigil.tick();
    await vigil.notify();
    const [opened] = await incidents(m);
    expect(opened).to.include({ id: suppressed!.data['incident_id'], event: 'FAILED', status: 'OPEN', started_at: '2026-11-21T12:30:00.000Z' });
    expect(pages()).to.have.length(1);
    expect(pages()[0]).to.match(/^🔴 FAILED: Nightly backup/);

    const timeline = (await vigil.request('GET', `/v1/incidents/${opened!.id}/timeline`, { key })).body.entries as { type: string; summary: string }[];
    const held = timeline.find((e) => e.type === 'IncidentSuppressed');
    expect(held?.summary).to.match(/held back by maintenance window "Deploy"/);
    expect(timeline.map((e) => e.type)).to.include.members(['IncidentSuppressed', 'IncidentOpened']);
  });

  it('opens nothing, and pages nobody, when the monitor recovered inside the window', async () => {
    const m = await monitor();
    await schedule({ name: 'Deploy', duration_seconds: 1800 });
    await fail(m);
    clock.advance(MINUTE);
    await succeed(m);
    clock.advance(40 * MINUTE);
    await vigil.tick();
    await vigil.notify();
    expect(await incidents(m)).to.deep.equal([]);
    expect(pages()).to.deep.equal([]);
    expect((await events(m, 'SuppressedIncidentCleared'))[0]!.data).to.include({ event: 'FAILED', reason: 'SUCCESS_PING' });
  });

  it('opens what is still failing at once when the window is ended early, and pages', async () => {
    const m = await monitor();
    const window = await schedule({ name: 'Deploy', monitor_ids: [m], duration_seconds: 3600 });
    await fail(m);
    await vigil.notify();
    expect(await incidents(m)).to.deep.equal([]);
    expect(pages()).to.deep.equal([]);
    clock.advance(10 * MINUTE);
    await vigil.tick();
    const ended = await vigil.request('POST', `/v1/maintenance-windows/${window.id}/end`, { key });
    expect(ended.status, ended.text).to.equal(200);
    expect(ended.body.maintenance_window).to.include({ status: 'over', active_now: false, ended_at: '2026-11-21T12:10:00Z' });
    await vigil.tick();
    await vigil.notify();
    expect((await incidents(m)).map((i) => i.status)).to.deep.equal(['OPEN']);
    expect(pages()).to.have.length(1);
  });

  it('holds back again under a second window that covers the monitor when the first ends', async () => {
    const m = await monitor();
    await schedule({ name: 'Deploy', duration_seconds: 1800 });
    await schedule({ name: 'Migration', monitor_ids: [m], starts_at: '2026-11-21T12:20:00Z', ends_at: '2026-11-21T13:00:00Z' });
    await fail(m);
    clock.advance(30 * MINUTE);
    await vigil.tick();
    await vigil.notify();
    expect(await incidents(m)).to.deep.equal([]);
    expect((await events(m, 'IncidentSuppressed')).map((e) => e.data['window_name'])).to.deep.equal(['Deploy', 'Migration']);
  });

  it('covers the occurrences of a recurring window in its time zone, and only those', async () => {
    const covered = await monitor('Covered');
    const other = await monitor('Other');
    // 13:00 in Paris is 12:00 UTC in November; 13:00 in New York is 18:00 UTC.
    const paris = await schedule({ name: 'Paris lunch', monitor_ids: [covered], rrule: 'RRULE:FREQ=DAILY;BYHOUR=13;BYMINUTE=0', timezone: 'Europe/Paris', duration_seconds: 3600 });
    const newYork = await schedule({ name: 'New York lunch', monitor_ids: [other], rrule: 'RRULE:FREQ=DAILY;BYHOUR=13;BYMINUTE=0', timezone: 'America/New_York', duration_seconds: 3600 });
    expect(paris).to.include({ kind: 'recurring', active_now: true, current_ends_at: '2026-11-21T13:00:00Z', next_starts_at: '2026-11-22T12:00:00Z' });
    expect(newYork).to.include({ active_now: false, status: 'upcoming', next_starts_at: '2026-11-21T18:00:00Z' });

    clock.advance(10 * MINUTE);
    await fail(covered);
    await fail(other);
    await vigil.notify();
    expect(await incidents(covered)).to.deep.equal([]);
    expect((await incidents(other)).map((i) => i.event)).to.deep.equal(['FAILED']);
    expect(pages()).to.have.length(1);
    expect(pages()[0]).to.match(/Other/);
  });

  it('lists a project\'s windows, and no longer lists a cancelled one', async () => {
    const a = await schedule({ name: 'Deploy', duration_seconds: 600 });
    await schedule({ name: 'Later', starts_at: '2026-11-22T00:00:00Z', ends_at: '2026-11-22T01:00:00Z' });
    const listed = (await vigil.request('GET', `/v1/projects/${projectId}/maintenance-windows`, { key })).body.maintenance_windows;
    expect(listed.map((w: { name: string; status: string }) => [w.name, w.status])).to.deep.equal([['Deploy', 'active'], ['Later', 'upcoming']]);
    expect((await vigil.request('DELETE', `/v1/maintenance-windows/${a.id}`, { key })).status).to.equal(204);
    expect((await vigil.request('GET', `/v1/maintenance-windows/${a.id}`, { key })).status).to.equal(404);
    expect((await vigil.request('GET', `/v1/projects/${projectId}/maintenance-windows`, { key })).body.maintenance_windows).to.have.length(1);
  });

  it('refuses a bad window with a 400 naming the field', async () => {
    const otherProject = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Other' } })).body.project.id;
    const stranger = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: otherProject, name: 'Theirs', type: 'JOB_BASIC', schedule: 'x' } })).body.monitor.id;
    const refused = async (body: Record<string, unknown>, message: RegExp) => {
      const response = await vigil.request('POST', `/v1/projects/${projectId}/maintenance-windows`, { key, body });
      expect(response.status, response.text).to.equal(400);
      expect(response.body.error).to.match(message);
    };
    await refused({ duration_seconds: 600 }, /name/);
    await refused({ name: 'X', starts_at: '2026-11-21T13:00:00Z', ends_at: '2026-11-21T12:00:00Z' }, /^ends_at: /);
    await refused({ name: 'X', starts_at: 'tomorrow', ends_at: '2026-11-21T12:00:00Z' }, /starts_at/);
    await refused({ name: 'X' }, /^ends_at: a one-off window needs ends_at or duration_seconds/);
    await refused({ name: 'X', rrule: 'RRULE:FREQ=HOURLY', duration_seconds: 600 }, /^rrule: /);
    await refused({ name: 'X', rrule: 'RRULE:FREQ=DAILY', timezone: 'Nowhere/Land', duration_seconds: 600 }, /^timezone: /);
    await refused({ name: 'X', rrule: 'RRULE:FREQ=DAILY' }, /^duration_seconds: /);
    await refused({ name: 'X', duration_seconds: 600, monitor_ids: [stranger] }, /^monitor_ids\[0\]: /);
    expect((await vigil.request('GET', `/v1/projects/${projectId}/maintenance-windows`, { key })).body.maintenance_windows).to.deep.equal([]);
  });

  it('refuses a recurring window whose RRULE has more occurrences than a look-up may walk, with a 400 naming rrule and why', async () => {
    // Issue 37: a rule on every second of every day, accepted once, froze the server for minutes
    // (walked from January 1st: early in January, to fail fast without the limits).
    clock.advance(Date.parse('2027-01-01T06:00:00Z') - clock.now().getTime());
    key = await vigil.accountKey(userId, ALL_SCOPES);
    const until = (n: number) => Array.from({ length: n }, (_, i) => i).join(',');
    const everyDay = 'BYDAY=MO,TU,WE,TH,FR,SA,SU';
    const refusals: [string, RegExp][] = [
      [`RRULE:FREQ=YEARLY;${everyDay};BYHOUR=${until(24)};BYMINUTE=${until(60)};BYSECOND=${until(60)}`, /^rrule: RRULE BYSECOND takes one value, got 60: occurrences less than a minute apart/],
      [`RRULE:FREQ=YEARLY;${everyDay};BYHOUR=${until(24)};BYMINUTE=${until(60)}`, /^rrule: RRULE has up to 527040 occurrences a year .*at most 500/],
    ];
    for (const [rrule, message] of refusals) {
      const response = await vigil.request('POST', `/v1/projects/${projectId}/maintenance-windows`, { key, body: { name: 'Every second', rrule, duration_seconds: 60 } });
      expect(response.status, response.text).to.equal(400);
      expect(response.body.error).to.match(message);
    }
  });
});
