import { expect } from 'chai';
import { ALL_SCOPES, TestClock, TestVigil } from '../support/test-vigil.js';

const HOUR = 3_600_000;

describe('First ping', () => {
  let vigil: TestVigil;
  let key: string;
  let project: { id: string; ping_key: string };
  before(async () => {
    vigil = await TestVigil.start({ clock: new TestClock() });
    key = await vigil.accountKey(await vigil.user('first@example.com'), ALL_SCOPES);
    project = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'First' } })).body.project;
  });
  after(() => vigil.stop());

  const sPing = (slug: string, suffix = '', query = '?create=1') => vigil.request('GET', `/v1/s-ping/${project.ping_key}/${slug}${suffix}${query}`, { headers: { 'User-Agent': 'backup-script' } });
  const bySlug = async (slug: string) =>
    ((await vigil.request("GET", `/v1/monitors?project_id=${project.id}`, { key })).body.monitors as { slug: string }[]).find((m) => m.slug === slug);
  const setting = (auto_provisioning: Record<string, unknown>) => vigil.request('PATCH', `/v1/projects/${project.id}`, { key, body: { auto_provisioning } });

  describe('provisioning on first ping (?create=1)', () => {
    it('is off by default: an unknown slug stays a 404 and nothing is created', async () => {
      const project0 = (await vigil.request('GET', `/v1/projects/${project.id}`, { key })).body.project;
      expect(project0.auto_provisioning).to.deep.equal({ enabled: false, max_per_hour: 20, defaults: { type: 'JOB_HEARTBEAT', schedule: '1d', timezone: 'UTC', grace_period_seconds: 3600 } });
      expect((await sPing('nightly')).status).to.equal(404);
      expect(await bySlug('nightly')).to.equal(undefined);
    });

    it('is turned on by PATCH /v1/projects/<id>, which names a bad field', async () => {
      expect((await setting({ max_per_hour: 0 })).body.error).to.match(/max_per_hour/);
      expect((await setting({ defaults: { type: 'UPTIME_HTTP' } })).status).to.equal(400);
      const patched = await setting({ enabled: true, max_per_hour: 3, defaults: { schedule: '2h' } });
      expect(patched.status).to.equal(200);
      expect(patched.body.project.auto_provisioning).to.deep.include({ enabled: true, max_per_hour: 3 });
      expect(patched.body.project.auto_provisioning.defaults).to.include({ type: 'JOB_HEARTBEAT', schedule: '2h' });
    });

    it('creates the monitor with the project defaults, records the ping as its first, and says so in its history', async () => {
      const response = await sPing('nightly-backup');
      expect(response.status).to.equal(201);
      expect(response.body).to.include({ ok: true, created: true, event: 'SUCCESS' });
      const monitor = (await vigil.request('GET', `/v1/monitors/${response.body.monitor_id}`, { key })).body.monitor;
      expect(monitor).to.include({ slug: 'nightly-backup', name: 'nightly-backup', type: 'JOB_HEARTBEAT', schedule: '2h', grace_period_seconds: 3600, total_pings_received: 1, is_new: false });
      const types = (await vigil.vigil.stores.events.readStream(`project-${project.id}`)).map((e) => e.type);
      expect(types).to.include('MonitorAutoProvisioned');
      const [createdEvent] = await vigil.vigil.stores.events.readStream(`monitor-${monitor.id}`);
      expect(createdEvent!.type).to.equal('MonitorCreated');
      expect(createdEvent!.metadata).to.include({ kind: 'system', cause: 'first_ping', request_ua: 'backup-script' });
      // The next ping finds it: no second monitor, an ordinary 200.
      const again = await sPing('nightly-backup');
      expect(again.status).to.equal(200);
      expect(again.body.monitor_id).to.equal(monitor.id);
    });

    it('applies to /start, /fail and exit-code suffixes too, and not without the flag', async () => {
      expect((await sPing('job-start', '/start')).body).to.include({ created: true, event: 'START' });
      expect((await sPing('job-exit', '/3')).body).to.include({ created: true, event: 'FAILURE' });
      expect((await sPing('no-flag', '/fail', '')).status).to.equal(404);
      expect((await sPing('no-flag', '', '?create=0')).status).to.equal(404);
      expect(await bySlug('no-flag')).to.equal(undefined);
    });

    it('refuses an invalid slug with a 400, creating nothing', async () => {
      const response = await sPing('bad_slug!');
      expect(response.status).to.equal(400);
      expect(response.body.error).to.match(/slug/);
    });

    it('refuses a creation over max_per_hour with a 429, and creates again an hour later', async () => {
      // nightly-backup, job-start and job-exit used this hour's 3.
      const over = await sPing('one-too-many');
      expect(over.status).to.equal(429);
      expect(over.body.error).to.match(/at most 3 monitors per hour/);
      expect(await bySlug('one-too-many')).to.equal(undefined);
      vigil.clock.advance(HOUR);
      expect((await sPing('one-too-many')).status).to.equal(201);
    });
  });

  describe('waiting for the first ping', () => {
    it('reports a never-pinged job as new (status stays UP) and opens no incident however long it stays silent', async () => {
      const created = await vigil.request('POST', '/v1/monitors', { key, body: { project_id: project.id, name: 'Silent', type: 'JOB_HEARTBEAT', schedule: '1h' } });
      const id = created.body.monitor.id;
      expect(created.body.monitor).to.include({ status: 'UP', is_new: true });
      vigil.clock.advance(48 * HOUR);
      await vigil.tick();
      const silent = (await vigil.request('GET', `/v1/monitors/${id}`, { key })).body.monitor;
      expect(silent).to.include({ status: 'UP', is_new: true, consecutive_misses: 0 });
      expect((await vigil.request('GET', `/v1/incidents?project_id=${project.id}&monitor_id=${id}`, { key })).body.data).to.have.length(0);
    });

    it('counts deadlines from the first ping on', async () => {
      const created = await vigil.request('POST', '/v1/monitors', { key, body: { project_id: project.id, name: 'Counted', type: 'JOB_HEARTBEAT', schedule: '1h', grace_period_seconds: 60 } });
      const id = created.body.monitor.id;
      await vigil.request('GET', `/v1/ping/${id}/log`);
      expect((await vigil.request('GET', `/v1/monitors/${id}`, { key })).body.monitor).to.include({ is_new: true });
      await vigil.request('GET', `/v1/ping/${id}`);
      const pinged = (await vigil.request('GET', `/v1/monitors/${id}`, { key })).body.monitor;
      expect(pinged.is_new).to.equal(false);
      expect(pinged.next_expected_at).to.be.a('string');
      vigil.clock.advance(HOUR + 61_000);
      await vigil.tick();
      expect((await vigil.request('GET', `/v1/monitors/${id}`, { key })).body.monitor).to.include({ status: 'DOWN', consecutive_misses: 1 });
    });
  });
});
