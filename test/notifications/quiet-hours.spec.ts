import { expect } from 'chai';
import { type Target, reply, startTarget } from '../support/http-targets.js';
import { ALL_SCOPES, TestClock, TestVigil } from '../support/test-vigil.js';

const NIGHTS = { days: [0, 1, 2, 3, 4, 5, 6], start: '22:00', end: '07:00', time_zone: 'Europe/Berlin' };

describe('Quiet hours', function () {
  this.timeout(60_000);
  let vigil: TestVigil;
  let key: string;
  let projectId: string;
  let sink: Target;

  beforeEach(async () => {
    sink = await startTarget(reply(200, 'ok'));
    // Friday 27 November 2026, 22:30 in Berlin: inside the quiet hours, which end at 07:00 (06:00Z).
    vigil = await TestVigil.start({ clock: new TestClock(Date.parse('2026-11-27T21:30:00.000Z')), env: { VIGIL_REPAGE_INTERVAL_MINUTES: '1440' } });
    key = await vigil.accountKey(await vigil.user('quiet@example.com'), ALL_SCOPES);
    projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Quiet' } })).body.project.id;
  });
  afterEach(async () => {
    await vigil.stop();
    await sink.close();
  });

  async function hook(name: string, extra: Record<string, unknown>) {
    const created = await vigil.request('POST', '/v1/notification-channels', { key, body: { project_id: projectId, name, type: 'WEBHOOK', config: { url: `${sink.url}/${name}` }, ...extra } });
    expect(created.status, created.text).to.equal(201);
    return created.body.channel as { id: string; quiet_hours: unknown };
  }

  it('holds a page inside the quiet hours, records it held, and sends it when they end', async () => {
    const night = await hook('night', { quiet_hours: NIGHTS });
    const always = await hook('always', {});
    expect(night.quiet_hours).to.deep.equal(NIGHTS);
    const monitor = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Backup', type: 'JOB_BASIC', schedule: 'x', notification_channel_ids: [night.id, always.id] } })).body.monitor;
    await vigil.request('GET', `/v1/ping/${monitor.id}/fail`);
    await vigil.notify();
    expect(sink.seen.map((r) => r.url)).to.deep.equal(['/always']);

    const incident = (await vigil.request('GET', `/v1/incidents?project_id=${projectId}`, { key })).body.data[0];
    const timeline = (await vigil.request('GET', `/v1/incidents/${incident.id}/timeline`, { key })).body.entries as { type: string; summary: string; data: Record<string, unknown> }[];
    const held = timeline.find((e) => e.type === 'DeliveryHeld');
    expect(held?.summary).to.equal('Held for quiet hours on channel "night" until 07:00 (Europe/Berlin, 2026-11-28T06:00:00.000Z)');
    expect(held?.data).to.include({ channel_id: night.id, until: '2026-11-28T06:00:00.000Z', at: '2026-11-27T21:30:00.000Z' });

    vigil.clock.advance(8 * 3_600_000 + 29 * 60_000);
    await vigil.notify();
    expect(sink.seen.map((r) => r.url), 'still quiet at 06:59').to.deep.equal(['/always']);

    vigil.clock.advance(60_000);
    await vigil.notify();
    expect(sink.seen.map((r) => r.url)).to.deep.equal(['/always', '/night']);
    expect(sink.seen[1]!.headers['webhook-id']).to.be.a('string');
    const after = (await vigil.request('GET', `/v1/incidents/${incident.id}/timeline`, { key })).body.entries as { type: string; data: Record<string, unknown> }[];
    expect(after.filter((e) => e.type === 'DeliveryHeld')).to.have.length(1);
    expect(after.find((e) => e.type === 'PageDelivered' && e.data['channel_id'] === night.id)?.data['at']).to.equal('2026-11-28T06:00:00.000Z');
    await vigil.notify();
    expect(sink.seen).to.have.length(2);
  });

  it('keeps a held page held through a restart, and sends it once the hours end', async () => {
    const night = await hook('night', { quiet_hours: NIGHTS });
    const monitor = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Backup', type: 'JOB_BASIC', schedule: 'x', notification_channel_ids: [night.id] } })).body.monitor;
    await vigil.request('GET', `/v1/ping/${monitor.id}/fail`);
    await vigil.notify();
    await vigil.stopKeepingData();
    vigil = await TestVigil.reopen(vigil.dataDir, vigil.env, vigil.clock);
    await vigil.notify();
    expect(sink.seen).to.have.length(0);
    vigil.clock.advance(9 * 3_600_000);
    await vigil.notify();
    expect(sink.seen.map((r) => r.url)).to.deep.equal(['/night']);
  });

  it('answers 400 naming the quiet hours field that is wrong, and clears them with null', async () => {
    const bad = async (quiet: unknown, field: RegExp) => {
      const response = await vigil.request('POST', '/v1/notification-channels', { key, body: { project_id: projectId, name: 'x', type: 'WEBHOOK', config: { url: `${sink.url}/x` }, quiet_hours: quiet } });
      expect(response.status, response.text).to.equal(400);
      expect(response.body.error).to.match(field);
    };
    await bad({ ...NIGHTS, start: '25:00' }, /^quiet_hours\.start: /);
    await bad({ ...NIGHTS, end: undefined }, /^quiet_hours\.end is required/);
    await bad({ ...NIGHTS, days: [1, 9] }, /^quiet_hours\.days\[1\]: /);
    await bad({ ...NIGHTS, time_zone: 'Mars/Olympus' }, /^quiet_hours\.time_zone: /);
    await bad('nights', /^quiet_hours must be an object/);
    const night = await hook('night', { quiet_hours: NIGHTS });
    const cleared = await vigil.request('PATCH', `/v1/notification-channels/${night.id}`, { key, body: { quiet_hours: null } });
    expect(cleared.status, cleared.text).to.equal(200);
    expect(cleared.body.channel.quiet_hours).to.equal(null);
  });
});
