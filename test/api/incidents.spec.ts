import { expect } from 'chai';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

describe('Incidents and the status machine', () => {
  let vigil: TestVigil;
  let key: string;
  let ownerId: string;
  let projectId: string;
  before(async () => {
    vigil = await TestVigil.start();
    ownerId = await vigil.user('incidents@example.com');
    key = await vigil.accountKey(ownerId, ALL_SCOPES);
    projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Incidents' } })).body.project.id;
  });
  after(() => vigil.stop());

  async function monitor(body: Record<string, unknown> = {}) {
    const created = await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Job', type: 'JOB_HEARTBEAT', schedule: '1h', ...body } });
    return created.body.monitor as { id: string; name: string; slug: string };
  }
  const ping = (id: string, suffix = '') => vigil.request('GET', `/v1/ping/${id}${suffix}`);
  const read = async (id: string) => (await vigil.request('GET', `/v1/monitors/${id}`, { key })).body.monitor;
  const incidentsOf = async (id: string, query = '') => (await vigil.request('GET', `/v1/monitors/${id}/incidents${query}`, { key })).body;

  it('goes DOWN with one FAILED incident when failures reach failure_tolerance, and UP again on SUCCESS', async () => {
    const m = await monitor({ failure_tolerance: 2 });
    await ping(m.id, '/fail');
    expect(await read(m.id)).to.include({ status: 'UP', consecutive_failures: 1 });
    expect((await incidentsOf(m.id)).data).to.deep.equal([]);
    await ping(m.id, '/2');
    expect(await read(m.id)).to.include({ status: 'DOWN', consecutive_failures: 2 });
    await ping(m.id, '/3');
    const [incident, ...others] = (await incidentsOf(m.id)).data;
    expect(others).to.deep.equal([]);
    expect(incident).to.include({ event: 'FAILED', status: 'OPEN', cause: '2 consecutive failures; last exit code 2', monitor_id: m.id, project_id: projectId });
    expect(incident.monitor).to.deep.equal({ id: m.id, name: m.name, slug: m.slug, project_id: projectId });

    vigil.clock.advance(60_000);
    await ping(m.id);
    const up = await read(m.id);
    expect(up).to.include({ status: 'UP', consecutive_failures: 0, last_success_at: vigil.clock.now().toISOString() });
    const resolved = (await vigil.request('GET', `/v1/incidents/${incident.id}`, { key })).body.incident;
    expect(resolved).to.include({ status: 'RESOLVED', resolved_at: vigil.clock.now().toISOString() });
    expect(resolved.resolved_by).to.deep.equal({ kind: 'system', reason: 'SUCCESS_PING' });
  });

  it('acknowledges only OPEN incidents, records who, and resolves anything not RESOLVED', async () => {
    const m = await monitor();
    await ping(m.id, '/fail');
    const [incident] = (await incidentsOf(m.id)).data;
    const acknowledged = await vigil.request('POST', `/v1/incidents/${incident.id}/acknowledge`, { key });
    expect(acknowledged.status).to.equal(200);
    expect(acknowledged.body.incident).to.include({ status: 'ACKNOWLEDGED', acknowledged_at: vigil.clock.now().toISOString() });
    expect(acknowledged.body.incident.acknowledged_by).to.deep.include({ kind: 'user', user_id: ownerId, email: 'incidents@example.com' });
    expect(acknowledged.body.incident.acknowledged_by.api_key_id).to.be.a('string');
    const again = await vigil.request('POST', `/v1/incidents/${incident.id}/acknowledge`, { key });
    expect(again.status).to.equal(400);
    expect(again.body.error).to.match(/only an OPEN incident can be acknowledged; this one is ACKNOWLEDGED/);

    const resolved = await vigil.request('POST', `/v1/incidents/${incident.id}/resolve`, { key });
    expect(resolved.status).to.equal(200);
    expect(resolved.body.incident.status).to.equal('RESOLVED');
    expect(resolved.body.incident.resolved_by).to.deep.include({ kind: 'user', user_id: ownerId });
    expect(await read(m.id)).to.include({ status: 'DOWN' });
    const twice = await vigil.request('POST', `/v1/incidents/${incident.id}/resolve`, { key });
    expect(twice).to.deep.include({ status: 400, body: { error: 'the incident is already RESOLVED' } });
    expect((await vigil.request('POST', `/v1/incidents/${incident.id}/acknowledge`, { key })).status).to.equal(400);
    expect((await vigil.request('POST', '/v1/incidents/7d1b5d0e-8b8a-4f0f-9d5e-1c2b3a4d5e6f/resolve', { key })).status).to.equal(404);
  });

  it("resolves a deleted monitor's open incidents, by whoever deleted it, so that none stays OPEN for good", async () => {
    const m = await monitor({ failure_tolerance: 1 });
    await ping(m.id, '/fail');
    const [incident] = (await incidentsOf(m.id)).data;
    expect(incident.status).to.equal('OPEN');
    expect((await vigil.request('DELETE', `/v1/monitors/${m.id}`, { key })).status).to.equal(204);
    const kept = (await vigil.request('GET', `/v1/incidents/${incident.id}`, { key })).body.incident;
    expect(kept).to.include({ status: 'RESOLVED' });
    expect(kept.resolved_by).to.include({ kind: 'user' });
    const open = (await vigil.request('GET', `/v1/incidents?project_id=${projectId}&status=OPEN,ACKNOWLEDGED`, { key })).body.data;
    expect(open.map((i: { id: string }) => i.id)).to.not.include(incident.id);
    // Found, but archived: it can no longer change.
    for (const action of ['acknowledge', 'resolve']) {
      const refused = await vigil.request('POST', `/v1/incidents/${incident.id}/${action}`, { key });
      expect(refused, action).to.deep.include({ status: 400, body: { error: `incident ${incident.id} is RESOLVED and archived with its deleted monitor; it can no longer change` } });
    }
  });

  it('lets a MEMBER acknowledge, but not a READONLY member', async () => {
    const m = await monitor();
    await ping(m.id, '/fail');
    const [incident] = (await incidentsOf(m.id)).data;
    const readerId = await vigil.user('incident-reader@example.com');
    const memberId = await vigil.user('incident-member@example.com');
    await vigil.member(projectId, readerId, 'READONLY');
    await vigil.member(projectId, memberId, 'MEMBER');
    const reader = await vigil.accountKey(readerId, ['manage_monitors']);
    const member = await vigil.accountKey(memberId, ['manage_monitors']);
    expect((await vigil.request('POST', `/v1/incidents/${incident.id}/acknowledge`, { key: reader })).status).to.equal(403);
    expect((await vigil.request('GET', `/v1/incidents/${incident.id}`, { key: reader })).status).to.equal(200);
    expect((await vigil.request('POST', `/v1/incidents/${incident.id}/acknowledge`, { key: member })).status).to.equal(200);
    const strangerKey = await vigil.accountKey(await vigil.user('incident-stranger@example.com'), ALL_SCOPES);
    expect((await vigil.request('POST', `/v1/incidents/${incident.id}/resolve`, { key: strangerKey })).status).to.equal(404);
  });

  it('forces a DOWN monitor UP through PATCH status, resetting counters and resolving its incident', async () => {
    const m = await monitor({ failure_tolerance: 1 });
    await ping(m.id, '/fail');
    const forced = await vigil.request('PATCH', `/v1/monitors/${m.id}`, { key, body: { status: 'UP' } });
    expect(forced.body.monitor).to.include({ status: 'UP', consecutive_failures: 0, consecutive_misses: 0, consecutive_alerts: 0 });
    const [incident] = (await incidentsOf(m.id)).data;
    expect(incident.status).to.equal('RESOLVED');
    expect(incident.resolved_by).to.deep.include({ kind: 'user', user_id: ownerId });
    await ping(m.id, '/fail');
    expect(await read(m.id)).to.include({ status: 'DOWN', consecutive_failures: 1 });
  });

  it('opens DURATION_HIGH on a slow run without going DOWN, and resolves it on the next in-range run', async () => {
    const m = await monitor({ max_duration_seconds: 60 });
    await ping(m.id, '/start?run_id=a');
    vigil.clock.advance(120_000);
    await ping(m.id, '/success?run_id=a');
    const [slow] = (await incidentsOf(m.id)).data;
    expect(slow).to.include({ event: 'DURATION_HIGH', status: 'OPEN', cause: 'Run took 2 min, longer than the 60 s maximum' });
    expect(await read(m.id)).to.include({ status: 'UP' });
    const [run] = (await vigil.request('GET', `/v1/monitors/${m.id}/pings?event=SUCCESS`, { key })).body.data;
    expect(run).to.include({ duration_ms: 120_000, duration_assertion: 'TOO_SLOW', run_id: 'a' });
    await ping(m.id, '/start?run_id=b');
    vigil.clock.advance(30_000);
    await ping(m.id, '/success?run_id=b');
    expect((await vigil.request('GET', `/v1/incidents/${slow.id}`, { key })).body.incident).to.deep.include({
      status: 'RESOLVED',
      resolved_by: { kind: 'system', reason: 'DURATION_IN_RANGE' },
    });
  });

  it('opens DURATION_LOW on a run under min_duration_seconds', async () => {
    const m = await monitor({ min_duration_seconds: 10 });
    await ping(m.id, '/success?duration_ms=500');
    expect((await incidentsOf(m.id)).data[0]).to.include({ event: 'DURATION_LOW', cause: 'Run took 500 ms, shorter than the 10 s minimum' });
  });

  describe('the incident list', () => {
    let listProject: string;
    let a: { id: string };
    let b: { id: string };
    before(async () => {
      listProject = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'List' } })).body.project.id;
      const make = async (name: string) =>
        (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: listProject, name, type: 'JOB_BASIC', schedule: 'x' } })).body.monitor;
      a = await make('A');
      b = await make('B');
      // a: three FAILED incidents, each resolved by a success; b: one open FAILED and one DURATION_LOW.
      for (let i = 0; i < 3; i++) {
        vigil.clock.advance(1000);
        await ping(a.id, '/fail');
        vigil.clock.advance(1000);
        await ping(a.id);
      }
      await vigil.request('PATCH', `/v1/monitors/${b.id}`, { key, body: { min_duration_seconds: 5 } });
      vigil.clock.advance(1000);
      await ping(b.id, '/success?duration_ms=1');
      vigil.clock.advance(1000);
      await ping(b.id, '/fail');
    });

    it('pages newest first with the exact envelope', async () => {
      const page = await vigil.request('GET', `/v1/incidents?project_id=${listProject}&limit=2&page=2`, { key });
      expect(page.status).to.equal(200);
      expect(page.body.pagination).to.deep.equal({ page: 2, limit: 2, total: 5, total_pages: 3, has_next: true, has_prev: true });
      expect(page.body.data).to.have.length(2);
      const all = (await vigil.request('GET', `/v1/incidents?project_id=${listProject}`, { key })).body;
      expect(all.pagination).to.deep.equal({ page: 1, limit: 20, total: 5, total_pages: 1, has_next: false, has_prev: false });
      const starts = all.data.map((i: { started_at: string }) => i.started_at);
      expect(starts).to.deep.equal([...starts].sort().reverse());
    });

    it('filters by comma-separated status and event, and by monitor', async () => {
      const open = await vigil.request('GET', `/v1/incidents?project_id=${listProject}&status=OPEN,ACKNOWLEDGED`, { key });
      expect(open.body.data.map((i: { event: string }) => i.event).sort()).to.deep.equal(['DURATION_LOW', 'FAILED']);
      const failed = await vigil.request('GET', `/v1/incidents?project_id=${listProject}&event=FAILED&status=RESOLVED`, { key });
      expect(failed.body.pagination.total).to.equal(3);
      const ofB = await vigil.request('GET', `/v1/incidents?project_id=${listProject}&monitor_id=${b.id}`, { key });
      expect(ofB.body.pagination.total).to.equal(2);
      const scoped = await vigil.request('GET', `/v1/monitors/${a.id}/incidents?status=RESOLVED&limit=1`, { key });
      expect(scoped.body.pagination).to.deep.include({ total: 3, total_pages: 3, limit: 1 });
    });

    it('refuses unknown filter values listing the accepted ones, a foreign monitor_id, and bad paging', async () => {
      const status = await vigil.request('GET', `/v1/incidents?project_id=${listProject}&status=OPEN,CLOSED`, { key });
      expect(status).to.deep.include({ status: 400, body: { error: 'status has unknown value CLOSED; accepted values are OPEN, ACKNOWLEDGED, RESOLVED' } });
      const event = await vigil.request('GET', `/v1/incidents?project_id=${listProject}&event=DOWN`, { key });
      expect(event.body.error).to.equal('event has unknown value DOWN; accepted values are MISSED, FAILED, DURATION_HIGH, DURATION_LOW, SSL_EXPIRING');
      const foreign = await vigil.request('GET', `/v1/incidents?project_id=${projectId}&monitor_id=${a.id}`, { key });
      expect(foreign).to.deep.include({ status: 400, body: { error: 'monitor_id must name a monitor of this project' } });
      expect((await vigil.request('GET', `/v1/incidents?project_id=${listProject}&limit=200`, { key })).status).to.equal(200);
      expect((await vigil.request('GET', `/v1/incidents?project_id=${listProject}&limit=201`, { key })).body.error).to.equal('limit must be an integer from 1 to 200');
      expect((await vigil.request('GET', `/v1/incidents?project_id=${listProject}&page=0`, { key })).status).to.equal(400);
      expect((await vigil.request('GET', '/v1/incidents', { key })).body.error).to.equal('project_id is required with an account-scoped API key');
    });
  });
});
