import { expect } from 'chai';
import { type SeenRequest, type Target, reply, startTarget } from '../support/http-targets.js';
import { ALL_SCOPES, TestClock, TestVigil } from '../support/test-vigil.js';

const MINUTE = 60_000;

describe('Dependencies between monitors (depends_on)', function () {
  this.timeout(60_000);
  let vigil: TestVigil;
  let key: string;
  let projectId: string;
  let sink: Target;
  let hook: string;
  const json = (request: SeenRequest) => JSON.parse(request.body);
  const pagesFor = (monitorId: string) => sink.seen.map(json).filter((page) => page.incident.monitor_id === monitorId).map((page) => page.event);

  beforeEach(async () => {
    sink = await startTarget(reply(200, 'ok'));
    vigil = await TestVigil.start({ clock: new TestClock(Date.now()), env: { VIGIL_REPAGE_INTERVAL_MINUTES: '30' } });
    key = await vigil.accountKey(await vigil.user('deps@example.com'), ALL_SCOPES);
    projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Deps' } })).body.project.id;
    const channel = await vigil.request('POST', '/v1/notification-channels', { key, body: { project_id: projectId, name: 'hook', type: 'WEBHOOK', config: { url: `${sink.url}/hook` } } });
    expect(channel.status, channel.text).to.equal(201);
    hook = channel.body.channel.id;
  });
  afterEach(async () => {
    await vigil.stop();
    await sink.close();
  });

  async function monitor(name: string, body: Record<string, unknown> = {}, project = projectId) {
    const created = await vigil.request('POST', '/v1/monitors', { key, body: { project_id: project, name, type: 'JOB_BASIC', schedule: 'x', notification_channel_ids: project === projectId ? [hook] : [], ...body } });
    expect(created.status, created.text).to.equal(201);
    return created.body.monitor as { id: string; depends_on: string[] };
  }
  const patch = (id: string, body: Record<string, unknown>) => vigil.request('PATCH', `/v1/monitors/${id}`, { key, body });
  const ping = (id: string, suffix = '') => vigil.request('GET', `/v1/ping/${id}${suffix}`);
  const incidentsOf = async (id: string) => (await vigil.request('GET', `/v1/monitors/${id}/incidents`, { key })).body.data;

  describe('while a dependency is DOWN', () => {
    it('opens the dependent’s incident caused upstream, pages nobody about it, and records its resolution', async () => {
      const database = await monitor('Database');
      const job = await monitor('Nightly <report>', { depends_on: [database.id] });
      expect(job.depends_on).to.deep.equal([database.id]);
      expect((await vigil.request('GET', `/v1/monitors/${job.id}`, { key })).body.monitor.depends_on).to.deep.equal([database.id]);

      await ping(database.id, '/fail');
      await ping(job.id, '/fail');
      await vigil.notify();
      vigil.clock.advance(31 * MINUTE);
      await vigil.tick();
      await vigil.notify();

      const [incident] = await incidentsOf(job.id);
      expect(incident).to.include({ status: 'OPEN', event: 'FAILED' });
      expect(incident.caused_upstream).to.deep.equal({ monitor_id: database.id, name: 'Database' });
      expect((await vigil.request('GET', `/v1/incidents/${incident.id}`, { key })).body.incident.caused_upstream).to.deep.equal({ monitor_id: database.id, name: 'Database' });
      expect((await vigil.request('GET', `/v1/monitors/${job.id}`, { key })).body.monitor.status).to.equal('DOWN');
      // The database itself pages (and pages again); the job, caused upstream, never does.
      expect(pagesFor(database.id)).to.deep.equal(['incident.opened', 'incident.repage']);
      expect(pagesFor(job.id)).to.deep.equal([]);

      await ping(job.id);
      await vigil.notify();
      const [resolved] = await incidentsOf(job.id);
      expect(resolved).to.include({ status: 'RESOLVED' });
      expect(resolved.resolved_by).to.deep.equal({ kind: 'system', reason: 'SUCCESS_PING' });
      expect(pagesFor(job.id)).to.deep.equal([]);

      const timeline = (await vigil.request('GET', `/v1/incidents/${incident.id}/timeline`, { key })).body;
      const upstream = timeline.entries.find((entry: { type: string }) => entry.type === 'IncidentCausedUpstream');
      expect(upstream, JSON.stringify(timeline.entries)).to.not.equal(undefined);
      expect(upstream.summary).to.include('Database');
      expect(upstream.data).to.include({ upstream_monitor_id: database.id, upstream_monitor_name: 'Database' });
      const history = (await vigil.request('GET', `/v1/monitors/${job.id}/events`, { key })).body;
      const recorded = (history.data ?? history.events).find((entry: { type: string }) => entry.type === 'IncidentCausedUpstream');
      expect(recorded.data).to.include({ incident_id: incident.id, upstream_monitor_name: 'Database' });
    });
  });

  describe('while a dependency is DOWN, at a missed deadline', () => {
    it('opens the MISSED incident the timer finds caused upstream, stamped at the deadline, and pages nobody', async () => {
      const database = await monitor('Database');
      const job = await monitor('Hourly sync', { type: 'JOB_HEARTBEAT', schedule: '1h', grace_period_seconds: 60, depends_on: [database.id] });
      await ping(job.id);
      await ping(database.id, '/fail');
      vigil.clock.advance(62 * MINUTE);
      await vigil.tick();
      await vigil.notify();
      const [incident] = await incidentsOf(job.id);
      expect(incident).to.include({ event: 'MISSED', status: 'OPEN' });
      expect(incident.caused_upstream).to.deep.equal({ monitor_id: database.id, name: 'Database' });
      const timeline = (await vigil.request('GET', `/v1/incidents/${incident.id}/timeline`, { key })).body.entries;
      expect(timeline.find((entry: { type: string }) => entry.type === 'IncidentCausedUpstream').data.at).to.equal(incident.started_at);
      expect(pagesFor(job.id)).to.deep.equal([]);
    });
  });

  describe('while its dependencies are UP', () => {
    it('pages the dependent’s incident as usual', async () => {
      const database = await monitor('Database');
      const job = await monitor('Nightly report', { depends_on: [database.id] });
      await ping(database.id);
      await ping(job.id, '/fail');
      await vigil.notify();
      const [incident] = await incidentsOf(job.id);
      expect(incident.caused_upstream).to.equal(null);
      expect(pagesFor(job.id)).to.deep.equal(['incident.opened']);
    });

    it('pages again once the dependency recovered and a new incident opens', async () => {
      const database = await monitor('Database');
      const job = await monitor('Nightly report', { depends_on: [database.id] });
      await ping(database.id, '/fail');
      await ping(job.id, '/fail');
      await ping(job.id);
      await ping(database.id);
      vigil.clock.advance(MINUTE);
      await ping(job.id, '/fail');
      await vigil.notify();
      // Newest first.
      const incidents = await incidentsOf(job.id);
      expect(incidents.map((i: { caused_upstream: unknown }) => i.caused_upstream)).to.deep.equal([null, { monitor_id: database.id, name: 'Database' }]);
      expect(pagesFor(job.id)).to.deep.equal(['incident.opened']);
    });
  });

  describe('cycles and bounds', () => {
    it('refuses a direct cycle with a 400 naming depends_on and the monitors in it', async () => {
      const a = await monitor('Alpha');
      const b = await monitor('Beta', { depends_on: [a.id] });
      const refused = await patch(a.id, { depends_on: [b.id] });
      expect(refused.status, refused.text).to.equal(400);
      expect(refused.body.error).to.match(/^depends_on/).and.include('"Alpha" → "Beta" → "Alpha"');
      expect((await vigil.request('GET', `/v1/monitors/${a.id}`, { key })).body.monitor.depends_on).to.deep.equal([]);
    });

    it('refuses an indirect cycle', async () => {
      const a = await monitor('Alpha');
      const b = await monitor('Beta', { depends_on: [a.id] });
      const c = await monitor('Gamma', { depends_on: [b.id] });
      const refused = await patch(a.id, { depends_on: [c.id] });
      expect(refused.status, refused.text).to.equal(400);
      expect(refused.body.error).to.match(/^depends_on/).and.include('"Alpha" → "Gamma" → "Beta" → "Alpha"');
    });

    it('refuses itself, a monitor of another project, an unknown one, and a chain deeper than 10', async () => {
      const a = await monitor('Alpha');
      expect((await patch(a.id, { depends_on: [a.id] })).body.error).to.equal('depends_on: a monitor cannot depend on itself');
      const otherProject = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Other' } })).body.project.id;
      const elsewhere = await monitor('Elsewhere', {}, otherProject);
      const foreign = await patch(a.id, { depends_on: [elsewhere.id] });
      expect(foreign.status).to.equal(400);
      expect(foreign.body.error).to.equal(`depends_on: monitor ${elsewhere.id} does not exist in this project`);
      expect((await patch(a.id, { depends_on: ['00000000-0000-4000-8000-000000000000'] })).status).to.equal(400);
      expect((await patch(a.id, { depends_on: 'x' })).body.error).to.match(/depends_on/);
      let previous = a;
      for (let i = 1; i <= 10; i += 1) previous = await monitor(`Link ${i}`, { depends_on: [previous.id] });
      const tooDeep = await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Too deep', type: 'JOB_BASIC', schedule: 'x', depends_on: [previous.id] } });
      expect(tooDeep.status, tooDeep.text).to.equal(400);
      expect(tooDeep.body.error).to.equal('depends_on: a chain of dependencies may be at most 10 monitors deep; through "Link 10" it would be deeper');
    });

    it('accepts a change that leaves the dependencies be, and taking them out', async () => {
      const a = await monitor('Alpha');
      const b = await monitor('Beta', { depends_on: [a.id] });
      expect((await patch(b.id, { description: 'still depends' })).body.monitor.depends_on).to.deep.equal([a.id]);
      expect((await patch(b.id, { depends_on: [] })).body.monitor.depends_on).to.deep.equal([]);
    });

    it('records no change for a monitor sent back as it was read, depends_on: [] included', async () => {
      const a = await monitor('Alpha');
      const read = (await vigil.request('GET', `/v1/monitors/${a.id}`, { key })).body.monitor;
      expect(read.depends_on).to.deep.equal([]);
      expect((await patch(a.id, read)).status).to.equal(200);
      const updates = (await vigil.commands.events.readStream(`monitor-${a.id}`)).filter((e) => e.type === 'MonitorUpdated');
      expect(updates).to.have.length(0);
    });
  });

  it('is described in the OpenAPI document: depends_on on create, update and monitor bodies, caused_upstream on incidents', async () => {
    const doc = (await vigil.request('GET', '/openapi.json')).body;
    const requestField = (path: string, method: string) => doc.paths[path][method].requestBody.content['application/json'].schema.properties.depends_on;
    expect(requestField('/v1/monitors', 'post')).to.deep.include({ type: 'array', maxItems: 20 });
    expect(requestField('/v1/monitors/{monitorId}', 'patch').description).to.include('caused_upstream');
    const answer = (path: string, method: string, status: string) => doc.paths[path][method].responses[status].content['application/json'].schema.properties;
    expect(answer('/v1/monitors/{monitorId}', 'get', '200').monitor.properties.depends_on).to.deep.equal({ type: 'array', items: { type: 'string', format: 'uuid' } });
    expect(answer('/v1/incidents/{incidentId}', 'get', '200').incident.properties).to.have.property('caused_upstream');
  });

  describe('deleting a monitor others depend on', () => {
    it('is refused with a 409 naming its dependents, and allowed once they no longer depend on it', async () => {
      const database = await monitor('Database');
      const job = await monitor('Nightly report', { depends_on: [database.id] });
      const refused = await vigil.request('DELETE', `/v1/monitors/${database.id}`, { key });
      expect(refused.status, refused.text).to.equal(409);
      expect(refused.body.error).to.include(`"Nightly report" (${job.id})`).and.include('depends_on');
      expect((await vigil.request('GET', `/v1/monitors/${database.id}`, { key })).status).to.equal(200);
      await patch(job.id, { depends_on: [] });
      expect((await vigil.request('DELETE', `/v1/monitors/${database.id}`, { key })).status).to.equal(204);
    });
  });
});
