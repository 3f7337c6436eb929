import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { testCertificateAuthority } from '../support/certificates.js';
import { type Handler, type Target, reply, startTarget } from '../support/http-targets.js';
import { makeTempDir } from '../support/temp-dir.js';
import { ALL_SCOPES, TestClock, TestVigil } from '../support/test-vigil.js';

describe('Checker (UPTIME_HTTP)', function () {
  this.timeout(60_000);
  let clock: TestClock;
  const authority = testCertificateAuthority(() => clock.now());
  const caDir = makeTempDir('vigil-ca');
  const caFile = `${caDir.path}/ca.pem`;
  let vigil: TestVigil;
  let key: string;
  let projectId: string;
  const targets: Target[] = [];
  const target = async (handler: Handler, tls?: { cert: string; key: string }) => {
    const started = await startTarget(handler, tls);
    targets.push(started);
    return started;
  };
  beforeEach(async () => {
    clock = TestClock.atWallTime();
    writeFileSync(caFile, authority.caPem);
    vigil = await TestVigil.start({ clock, env: { VIGIL_CHECK_CA_FILE: caFile, VIGIL_CHECK_RETRIES: '2', VIGIL_DNS_SERVERS: '127.0.0.1:9' } });
    key = await vigil.accountKey(await vigil.user('checker@example.com'), ALL_SCOPES);
    projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Uptime' } })).body.project.id;
  });
  afterEach(async () => {
    await vigil.stop();
    for (const t of targets.splice(0)) await t.close();
  });
  after(() => caDir.remove());

  async function monitor(url: string, body: Record<string, unknown> = {}) {
    const created = await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Site', type: 'UPTIME_HTTP', schedule: '1m', uptime_url: url, ...body } });
    expect(created.status).to.equal(201);
    return created.body.monitor as { id: string; next_expected_at: string; created_at: string };
  }
  const read = async (id: string) => (await vigil.request('GET', `/v1/monitors/${id}`, { key })).body.monitor;
  const incidents = async (id: string) => (await vigil.request('GET', `/v1/monitors/${id}/incidents`, { key })).body.data;
  const nextMinute = () => vigil.clock.advance(60_000);

  it('checks a new monitor at once, records the result, and schedules the next check an interval later', async () => {
    const t = await target(reply(200, 'fine'));
    const m = await monitor(`${t.url}/health`, { uptime_headers: { 'X-Token': 'abc' } });
    expect(m.next_expected_at).to.equal(m.created_at);
    expect((await vigil.request('GET', `/v1/monitors/${m.id}/check-results/latest`, { key })).status).to.equal(404);
    expect(await vigil.check()).to.equal(1);
    expect(t.seen[0]!.headers['x-token']).to.equal('abc');
    const latest = await vigil.request('GET', `/v1/monitors/${m.id}/check-results/latest`, { key });
    expect(Object.keys(latest.body)).to.deep.equal([
      'id', 'monitor_id', 'status_code', 'response_time_ms', 'is_up', 'error', 'ssl_expires_at', 'ssl_issuer', 'check_region', 'check_status', 'cycle_id', 'created_at',
    ]);
    expect(latest.body).to.include({ monitor_id: m.id, status_code: 200, is_up: true, error: null, check_region: 'local', check_status: 'ok' });
    expect((await read(m.id)).next_expected_at).to.equal(new Date(vigil.clock.now().getTime() + 60_000).toISOString());
    expect(await vigil.check()).to.equal(0);
  });

  it('retries a failing check before it counts, then goes DOWN at failure_tolerance with a cause that says what failed', async () => {
    let status = 503;
    const t = await target((request, response) => reply(status)(request, response));
    const m = await monitor(t.url, { failure_tolerance: 2 });
    await vigil.check();
    expect(t.seen).to.have.length(3);
    expect(await read(m.id)).to.include({ status: 'UP', consecutive_failures: 1 });
    nextMinute();
    await vigil.check();
    expect(await read(m.id)).to.include({ status: 'DOWN', consecutive_failures: 2 });
    const [failed] = await incidents(m.id);
    expect(failed).to.include({ event: 'FAILED', status: 'OPEN', cause: '2 consecutive failed checks; last: HTTP 503, expected 2xx' });
    status = 200;
    nextMinute();
    await vigil.check();
    expect(await read(m.id)).to.include({ status: 'UP', consecutive_failures: 0 });
    expect((await incidents(m.id))[0]).to.deep.include({ status: 'RESOLVED', resolved_by: { kind: 'system', reason: 'CHECK_PASSED' } });
  });

  it('lets a retry that passes hide one dropped request', async () => {
    let calls = 0;
    const t = await target((request, response) => reply(++calls === 1 ? 500 : 200)(request, response));
    const m = await monitor(t.url);
    await vigil.check();
    expect(await read(m.id)).to.include({ status: 'UP', consecutive_failures: 0 });
    expect(t.seen).to.have.length(2);
  });

  it('applies the keyword, expected status and method of the monitor', async () => {
    const t = await target(reply(201, 'status: degraded'));
    const m = await monitor(t.url, { uptime_method: 'POST', uptime_request_body: 'probe', uptime_expected_status: [201], uptime_keyword: 'degraded', uptime_keyword_absent: true, failure_tolerance: 1 });
    await vigil.check();
    expect(t.seen[0]).to.deep.include({ method: 'POST', body: 'probe' });
    expect((await incidents(m.id))[0].cause).to.equal('1 failed check; last: keyword "degraded" found in the response');
  });

  it('opens SSL_EXPIRING once when the certificate has fewer than 14 days left, and resolves it once renewed', async () => {
    const soon = await target(reply(200), authority.expiringInDays(3));
    const m = await monitor(soon.url);
    await vigil.check();
    const [expiring] = await incidents(m.id);
    expect(expiring).to.include({ event: 'SSL_EXPIRING', status: 'OPEN' });
    expect(expiring.cause).to.match(/^The TLS certificate of 127\.0\.0\.1:\d+ expires on .* \(in [23] days\); issuer Vigil Test CA$/);
    expect(await read(m.id)).to.include({ status: 'UP' });
    nextMinute();
    await vigil.check();
    expect(await incidents(m.id)).to.have.length(1);
    const renewed = await target(reply(200), authority.valid());
    await vigil.request('PATCH', `/v1/monitors/${m.id}`, { key, body: { uptime_url: renewed.url } });
    nextMinute();
    await vigil.check();
    expect((await incidents(m.id))[0]).to.deep.include({ status: 'RESOLVED', resolved_by: { kind: 'system', reason: 'CERTIFICATE_RENEWED' } });
  });

  it('does not check paused monitors', async () => {
    const t = await target(reply(200));
    const m = await monitor(t.url);
    await vigil.request('POST', `/v1/monitors/${m.id}/pause`, { key });
    nextMinute();
    expect(await vigil.check()).to.equal(0);
    expect(t.seen).to.have.length(0);
  });

  it('adds checks up into response-time stats and the project uptime summary', async () => {
    let status = 200;
    const t = await target((request, response) => reply(status)(request, response));
    const m = await monitor(t.url, { failure_tolerance: 5 });
    for (let i = 0; i < 4; i++) {
      status = i === 3 ? 500 : 200;
      await vigil.check();
      nextMinute();
    }
    const stats = await vigil.request('GET', `/v1/monitors/${m.id}/response-time-stats`, { key });
    expect(Object.keys(stats.body)).to.deep.equal(['avg_ms', 'min_ms', 'max_ms', 'p95_ms', 'total_checks', 'up_count', 'down_count', 'uptime_percentage']);
    expect(stats.body).to.include({ total_checks: 4, up_count: 3, down_count: 1, uptime_percentage: 75 });
    expect(stats.body.p95_ms).to.be.a('number');
    expect(stats.body.min_ms).to.be.at.most(stats.body.max_ms);
    expect((await vigil.request('GET', `/v1/monitors/${m.id}/response-time-stats?period_hours=721`, { key })).body.error).to.equal('period_hours must be an integer from 1 to 720');
    const summary = await vigil.request('GET', `/v1/projects/${projectId}/uptime-summary?period_hours=1`, { key });
    expect(summary.body.period_hours).to.equal(1);
    expect(summary.body.monitors).to.have.length(1);
    expect(summary.body.monitors[0]).to.include({ monitor_id: m.id, name: 'Site', uptime_percentage: 75, total_checks: 4 });
    expect(summary.body.overall).to.deep.equal({ uptime_percentage: 75, total_checks: 4, up_count: 3, down_count: 1 });
  });

  describe('tools', () => {
    it('check-http answers the documented shape', async () => {
      const t = await target(reply(302, '', { Location: '/final' }));
      const response = await vigil.request('POST', '/v1/tools/check-http', { key, body: { url: `${t.url}/start`, follow_redirects: false, project_id: projectId } });
      expect(response.status).to.equal(200);
      expect(Object.keys(response.body)).to.deep.equal([
        'ok', 'status', 'status_code', 'method_used', 'response_time_ms', 'timing', 'final_url', 'redirect_chain', 'tls_error', 'error', 'checked_at', 'check_region',
      ]);
      expect(response.body).to.include({ ok: true, status: 'down', status_code: 302, method_used: 'GET' });
      expect(Object.keys(response.body.timing)).to.deep.equal(['dns_ms', 'connect_ms', 'tls_ms', 'ttfb_ms', 'download_ms']);
      expect((await vigil.request('POST', '/v1/tools/check-http', { key, body: { url: 'ftp://x', project_id: projectId } })).status).to.equal(400);
    });

    it('check-ssl reports on a certificate: valid with 3 days left, and self-signed', async () => {
      const soon = await target(reply(200), authority.expiringInDays(3));
      const port = Number(new URL(soon.url).port);
      const response = await vigil.request('POST', '/v1/tools/check-ssl', { key, body: { hostname: '127.0.0.1', port, project_id: projectId } });
      expect(response.body).to.include({ ok: true, valid: true, chain_valid: true, hostname_match: true, self_signed: false, issuer: 'Vigil Test CA', hostname_checked: '127.0.0.1', port_checked: port });
      expect(response.body.days_remaining).to.be.within(2, 3);
      expect(response.body.sans).to.include('127.0.0.1');
      const selfSigned = await target(reply(200), authority.selfSigned());
      const other = await vigil.request('POST', '/v1/tools/check-ssl', { key, body: { hostname: '127.0.0.1', port: Number(new URL(selfSigned.url).port), project_id: projectId } });
      expect(other.body).to.include({ valid: false, chain_valid: false, self_signed: true });
    });

    it('check-dns reports each record type it could not resolve', async () => {
      const response = await vigil.request('POST', '/v1/tools/check-dns', { key, body: { hostname: 'vigil.invalid', project_id: projectId } });
      expect(response.status).to.equal(200);
      expect(response.body).to.include({ ok: true, hostname_checked: 'vigil.invalid', all_failed: true });
      expect(Object.keys(response.body.records)).to.deep.equal(['A', 'AAAA', 'CNAME', 'MX', 'NS']);
      expect(Object.keys(response.body.resolution_errors)).to.have.length(5);
    });

    it('need an API key', async () => {
      expect((await vigil.request('POST', '/v1/tools/check-dns', { body: { hostname: 'x' } })).status).to.equal(401);
    });
  });
});
