import { expect } from 'chai';
import { commandContext } from '../../src/app/context.js';
import { receivePing } from '../../src/app/monitors.js';
import { appendsToStreamsAtOnce } from '../../src/eventstore/event-store.js';
import { startTarget } from '../support/http-targets.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

describe('Incident records outlive their monitor and its pings', () => {
  let vigil: TestVigil;
  let key: string;
  let projectId: string;
  beforeEach(async () => {
    vigil = await TestVigil.start();
    key = await vigil.accountKey(await vigil.user('retention@example.com'), ALL_SCOPES);
    projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Kept' } })).body.project.id;
  });
  afterEach(() => vigil.stop());

  it('keeps a deleted monitor’s incidents readable, timeline included, while its pings are gone', async () => {
    const m = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Doomed job', type: 'JOB_BASIC', schedule: 'x', alert_enabled: false } })).body.monitor;
    await vigil.request('GET', `/v1/ping/${m.id}/7`);
    await vigil.request('GET', `/v1/ping/${m.id}`);
    const [incident] = (await vigil.request('GET', `/v1/monitors/${m.id}/incidents`, { key })).body.data;
    const before = (await vigil.request('GET', `/v1/incidents/${incident.id}/timeline`, { key })).body;

    expect((await vigil.request('DELETE', `/v1/monitors/${m.id}`, { key })).status).to.equal(204);
    expect(await vigil.vigil.stores.events.readStream(`pings-${m.id}`)).to.deep.equal([]);
    const after = await vigil.request('GET', `/v1/incidents/${incident.id}`, { key });
    expect(after.status).to.equal(200);
    expect(after.body.incident).to.deep.equal(incident);
    expect((await vigil.request('GET', `/v1/incidents?project_id=${projectId}`, { key })).body.data.map((i: { id: string }) => i.id)).to.include(incident.id);
    const archived = (await vigil.request('GET', `/v1/incidents/${incident.id}/timeline`, { key })).body;
    expect(archived.entries).to.deep.equal(before.entries);
    expect(archived.configuration).to.deep.equal(before.configuration);
    expect(archived.entries.map((e: { summary: string }) => e.summary)).to.include('FAILURE ping with exit code 7 from 127.0.0.1');
  });

  it('archives an incident that a ping opened just before the delete, though the projector had not committed it yet', async () => {
    await vigil.stop();
    // The projector lets its batches gather for a second while nobody reads: it lags every ping.
    vigil = await TestVigil.start({ env: { VIGIL_PROJECTOR_LINGER_MS: '1000' } });
    key = await vigil.accountKey(await vigil.user('retention@example.com'), ALL_SCOPES);
    projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Kept' } })).body.project.id;
    const m = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Doomed job', type: 'JOB_BASIC', schedule: 'x', alert_enabled: false } })).body.monitor;
    expect((await vigil.request('GET', `/v1/ping/${m.id}/fail`)).status).to.equal(200);
    const opened = (await vigil.vigil.stores.events.readStream(`monitor-${m.id}`)).find((e) => e.type === 'IncidentOpened');
    const incidentId = String(opened?.data['incident_id']);

    expect((await vigil.request('DELETE', `/v1/monitors/${m.id}`, { key })).status).to.equal(204);
    const record = await vigil.vigil.stores.events.readStream(`incident-${incidentId}`);
    expect(record.map((e) => e.type)).to.include('IncidentArchived');
    // Resolved by whoever deleted the monitor: nothing could resolve it after.
    const kept = (await vigil.request('GET', `/v1/incidents/${incidentId}`, { key })).body.incident;
    expect(kept).to.include({ id: incidentId, status: 'RESOLVED' });
    expect(kept.resolved_by).to.include({ kind: 'user' });
  });

  it('archives an incident that a ping opened while the delete was under way, between its archiving and the deletion', async () => {
    const m = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Doomed job', type: 'JOB_BASIC', schedule: 'x', alert_enabled: false } })).body.monitor;
    // Another process's ping lands just before the deletion is appended (its first attempt then
    // meets the new events and decides again).
    const events = vigil.vigil.stores.events;
    if (!appendsToStreamsAtOnce(events)) throw new Error('the embedded store appends to several streams at once');
    const append = events.appendToStreams.bind(events);
    const elsewhere = commandContext(events);
    let raced = false;
    events.appendToStreams = async (appends) => {
      if (!raced && appends.some((a) => a.events.some((event) => event.type === 'MonitorDeleted'))) {
        raced = true;
        await receivePing(elsewhere, m.id, { event: 'FAILURE', run_id: null, exit_code: 1, duration_ms: null, message: null, payload: null, payload_truncated: false, payload_bytes: null, request_ip: null, request_ua: null }, { kind: 'system', user_id: null, api_key_id: null, request_id: null });
      }
      return append(appends);
    };
    try {
      expect((await vigil.request('DELETE', `/v1/monitors/${m.id}`, { key })).status).to.equal(204);
    } finally {
      events.appendToStreams = append;
    }
    expect(raced).to.equal(true);
    const [incident] = (await vigil.request('GET', `/v1/incidents?project_id=${projectId}`, { key })).body.data;
    // Resolved with the deletion itself, the API's resolving having come before the ping.
    expect(incident).to.include({ monitor_id: m.id, status: 'RESOLVED' });
    expect(incident.resolved_by).to.deep.equal({ kind: 'system', reason: 'MONITOR_DELETED' });
    const record = await events.readStream(`incident-${incident.id}`);
    expect(record.map((e) => e.type)).to.include('IncidentArchived');
  });

  it('keeps the evidence of an incident after retention has removed the pings that caused it', async () => {
    const m = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Job', type: 'JOB_BASIC', schedule: 'x', retention_count: 10, failure_tolerance: 3, alert_enabled: false } })).body.monitor;
    for (const code of [3, 4, 5]) await vigil.request('GET', `/v1/ping/${m.id}/${code}`);
    const [incident] = (await vigil.request('GET', `/v1/monitors/${m.id}/incidents`, { key })).body.data;
    for (let i = 0; i < 12; i++) await vigil.request('GET', `/v1/ping/${m.id}`);
    const pings = (await vigil.request('GET', `/v1/monitors/${m.id}/pings?event=FAILURE`, { key })).body.pagination.total;
    expect(pings).to.equal(0);
    const story = (await vigil.request('GET', `/v1/incidents/${incident.id}/timeline`, { key })).body;
    expect(story.entries.slice(0, 3).map((e: { summary: string }) => e.summary)).to.deep.equal([
      'FAILURE ping with exit code 3 from 127.0.0.1',
      'FAILURE ping with exit code 4 from 127.0.0.1',
      'FAILURE ping with exit code 5 from 127.0.0.1',
    ]);
    expect(story.configuration).to.include({ failure_tolerance: 3 });
  });

  it("keeps an uptime monitor's own history, its incident timelines whole, and its newest check results, summarized by the hour before they pass its retention", async () => {
    let status = 503;
    const site = await startTarget((_request, response) => {
      response.writeHead(status);
      response.end('x');
    });
    try {
      const created = await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Site', type: 'UPTIME_HTTP', schedule: '1m', uptime_url: site.url, retention_count: 10, alert_enabled: false } });
      const m = created.body.monitor;
      await vigil.check();
      const [incident] = (await vigil.request('GET', `/v1/monitors/${m.id}/incidents`, { key })).body.data;
      const before = (await vigil.request('GET', `/v1/incidents/${incident.id}/timeline`, { key })).body;
      status = 200;
      for (let i = 0; i < 12; i++) {
        vigil.clock.advance(61_000);
        await vigil.check();
      }
      const types = (await vigil.request('GET', `/v1/monitors/${m.id}/events?limit=200`, { key })).body.data.map((e: { type: string }) => e.type);
      expect(types).to.include.members(['MonitorCreated', 'IncidentOpened', 'MonitorWentDown', 'MonitorWentUp', 'IncidentResolved', 'ChecksSummarized']);
      // 13 checks, retention_count 10: the newest 10 stay; the summary written before the oldest left counts them all.
      expect(types.filter((type: string) => type === 'CheckCompleted')).to.have.length(10);
      const stats = (await vigil.request('GET', `/v1/monitors/${m.id}/response-time-stats?period_hours=24`, { key })).body;
      expect(stats).to.include({ total_checks: 13, up_count: 12, down_count: 1 });
      const after = (await vigil.request('GET', `/v1/incidents/${incident.id}/timeline`, { key })).body;
      expect(after.configuration).to.deep.equal(before.configuration);
      expect(after.entries.slice(0, before.entries.length)).to.deep.equal(before.entries);
    } finally {
      await site.close();
    }
  });

  it('erases everything with its project, by design', async () => {
    const m = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Job', type: 'JOB_BASIC', schedule: 'x', alert_enabled: false } })).body.monitor;
    await vigil.request('GET', `/v1/ping/${m.id}/fail`);
    const [incident] = (await vigil.request('GET', `/v1/monitors/${m.id}/incidents`, { key })).body.data;
    expect((await vigil.request('DELETE', `/v1/projects/${projectId}`, { key })).status).to.equal(204);
    expect((await vigil.request('GET', `/v1/incidents/${incident.id}`, { key })).status).to.equal(404);
    expect(await vigil.vigil.stores.readModels.count('incidents', { project_id: projectId })).to.equal(0);
  });
});
