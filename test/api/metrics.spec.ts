import { expect } from 'chai';
import { type Target, startTarget } from '../support/http-targets.js';
import { type Scrape, parsePrometheusText } from '../support/prometheus-text.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('Metrics', () => {
  let vigil: TestVigil;
  let key: string;
  let projectId: string;
  beforeEach(async () => {
    vigil = await TestVigil.start();
    key = await vigil.accountKey(await vigil.user('metrics@example.com'), ALL_SCOPES);
    projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Measured' } })).body.project.id;
  });
  afterEach(() => vigil.stop());

  async function scrape(): Promise<Scrape> {
    const response = await fetch(`${vigil.url}/metrics`);
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
    return parsePrometheusText(await response.text());
  }
  async function monitor(body: Record<string, unknown> = {}) {
    const created = await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Job', type: 'JOB_HEARTBEAT', schedule: '1h', failure_tolerance: 1, ...body } });
    expect(created.status, created.text).to.equal(201);
    return created.body.monitor as { id: string; next_expected_at: string };
  }
  /** Deadlines count from a monitor's first ping. */
  async function pingedMonitor(body: Record<string, unknown> = {}) {
    const created = await monitor(body);
    await ping(created.id);
    return created;
  }
  async function ping(id: string, suffix = '') {
    const response = await vigil.request('GET', `/v1/ping/${id}${suffix}`);
    expect(response.status, response.text).to.equal(200);
  }

  it('serves every vigil_ metric in the Prometheus text format, with no API key', async () => {
    const scraped = await scrape();
    expect(Object.fromEntries([...scraped.types].filter(([name]) => name.startsWith('vigil_')))).to.deep.equal({
      vigil_monitors: 'gauge',
      vigil_projector_lag_events: 'gauge',
      vigil_projector_lag_seconds: 'gauge',
      vigil_pings_received_total: 'counter',
      vigil_incidents_opened_total: 'counter',
      vigil_timer_lateness_seconds: 'histogram',
      vigil_notification_deliveries_total: 'counter',
      vigil_notification_failures_total: 'counter',
      vigil_http_request_duration_seconds: 'histogram',
      vigil_auth_failures_total: 'counter',
      vigil_console_live_streams: 'gauge',
      vigil_console_live_renders_total: 'counter',
    });
  });

  it('counts each ping it accepts by kind, and none it refuses', async () => {
    const m = await monitor({ failure_tolerance: 10 });
    const before = await scrape();
    for (const suffix of ['', '/success', '/start', '/fail', '/2', '/log', '/0']) await ping(m.id, suffix);
    expect((await vigil.request('GET', `/v1/ping/${m.id}/bogus`)).status).to.equal(400);
    expect((await vigil.request('GET', '/v1/ping/00000000-0000-4000-8000-000000000000')).status).to.equal(404);
    const after = await scrape();
    const moved = (event: string) => after.value('vigil_pings_received_total', { event }) - before.value('vigil_pings_received_total', { event });
    expect({ SUCCESS: moved('SUCCESS'), START: moved('START'), FAILURE: moved('FAILURE'), LOG: moved('LOG') }).to.deep.equal({ SUCCESS: 3, START: 1, FAILURE: 2, LOG: 1 });
  });

  it('counts incidents opened by kind: FAILED on a failure ping, MISSED when the timer fires, each once', async () => {
    // JOB_BASIC has no schedule, so only the heartbeat can miss (the timer re-pages the FAILED one).
    const failing = await monitor({ type: 'JOB_BASIC', schedule: 'x' });
    const silent = await pingedMonitor({ name: 'Silent' });
    const before = await scrape();
    await ping(failing.id, '/fail');
    await ping(failing.id, '/fail');
    // The deadline is the expected time plus the 5 minute grace; the timer notices 30 s late.
    vigil.clock.advance(HOUR + 5 * MINUTE + 30_000);
    await vigil.tick();
    const after = await scrape();
    const moved = (kind: string) => after.value('vigil_incidents_opened_total', { kind }) - before.value('vigil_incidents_opened_total', { kind });
    expect({ FAILED: moved('FAILED'), MISSED: moved('MISSED'), DURATION_HIGH: moved('DURATION_HIGH') }).to.deep.equal({ FAILED: 1, MISSED: 1, DURATION_HIGH: 0 });
    const incidents = await vigil.request('GET', `/v1/monitors/${silent.id}/incidents`, { key });
    expect(incidents.body.data.map((i: { event: string }) => i.event)).to.deep.equal(['MISSED']);
  });

  it('observes how late the timer fired each deadline, on the injected clock', async () => {
    await pingedMonitor();
    await pingedMonitor({ name: 'Other' });
    vigil.clock.advance(HOUR + 5 * MINUTE + 30_000);
    await vigil.tick();
    const scraped = await scrape();
    expect(scraped.value('vigil_timer_lateness_seconds_count')).to.equal(2);
    expect(scraped.value('vigil_timer_lateness_seconds_sum')).to.equal(60);
    expect(scraped.value('vigil_timer_lateness_seconds_bucket', { le: '10' })).to.equal(0);
    expect(scraped.value('vigil_timer_lateness_seconds_bucket', { le: '30' })).to.equal(2);
  });

  it('gauges monitors by status from the read model, and follows them back UP', async () => {
    const down = await monitor();
    await monitor({ name: 'Fine' });
    const paused = await monitor({ name: 'Resting' });
    expect((await vigil.request('POST', `/v1/monitors/${paused.id}/pause`, { key })).status).to.equal(200);
    await ping(down.id, '/fail');
    await vigil.settle();
    const monitors = (scraped: Scrape) => Object.fromEntries(scraped.find('vigil_monitors').map((s) => [s.labels['status'], s.value]));
    expect(monitors(await scrape())).to.deep.equal({ UP: 1, DOWN: 1, PAUSED: 1 });
    await ping(down.id, '/success');
    await vigil.settle();
    expect(monitors(await scrape())).to.deep.equal({ UP: 2, DOWN: 0, PAUSED: 1 });
  });

  it('reports the projector lag: zero once the read models hold the whole log', async () => {
    await monitor();
    await vigil.settle();
    const scraped = await scrape();
    expect(scraped.find('vigil_projector_lag_events')).to.have.length(1);
    expect(scraped.value('vigil_projector_lag_events')).to.equal(0);
    expect(scraped.value('vigil_projector_lag_seconds')).to.equal(0);
  });

  it('times HTTP requests by method, route pattern and status, never by the raw URL', async () => {
    const first = await monitor();
    const second = await monitor({ name: 'Second' });
    await vigil.request('GET', `/v1/monitors/${first.id}`, { key });
    await vigil.request('GET', `/v1/monitors/${second.id}`, { key });
    await vigil.request('GET', `/v1/monitors/${second.id}`);
    await vigil.request('DELETE', '/v1/projects');
    await ping(first.id, '/fail');
    await vigil.request('GET', `/v1/no-such-thing/${first.id}`);
    const scraped = await scrape();
    const count = (labels: Record<string, string>) => scraped.value('vigil_http_request_duration_seconds_count', labels);
    expect(count({ method: 'GET', route: '/v1/monitors/:monitorId', status_code: '200' })).to.equal(2);
    expect(count({ method: 'GET', route: '/v1/monitors/:monitorId', status_code: '401' })).to.equal(1);
    expect(count({ method: 'POST', route: '/v1/monitors', status_code: '201' })).to.equal(2);
    expect(count({ method: 'DELETE', route: '/v1/projects', status_code: '405' })).to.equal(1);
    expect(count({ method: 'GET', route: '/v1/ping/:monitorId/:suffix', status_code: '200' })).to.equal(1);
    expect(count({ method: 'GET', route: 'unmatched', status_code: '404' })).to.equal(1);
    const routes = scraped.find('vigil_http_request_duration_seconds_count').map((s) => s.labels['route']!);
    expect(routes.filter((route) => route.includes(first.id) || route.includes(second.id))).to.deep.equal([]);
  });

  describe('notification deliveries', () => {
    let sink: Target;
    beforeEach(async () => {
      sink = await startTarget((request, response) => {
        response.writeHead(request.url.startsWith('/broken') ? 500 : 200);
        response.end('ok');
      });
    });
    afterEach(() => sink.close());

    it('counts deliveries and failed attempts by channel type', async () => {
      const channel = async (type: string, config: Record<string, unknown>) => {
        const created = await vigil.request('POST', '/v1/notification-channels', { key, body: { project_id: projectId, name: `${type} ${Object.values(config)[0]}`, type, config } });
        expect(created.status, created.text).to.equal(201);
        return created.body.channel.id as string;
      };
      const ids = [
        await channel('WEBHOOK', { url: `${sink.url}/hook` }),
        await channel('WEBHOOK', { url: `${sink.url}/broken` }),
        await channel('SLACK', { webhook_url: `${sink.url}/slack/T0/B0/XXXX` }),
      ];
      const m = await monitor({ notification_channel_ids: ids });
      const before = await scrape();
      await ping(m.id, '/fail');
      await vigil.notify();
      expect(sink.seen.map((r) => r.url).sort()).to.deep.equal(['/broken', '/hook', '/slack/T0/B0/XXXX']);
      const after = await scrape();
      const moved = (name: string, type: string) => after.value(name, { type }) - before.value(name, { type });
      expect({
        webhookDelivered: moved('vigil_notification_deliveries_total', 'WEBHOOK'),
        webhookFailed: moved('vigil_notification_failures_total', 'WEBHOOK'),
        slackDelivered: moved('vigil_notification_deliveries_total', 'SLACK'),
        slackFailed: moved('vigil_notification_failures_total', 'SLACK'),
      }).to.deep.equal({ webhookDelivered: 1, webhookFailed: 1, slackDelivered: 1, slackFailed: 0 });
    });
  });

  describe('with VIGIL_METRICS_TOKEN', () => {
    let guarded: TestVigil;
    before(async () => (guarded = await TestVigil.start({ env: { VIGIL_METRICS_TOKEN: 'scrape-secret-123' } })));
    after(() => guarded.stop());

    it('answers /metrics only to that Bearer token', async () => {
      const bare = await guarded.request('GET', '/metrics');
      expect(bare.status).to.equal(401);
      expect(bare.headers.get('www-authenticate')).to.equal('Bearer');
      expect(bare.body).to.deep.equal({ error: 'metrics need Authorization: Bearer <VIGIL_METRICS_TOKEN>' });
      expect((await guarded.request('GET', '/metrics', { headers: { Authorization: 'Bearer scrape-secret-12' } })).status).to.equal(401);
      const allowed = await fetch(`${guarded.url}/metrics`, { headers: { Authorization: 'Bearer scrape-secret-123' } });
      expect(allowed.status).to.equal(200);
      expect(await allowed.text()).to.include('# TYPE vigil_monitors gauge');
    });

    it('leaves /healthz and /readyz open', async () => {
      expect((await guarded.request('GET', '/healthz')).status).to.equal(200);
      expect((await guarded.request('GET', '/readyz')).status).to.equal(200);
    });
  });
});
