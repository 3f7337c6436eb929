import { expect } from 'chai';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

describe('Event history API', () => {
  let vigil: TestVigil;
  let key: string;
  let ownerId: string;
  let projectId: string;
  before(async () => {
    vigil = await TestVigil.start();
    ownerId = await vigil.user('history-api@example.com');
    key = await vigil.accountKey(ownerId, ALL_SCOPES);
    projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'History' } })).body.project.id;
  });
  after(() => vigil.stop());

  it("shows a monitor's events in order with type, time, actor and data", async () => {
    const m = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Job', type: 'JOB_BASIC', schedule: 'x' } })).body.monitor;
    await vigil.request('GET', `/v1/ping/${m.id}/fail`);
    await vigil.request('PATCH', `/v1/monitors/${m.id}`, { key, body: { name: 'Job 2' } });
    const history = await vigil.request('GET', `/v1/monitors/${m.id}/events`, { key });
    expect(history.status).to.equal(200);
    const types = history.body.data.map((e: { type: string }) => e.type);
    expect(types).to.deep.equal(['SlugClaimed', 'MonitorCreated', 'PingReceived', 'MonitorWentDown', 'IncidentOpened', 'PageScheduled', 'IncidentEvidenceRecorded', 'MonitorUpdated']);
    const created = history.body.data[1];
    expect(Object.keys(created)).to.deep.equal(['id', 'type', 'time', 'actor', 'stream', 'revision', 'data']);
    expect(created.actor).to.deep.include({ kind: 'user', user_id: ownerId });
    expect(created.data.config.name).to.equal('Job');
    expect(history.body.data[2].actor.kind).to.equal('system');
    const filtered = await vigil.request('GET', `/v1/monitors/${m.id}/events?type=IncidentOpened,MonitorUpdated`, { key });
    expect(filtered.body.data.map((e: { type: string }) => e.type)).to.deep.equal(['IncidentOpened', 'MonitorUpdated']);
    expect((await vigil.request('GET', `/v1/monitors/${m.id}/events?type=Nope`, { key })).status).to.equal(400);
    const future = await vigil.request('GET', `/v1/monitors/${m.id}/events?from=2099-01-01T00:00:00Z`, { key });
    expect(future.body.pagination.total).to.equal(0);
  });

  it("pages a monitor's history with its pings among its other events, as many as retention keeps", async () => {
    const m = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Paged', type: 'JOB_BASIC', schedule: 'x', retention_count: 10, failure_tolerance: 100 } })).body.monitor;
    for (let round = 0; round < 4; round++) {
      for (let n = 0; n < 4; n++) await vigil.request('GET', `/v1/ping/${m.id}${n === 0 ? '/start' : ''}`);
      await vigil.request('PATCH', `/v1/monitors/${m.id}`, { key, body: { name: `Paged ${round}` } });
    }
    const all = (await vigil.request('GET', `/v1/monitors/${m.id}/events?limit=200`, { key })).body;
    const pings = all.data.filter((e: { type: string }) => e.type === 'PingReceived');
    expect(pings.map((e: { revision: number }) => e.revision)).to.deep.equal([6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    expect(all.pagination.total).to.equal(all.data.length);
    expect(all.data.filter((e: { type: string }) => e.type === 'MonitorUpdated')).to.have.length(4);
    const positions = all.data.map((e: { stream: string; revision: number }) => `${e.stream}@${e.revision}`);
    for (const limit of [1, 3, 7]) {
      const paged: string[] = [];
      for (let page = 1; page <= Math.ceil(all.data.length / limit) + 1; page++) {
        const body = (await vigil.request('GET', `/v1/monitors/${m.id}/events?limit=${limit}&page=${page}`, { key })).body;
        expect(body.pagination.total).to.equal(all.data.length);
        paged.push(...body.data.map((e: { stream: string; revision: number }) => `${e.stream}@${e.revision}`));
      }
      expect(paged, `pages of ${limit}`).to.deep.equal(positions);
    }
    const onlyPings = (await vigil.request('GET', `/v1/monitors/${m.id}/events?type=PingReceived&limit=200`, { key })).body;
    expect(onlyPings.data).to.deep.equal(pings);
    expect(onlyPings.data[0]).to.deep.include({ type: 'PingReceived', stream: `pings-${m.id}`, actor: { kind: 'system', user_id: null, api_key_id: null } });
    expect(onlyPings.data[0].data).to.include({ monitor_id: m.id, event: 'SUCCESS' });
    const noPings = (await vigil.request('GET', `/v1/monitors/${m.id}/events?type=MonitorUpdated`, { key })).body;
    expect(noPings.data.map((e: { type: string }) => e.type)).to.deep.equal(['MonitorUpdated', 'MonitorUpdated', 'MonitorUpdated', 'MonitorUpdated']);
    const late = (await vigil.request('GET', `/v1/monitors/${m.id}/events?from=${pings[5].time}&type=PingReceived`, { key })).body;
    expect(late.data.map((e: { id: string }) => e.id)).to.deep.equal(pings.filter((e: { time: string }) => e.time >= pings[5].time).map((e: { id: string }) => e.id));
  });

  it('shows the project history with secrets redacted, keeping the record of a deleted monitor', async () => {
    await vigil.request('POST', '/v1/notification-channels', { key, body: { project_id: projectId, name: 'Hook', type: 'SLACK', config: { webhook_url: 'https://hooks.example/SECRET-PATH' } } });
    const doomed = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Doomed', type: 'JOB_BASIC', schedule: 'x' } })).body.monitor;
    await vigil.request('DELETE', `/v1/monitors/${doomed.id}`, { key });
    const history = await vigil.request('GET', `/v1/projects/${projectId}/events?limit=200`, { key });
    expect(history.text).to.not.include('SECRET-PATH');
    const types = history.body.data.map((e: { type: string }) => e.type);
    expect(types[0]).to.equal('ProjectCreated');
    expect(history.body.data[0].data.ping_key).to.equal('[redacted]');
    const channel = history.body.data.find((e: { type: string }) => e.type === 'ChannelCreated');
    expect(channel.data.config_sealed).to.equal('[redacted]');
    const removed = history.body.data.find((e: { type: string }) => e.type === 'ProjectMonitorRemoved');
    expect(removed.data).to.include({ monitor_id: doomed.id, name: 'Doomed' });
    // Its own streams are gone; the slug claim, the removal and the end of the deletion stay in the project's history.
    expect(history.body.data.filter((e: { data: { monitor_id?: string } }) => e.data.monitor_id === doomed.id).map((e: { type: string }) => e.type)).to.deep.equal([
      'SlugClaimed', 'ProjectMonitorRemoved', 'SlugReleased', 'ProjectMonitorStreamsDeleted',
    ]);
    const stranger = await vigil.accountKey(await vigil.user('history-stranger@example.com'), ALL_SCOPES);
    expect((await vigil.request('GET', `/v1/projects/${projectId}/events`, { key: stranger })).status).to.equal(404);
  });
});
