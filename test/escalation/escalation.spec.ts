import { expect } from 'chai';
import { type SeenRequest, type Target, reply, startTarget } from '../support/http-targets.js';
import { ALL_SCOPES, TestClock, TestVigil } from '../support/test-vigil.js';
import { incidentTimeline } from '../../src/queries/timeline.js';
import { channelNames, timelineRows } from '../../src/console/timeline.js';

const MINUTE = 60_000;

describe('Escalation', function () {
  this.timeout(60_000);
  let vigil: TestVigil;
  let key: string;
  let projectId: string;
  let sink: Target;
  const json = (request: SeenRequest) => JSON.parse(request.body) as { event: string };
  /** Which receiver heard what, in order: "step1:incident.opened". */
  const heard = () => sink.seen.map((r) => `${r.url.slice(1)}:${json(r).event}`);

  beforeEach(async () => {
    sink = await startTarget(reply(200, 'ok'));
    // Receivers check webhook timestamps against real time, so this clock starts at real time.
    vigil = await TestVigil.start({ clock: new TestClock(Date.now()), env: { VIGIL_REPAGE_INTERVAL_MINUTES: '30' } });
    key = await vigil.accountKey(await vigil.user('pager@example.com'), ALL_SCOPES);
    projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Escalated' } })).body.project.id;
  });
  afterEach(async () => {
    await vigil.stop();
    await sink.close();
  });

  async function hook(name: string): Promise<string> {
    const created = await vigil.request('POST', '/v1/notification-channels', { key, body: { project_id: projectId, name, type: 'WEBHOOK', config: { url: `${sink.url}/${name}` } } });
    expect(created.status, created.text).to.equal(201);
    return created.body.channel.id;
  }
  async function policy(body: Record<string, unknown>) {
    const created = await vigil.request('POST', '/v1/escalation-policies', { key, body: { project_id: projectId, name: 'Database', ...body } });
    expect(created.status, created.text).to.equal(201);
    return created.body.escalation_policy as { id: string; steps: unknown[] };
  }
  async function monitor(body: Record<string, unknown>) {
    const created = await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Nightly backup', type: 'JOB_BASIC', schedule: 'x', ...body } });
    expect(created.status, created.text).to.equal(201);
    return created.body.monitor as { id: string; escalation_policy_id: string | null };
  }
  /** Three steps: at once, after 5 and after 10 minutes, each to its own receiver. */
  async function threeSteps(extra: Record<string, unknown> = {}) {
    const [one, two, three] = [await hook('step1'), await hook('step2'), await hook('step3')];
    const p = await policy({
      steps: [{ delay_seconds: 0, notification_channel_ids: [one] }, { delay_seconds: 300, notification_channel_ids: [two] }, { delay_seconds: 600, notification_channel_ids: [three] }],
      ...extra,
    });
    return { policyId: p.id, m: await monitor({ escalation_policy_id: p.id, notification_channel_ids: [one, two, three] }) };
  }
  const fail = (monitorId: string) => vigil.request('GET', `/v1/ping/${monitorId}/fail`);
  const incidentOf = async (monitorId: string) => (await vigil.request('GET', `/v1/monitors/${monitorId}/incidents`, { key })).body.data[0] as { id: string };
  const later = async (minutes: number) => {
    vigil.clock.advance(minutes * MINUTE);
    await vigil.tick();
    await vigil.notify();
  };

  it('pages each step in order at its delay, and never repages on the monitor interval', async () => {
    const { m } = await threeSteps();
    expect(m.escalation_policy_id).to.be.a('string');
    await fail(m.id);
    await vigil.notify();
    expect(heard()).to.deep.equal(['step1:incident.opened']);
    await later(4);
    expect(heard()).to.have.length(1);
    await later(1);
    expect(heard()).to.deep.equal(['step1:incident.opened', 'step2:incident.repage']);
    await later(5);
    expect(heard()).to.deep.equal(['step1:incident.opened', 'step2:incident.repage', 'step3:incident.repage']);
    // The monitor's own 30-minute repage is replaced by the policy (repeat 0: once through).
    await later(60);
    expect(heard()).to.have.length(3);
    const incident = await incidentOf(m.id);
    const history = (await vigil.request('GET', `/v1/projects/${projectId}/events?limit=200`, { key })).body.data as { type: string; data: { incident_id?: string; step?: number } }[];
    const reached = history.filter((e) => e.type === 'EscalationStepReached' && e.data.incident_id === incident.id).map((e) => e.data.step);
    expect(reached).to.deep.equal([0, 1, 2]);
  });

  it('stops at an acknowledgement inside step 1: steps 2 and 3 are never paged, the acknowledgement goes to step 1 only', async () => {
    const { m } = await threeSteps();
    await fail(m.id);
    await vigil.notify();
    await later(2);
    const incident = await incidentOf(m.id);
    expect((await vigil.request('POST', `/v1/incidents/${incident.id}/acknowledge`, { key })).status).to.equal(200);
    await vigil.notify();
    await later(30);
    expect(heard()).to.deep.equal(['step1:incident.opened', 'step1:incident.acknowledged']);
  });

  it('sends the resolution only to the steps that were paged', async () => {
    const { m } = await threeSteps();
    await fail(m.id);
    await vigil.notify();
    await later(6);
    await vigil.request('GET', `/v1/ping/${m.id}`);
    await vigil.notify();
    await later(30);
    expect(heard().slice(0, 2)).to.deep.equal(['step1:incident.opened', 'step2:incident.repage']);
    // Delivered in parallel: in either order.
    expect(heard().slice(2).sort()).to.deep.equal(['step1:incident.resolved', 'step2:incident.resolved']);
  });

  it('tells the climb on the incident timeline in words', async () => {
    const { m } = await threeSteps();
    await fail(m.id);
    await vigil.notify();
    await later(5);
    const incident = await incidentOf(m.id);
    await vigil.request('POST', `/v1/incidents/${incident.id}/acknowledge`, { key });
    await vigil.notify();
    const { readModels, events } = vigil.vigil.stores;
    const rows = timelineRows((await incidentTimeline(readModels, events, incident.id, projectId)).entries, await channelNames(readModels, projectId)).map((r) => r.words);
    expect(rows).to.include('Escalated to step 1: Database, at the start, not acknowledged');
    expect(rows).to.include('Escalated to step 2: Database, 5 min after start, not acknowledged');
    expect(rows).to.include('Paged nobody directly: the escalation policy pages its steps instead');
    expect(rows.some((w) => /^Paged step 2: step2 — delivered/.test(w)), rows.join('\n')).to.equal(true);
    expect(rows).to.include('Escalation stopped: the incident was acknowledged; no later step is paged');
    expect(rows.some((w) => /^Told of the acknowledgement: step1 — delivered.*; step2 — delivered/.test(w)), rows.join('\n')).to.equal(true);
  });

  it('neither skips nor repeats a step across a restart of the server between steps', async () => {
    const { m } = await threeSteps();
    await fail(m.id);
    await vigil.notify();
    vigil.clock.advance(5 * MINUTE);
    await vigil.settle();
    await vigil.stopKeepingData();
    vigil = await TestVigil.reopen(vigil.dataDir, vigil.env, vigil.clock);
    await vigil.notify();
    await vigil.notify();
    expect(heard()).to.deep.equal(['step1:incident.opened', 'step2:incident.repage']);
    await vigil.stopKeepingData();
    vigil = await TestVigil.reopen(vigil.dataDir, vigil.env, vigil.clock);
    await vigil.notify();
    await later(5);
    await later(5);
    expect(heard()).to.deep.equal(['step1:incident.opened', 'step2:incident.repage', 'step3:incident.repage']);
  });

  it('repeats the steps `repeat` times, each round one last-step delay after the one before', async () => {
    const one = await hook('step1');
    const two = await hook('step2');
    const p = await policy({ steps: [{ delay_seconds: 0, notification_channel_ids: [one] }, { delay_seconds: 120, notification_channel_ids: [two], urgent: true }], repeat: 1 });
    const m = await monitor({ escalation_policy_id: p.id });
    await fail(m.id);
    await vigil.notify();
    await later(2);
    await later(2);
    await later(2);
    await later(60);
    expect(heard().map((h) => h.split(':')[0])).to.deep.equal(['step1', 'step2', 'step1', 'step2']);
  });

  it('is silenced, every step, by a maintenance window', async () => {
    const { m } = await threeSteps();
    const now = vigil.clock.now().getTime();
    const window = await vigil.request('POST', `/v1/projects/${projectId}/maintenance-windows`, {
      key, body: { name: 'Upgrade', starts_at: new Date(now - MINUTE).toISOString(), ends_at: new Date(now + 60 * MINUTE).toISOString() },
    });
    expect(window.status, window.text).to.equal(201);
    await vigil.settle();
    await fail(m.id);
    await vigil.notify();
    await later(5);
    await later(10);
    expect(heard()).to.deep.equal([]);
    expect((await vigil.request('GET', `/v1/monitors/${m.id}`, { key })).body.monitor.status).to.equal('DOWN');
  });

  it('holds a step that falls due inside a maintenance window begun since, and pages it when the window ends', async () => {
    const { m } = await threeSteps();
    await fail(m.id);
    await vigil.notify();
    const now = vigil.clock.now().getTime();
    const window = await vigil.request('POST', `/v1/projects/${projectId}/maintenance-windows`, {
      key, body: { name: 'Failover', starts_at: new Date(now + MINUTE).toISOString(), ends_at: new Date(now + 8 * MINUTE).toISOString() },
    });
    expect(window.status, window.text).to.equal(201);
    await later(5);
    await later(2);
    expect(heard()).to.deep.equal(['step1:incident.opened']);
    await later(1);
    expect(heard()).to.deep.equal(['step1:incident.opened', 'step2:incident.repage']);
    await later(2);
    expect(heard()).to.deep.equal(['step1:incident.opened', 'step2:incident.repage', 'step3:incident.repage']);
    const incident = await incidentOf(m.id);
    const history = (await vigil.request('GET', `/v1/projects/${projectId}/events?limit=200`, { key })).body.data as { type: string; data: { incident_id?: string } }[];
    expect(history.filter((e) => e.type === 'EscalationStepHeld' && e.data.incident_id === incident.id)).to.have.length(1);
  });

  it('refuses bad policies with a 400 naming the field', async () => {
    const channel = await hook('step1');
    const other = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Other' } })).body.project.id;
    const foreign = (await vigil.request('POST', '/v1/notification-channels', { key, body: { project_id: other, name: 'x', type: 'WEBHOOK', config: { url: `${sink.url}/x` } } })).body.channel.id;
    const cases: [unknown[], RegExp][] = [
      [[{ delay_seconds: 0 }], /^steps\[0\] must name at least one target/],
      [[{ delay_seconds: 0, notification_channel_ids: [channel] }, { delay_seconds: -1, notification_channel_ids: [channel] }], /^steps\[1\]\.delay_seconds/],
      [[{ delay_seconds: 86_401, notification_channel_ids: [channel] }], /^steps\[0\]\.delay_seconds/],
      [[{ delay_seconds: 0, notification_channel_ids: [foreign] }], /^steps\[0\]\.notification_channel_ids: notification channel .* does not exist in this project/],
      [[{ delay_seconds: 0, on_call_schedule_ids: [foreign] }], /^steps\[0\]\.on_call_schedule_ids/],
      [[], /^steps/],
    ];
    for (const [steps, error] of cases) {
      const answer = await vigil.request('POST', '/v1/escalation-policies', { key, body: { project_id: projectId, name: 'Bad', steps } });
      expect(answer.status, JSON.stringify(steps)).to.equal(400);
      expect(answer.body.error).to.match(error);
    }
    const otherPolicy = (await vigil.request('POST', '/v1/escalation-policies', {
      key, body: { project_id: other, name: 'Theirs', steps: [{ delay_seconds: 0, notification_channel_ids: [foreign] }] },
    })).body.escalation_policy.id;
    const refused = await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'm', type: 'JOB_BASIC', schedule: 'x', escalation_policy_id: otherPolicy } });
    expect(refused.status).to.equal(400);
    expect(refused.body.error).to.match(/^escalation_policy_id: /);
  });

  it('refuses to delete a policy monitors use, naming them, and clears them when asked to', async () => {
    const { policyId, m } = await threeSteps();
    const refused = await vigil.request('DELETE', `/v1/escalation-policies/${policyId}`, { key });
    expect(refused.status).to.equal(409);
    expect(refused.body.error).to.include(`"Nightly backup" (${m.id})`);
    expect((await vigil.request('GET', `/v1/escalation-policies/${policyId}`, { key })).status).to.equal(200);
    expect((await vigil.request('DELETE', `/v1/escalation-policies/${policyId}?clear_monitors=true`, { key })).status).to.equal(204);
    expect((await vigil.request('GET', `/v1/escalation-policies/${policyId}`, { key })).status).to.equal(404);
    expect((await vigil.request('GET', `/v1/monitors/${m.id}`, { key })).body.monitor.escalation_policy_id).to.equal(null);
  });

  it('lists, reads and changes policies; an edit does not change a running escalation', async () => {
    const { policyId, m } = await threeSteps();
    await fail(m.id);
    await vigil.notify();
    const changed = await vigil.request('PATCH', `/v1/escalation-policies/${policyId}`, { key, body: { name: 'Renamed', steps: [{ delay_seconds: 0, notification_channel_ids: [await hook('other')] }] } });
    expect(changed.status, changed.text).to.equal(200);
    expect(changed.body.escalation_policy).to.deep.include({ name: 'Renamed', repeat: 0 });
    const listed = (await vigil.request('GET', `/v1/escalation-policies?project_id=${projectId}`, { key })).body.escalation_policies;
    expect(listed.map((p: { id: string; monitors: unknown[] }) => [p.id, p.monitors])).to.deep.equal([[policyId, [{ id: m.id, name: 'Nightly backup' }]]]);
    await later(5);
    expect(heard()).to.deep.equal(['step1:incident.opened', 'step2:incident.repage']);
  });
});
