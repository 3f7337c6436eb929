import { expect } from 'chai';
import { type Target, reply, startTarget } from '../support/http-targets.js';
import { ALL_SCOPES, TestClock, TestVigil } from '../support/test-vigil.js';

describe('Incident timeline', () => {
  let vigil: TestVigil;
  let key: string;
  let projectId: string;
  let sink: Target;
  beforeEach(async () => {
    sink = await startTarget(reply(204));
    vigil = await TestVigil.start({ clock: new TestClock(Date.now()) });
    key = await vigil.accountKey(await vigil.user('timeline@example.com'), ALL_SCOPES);
    projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Story' } })).body.project.id;
  });
  afterEach(async () => {
    await vigil.stop();
    await sink.close();
  });
  const timeline = async (incidentId: string) => (await vigil.request('GET', `/v1/incidents/${incidentId}/timeline`, { key })).body;

  it('tells a FAILED incident: the failing pings, the configuration then, the page and its delivery, the acknowledgement, and the ping that resolved it', async () => {
    const channel = (await vigil.request('POST', '/v1/notification-channels', { key, body: { project_id: projectId, name: 'Ops hook', type: 'WEBHOOK', config: { url: `${sink.url}/h` } } })).body.channel.id;
    const m = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Backup', type: 'JOB_BASIC', schedule: 'x', failure_tolerance: 2, notification_channel_ids: [channel] } })).body.monitor;
    await vigil.request('GET', `/v1/ping/${m.id}?message=warming`);
    await vigil.request('GET', `/v1/ping/${m.id}/1?message=${encodeURIComponent('disk full')}`);
    await vigil.request('GET', `/v1/ping/${m.id}/2`);
    await vigil.notify();
    const [incident] = (await vigil.request('GET', `/v1/monitors/${m.id}/incidents`, { key })).body.data;
    await vigil.request('POST', `/v1/incidents/${incident.id}/acknowledge`, { key });
    await vigil.notify();
    await vigil.request('GET', `/v1/ping/${m.id}`);
    await vigil.notify();

    const story = await timeline(incident.id);
    expect(story.incident).to.include({ id: incident.id, status: 'RESOLVED' });
    expect(story.configuration).to.include({ failure_tolerance: 2, type: 'JOB_BASIC' });
    expect(story.entries.map((e: { type: string }) => e.type)).to.deep.equal([
      'PingReceived', 'PingReceived', 'IncidentOpened', 'PageScheduled', 'PageFannedOut', 'PageDelivered',
      'IncidentAcknowledged', 'PageScheduled', 'PageFannedOut', 'PageDelivered',
      'PingReceived', 'IncidentResolved', 'PageScheduled', 'PageFannedOut', 'PageDelivered',
    ]);
    const summaries = story.entries.map((e: { summary: string }) => e.summary);
    expect(summaries[0]).to.equal('FAILURE ping with exit code 1: "disk full" from 127.0.0.1');
    expect(summaries[1]).to.equal('FAILURE ping with exit code 2 from 127.0.0.1');
    expect(summaries[2]).to.equal('FAILED incident opened: 2 consecutive failures; last exit code 2');
    expect(summaries[4]).to.equal('Page sent out to 1 channel');
    expect(summaries[5]).to.equal('Delivered to channel "Ops hook" (attempt 1)');
    expect(summaries[6]).to.equal('Acknowledged by timeline@example.com');
    expect(summaries[10]).to.equal('SUCCESS ping from 127.0.0.1');
    expect(summaries[11]).to.equal('Resolved automatically (SUCCESS_PING)');
    for (const entry of story.entries) expect(Object.keys(entry)).to.deep.equal(['at', 'type', 'summary', 'data']);
    const times = story.entries.map((e: { at: string }) => e.at);
    expect([...times].sort()).to.deep.equal(times);
  });

  it('tells a MISSED incident by the deadlines that passed, and one resolved by a person', async () => {
    const m = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Beat', type: 'JOB_HEARTBEAT', schedule: '1h', schedule_tolerance: 2, alert_enabled: false } })).body.monitor;
    // Deadlines count from a monitor's first ping.
    await vigil.request('GET', `/v1/ping/${m.id}`);
    vigil.clock.advance(2 * 3600_000 + 10 * 60_000);
    await vigil.tick();
    const [incident] = (await vigil.request('GET', `/v1/monitors/${m.id}/incidents`, { key })).body.data;
    await vigil.request('POST', `/v1/incidents/${incident.id}/resolve`, { key });
    const story = await timeline(incident.id);
    expect(story.entries.map((e: { type: string }) => e.type)).to.deep.equal(['CheckInMissed', 'CheckInMissed', 'IncidentOpened', 'IncidentResolved']);
    expect(story.entries[0].summary).to.match(/^No check-in for the run expected at .* by its deadline .* \(1 in a row\)$/);
    expect(story.entries[1].summary).to.match(/\(2 in a row\)$/);
    expect(story.entries[3].summary).to.equal('Resolved by timeline@example.com');
    expect(story.configuration).to.include({ schedule: '1h', schedule_tolerance: 2, grace_period_seconds: 300 });
  });

  describe('the evidence of each incident', () => {
    const monitor = async (body: Record<string, unknown>) =>
      (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Job', alert_enabled: false, ...body } })).body.monitor as { id: string };
    const incidents = async (id: string) => (await vigil.request('GET', `/v1/monitors/${id}/incidents`, { key })).body.data as { id: string; event: string }[];
    /** The summaries of the evidence: the entries before the incident opened. */
    const evidence = async (incidentId: string) => {
      const entries = (await timeline(incidentId)).entries as { type: string; summary: string }[];
      return entries.slice(0, entries.findIndex((e) => e.type === 'IncidentOpened')).map((e) => `${e.type}: ${e.summary}`);
    };

    it('at failure_tolerance 1, is the one failure, not the failures of an incident resolved before', async () => {
      const m = await monitor({ type: 'JOB_BASIC', schedule: 'x', failure_tolerance: 1 });
      await vigil.request('GET', `/v1/ping/${m.id}/3`);
      const [first] = await incidents(m.id);
      await vigil.request('POST', `/v1/incidents/${first!.id}/resolve`, { key });
      await vigil.request('GET', `/v1/ping/${m.id}/4`);
      const second = (await incidents(m.id)).find((i) => i.id !== first!.id)!;
      expect(await evidence(second.id)).to.deep.equal(['PingReceived: FAILURE ping with exit code 4 from 127.0.0.1']);
    });

    it('keeps the failures of a run of them when STARTs come between them (as vigil exec sends)', async () => {
      const m = await monitor({ type: 'JOB_BASIC', schedule: 'x', failure_tolerance: 2 });
      for (const code of [5, 6]) {
        await vigil.request('GET', `/v1/ping/${m.id}/start`);
        await vigil.request('GET', `/v1/ping/${m.id}/${code}`);
      }
      const [incident] = await incidents(m.id);
      expect(await evidence(incident!.id)).to.deep.equal([
        'PingReceived: FAILURE ping with exit code 5 from 127.0.0.1',
        'PingReceived: FAILURE ping with exit code 6 from 127.0.0.1',
      ]);
    });

    it('lists every miss that counted toward a MISSED incident, those of earlier timer fires too', async () => {
      const m = await monitor({ type: 'JOB_HEARTBEAT', schedule: '1h', grace_period_seconds: 300, schedule_tolerance: 3 });
      await vigil.request('GET', `/v1/ping/${m.id}`);
      // Each deadline (expected time plus grace) passed, and the timer fired after it: one miss a fire.
      vigil.clock.advance(3_600_000 + 10 * 60_000);
      for (const fire of [1, 2, 3]) {
        if (fire > 1) vigil.clock.advance(3_600_000);
        await vigil.tick();
        expect(await incidents(m.id), `after fire ${fire}`).to.have.length(fire === 3 ? 1 : 0);
      }
      const [incident] = await incidents(m.id);
      expect((await evidence(incident!.id)).map((e) => e.replace(/^.*\((\d+) in a row\)$/, '$1 in a row'))).to.deep.equal(['1 in a row', '2 in a row', '3 in a row']);
    });

    it('gives each incident opened by one timer fire its own observations', async () => {
      const m = await monitor({ type: 'JOB_HEARTBEAT', schedule: '1h', grace_period_seconds: 60, max_duration_seconds: 600 });
      await vigil.request('GET', `/v1/ping/${m.id}/start`);
      vigil.clock.advance(2 * 3_600_000);
      await vigil.tick();
      const byKind = new Map((await incidents(m.id)).map((i) => [i.event, i.id]));
      expect((await evidence(byKind.get('MISSED')!)).map((e) => e.split(':')[0])).to.deep.equal(['CheckInMissed']);
      expect((await evidence(byKind.get('DURATION_HIGH')!)).map((e) => e.split(':')[0])).to.deep.equal(['RunOverdue']);
    });
  });
});
