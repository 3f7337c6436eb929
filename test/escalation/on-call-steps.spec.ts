import { expect } from 'chai';
import { type SeenRequest, type Target, reply, startTarget } from '../support/http-targets.js';
import { ALL_SCOPES, TestClock, TestVigil } from '../support/test-vigil.js';

/**
 * Where escalation meets the on-call schedules and quiet hours: a step that pages "whoever is on
 * call" reaches that person's own channel, and an urgent step goes through a channel's quiet hours
 * that hold an ordinary step.
 */
describe('Escalation to whoever is on call', function () {
  this.timeout(60_000);
  let vigil: TestVigil;
  let sink: Target;
  let ownerKey: string;
  let projectId: string;
  let ann: string;
  let bob: string;
  const heard = () => sink.seen.map((r: SeenRequest) => `${r.url.slice(1)}:${(JSON.parse(r.body) as { event: string }).event}`);

  beforeEach(async () => {
    sink = await startTarget(reply(200, 'ok'));
    // Wednesday 25 March 2026, 12:00 UTC: ann's week (from Monday 09:00 Berlin), bob's from the 30th.
    vigil = await TestVigil.start({ clock: new TestClock(Date.parse('2026-03-25T12:00:00.000Z')) });
    const owner = await vigil.user('owner@example.com');
    ann = await vigil.user('ann@example.com');
    bob = await vigil.user('bob@example.com');
    projectId = await vigil.project(owner, 'Ops');
    await vigil.member(projectId, ann, 'MEMBER');
    await vigil.member(projectId, bob, 'MEMBER');
    ownerKey = await vigil.accountKey(owner, ALL_SCOPES);
  });
  afterEach(async () => {
    await vigil.stop();
    await sink.close();
  });

  async function channel(name: string, extra: Record<string, unknown> = {}): Promise<string> {
    const created = await vigil.request('POST', '/v1/notification-channels', { key: ownerKey, body: { project_id: projectId, name, type: 'WEBHOOK', config: { url: `${sink.url}/${name}` }, ...extra } });
    expect(created.status, created.text).to.equal(201);
    return created.body.channel.id;
  }
  async function monitorWith(steps: Record<string, unknown>[]): Promise<string> {
    const policy = await vigil.request('POST', '/v1/escalation-policies', { key: ownerKey, body: { project_id: projectId, name: 'Database on-call', steps } });
    expect(policy.status, policy.text).to.equal(201);
    const monitor = await vigil.request('POST', '/v1/monitors', { key: ownerKey, body: { project_id: projectId, name: 'Backup', type: 'JOB_BASIC', schedule: 'nightly', escalation_policy_id: policy.body.escalation_policy.id } });
    expect(monitor.status, monitor.text).to.equal(201);
    return monitor.body.monitor.id;
  }
  const incidentOpens = async (monitorId: string) => {
    expect((await vigil.request('GET', `/v1/ping/${monitorId}/fail`)).status).to.equal(200);
    await vigil.notify();
  };

  it('pages the person on call through their own channel, and after the hand-off the next one', async () => {
    await channel('ann-phone', { owner_user_id: ann });
    await channel('bob-phone', { owner_user_id: bob });
    const schedule = await vigil.request('POST', '/v1/on-call-schedules', {
      key: ownerKey, body: { project_id: projectId, name: 'Database', time_zone: 'Europe/Berlin', handoff_time: '09:00', rotation: 'weekly', starts_on: '2026-03-23', participants: [ann, bob] },
    });
    expect(schedule.status, schedule.text).to.equal(201);
    const monitorId = await monitorWith([{ delay_seconds: 0, on_call_schedule_ids: [schedule.body.on_call_schedule.id] }]);

    await incidentOpens(monitorId);
    expect(heard()).to.deep.equal(['ann-phone:incident.opened']);

    await vigil.request('GET', `/v1/ping/${monitorId}`);
    await vigil.notify();
    expect(heard()).to.deep.equal(['ann-phone:incident.opened', 'ann-phone:incident.resolved']);

    // Monday 30 March 09:30 Berlin (summer time since Sunday): bob's week.
    vigil.clock.advance(Date.parse('2026-03-30T07:30:00.000Z') - vigil.clock.now().getTime());
    await incidentOpens(monitorId);
    expect(heard().slice(2)).to.deep.equal(['bob-phone:incident.opened']);
  });

  it("sends an urgent step through the channel's quiet hours and holds an ordinary one", async () => {
    const quiet = { days: [0, 1, 2, 3, 4, 5, 6], start: '08:00', end: '20:00', time_zone: 'UTC' };
    const pager = await channel('pager', { quiet_hours: quiet });
    const monitorId = await monitorWith([
      { delay_seconds: 0, notification_channel_ids: [pager], urgent: true },
      { delay_seconds: 300, notification_channel_ids: [pager] },
    ]);
    await incidentOpens(monitorId);
    expect(heard()).to.deep.equal(['pager:incident.opened']);

    vigil.clock.advance(5 * 60_000);
    await vigil.tick();
    await vigil.notify();
    expect(heard(), 'the second step waits for the end of the quiet hours').to.have.length(1);
    const history = (await vigil.request('GET', `/v1/projects/${projectId}/events?limit=200`, { key: ownerKey })).body.data as { type: string; data: { until?: string } }[];
    expect(history.filter((e) => e.type === 'DeliveryHeld').map((e) => e.data.until)).to.deep.equal(['2026-03-25T20:00:00.000Z']);

    vigil.clock.advance(Date.parse('2026-03-25T20:00:00.000Z') - vigil.clock.now().getTime());
    await vigil.tick();
    await vigil.notify();
    expect(heard().slice(1)).to.deep.equal(['pager:incident.repage']);
  });

  it('refuses to delete a schedule an escalation policy pages, naming the policy, and deletes it once no step does', async () => {
    const schedule = (await vigil.request('POST', '/v1/on-call-schedules', {
      key: ownerKey, body: { project_id: projectId, name: 'Database', time_zone: 'Europe/Berlin', handoff_time: '09:00', rotation: 'weekly', starts_on: '2026-03-23', participants: [ann] },
    })).body.on_call_schedule;
    const policy = (await vigil.request('POST', '/v1/escalation-policies', { key: ownerKey, body: { project_id: projectId, name: 'Database on-call', steps: [{ delay_seconds: 0, on_call_schedule_ids: [schedule.id] }] } })).body.escalation_policy;
    const refused = await vigil.request('DELETE', `/v1/on-call-schedules/${schedule.id}`, { key: ownerKey });
    expect(refused.status).to.equal(409);
    expect(refused.body.error).to.contain('"Database on-call"').and.to.contain(policy.id);
    expect((await vigil.request('GET', `/v1/on-call-schedules/${schedule.id}`, { key: ownerKey })).status).to.equal(200);

    const pager = await channel('pager');
    expect((await vigil.request('PATCH', `/v1/escalation-policies/${policy.id}`, { key: ownerKey, body: { steps: [{ delay_seconds: 0, notification_channel_ids: [pager] }] } })).status).to.equal(200);
    expect((await vigil.request('DELETE', `/v1/on-call-schedules/${schedule.id}`, { key: ownerKey })).status).to.equal(204);
  });
});
