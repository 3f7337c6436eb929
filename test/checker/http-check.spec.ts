import { expect } from 'chai';
import { type CheckerEnvironment, type HttpCheckRequest, runHttpCheck } from '../../src/checker/http-check.js';
import { isPrivateAddress } from '../../src/outbound/addresses.js';
import { guardFor } from '../../src/outbound/guard.js';
import { testCertificateAuthority } from '../support/certificates.js';
import { startCountingTarget } from '../support/counting-target.js';
import { type Target, reply, startTarget } from '../support/http-targets.js';

describe('runHttpCheck', function () {
  this.timeout(30_000);
  // These checks run outside Vigil's clock: OpenSSL dates every handshake by the wall clock.
  const authority = testCertificateAuthority(() => new Date());
  const env: CheckerEnvironment = { extraCaPem: authority.caPem, privateTargets: 'checks', userAgent: 'Vigil-Test' };
  const targets: Target[] = [];
  const target = async (...args: Parameters<typeof startTarget>) => {
    const started = await startTarget(...args);
    targets.push(started);
    return started;
  };
  afterEach(async () => {
    for (const t of targets.splice(0)) await t.close();
  });
  const check = (url: string, overrides: Partial<HttpCheckRequest> = {}) =>
    runHttpCheck({ url, method: 'GET', headers: {}, body: null, timeoutMs: 5000, followRedirects: true, verifySsl: true, expectedStatus: [], keyword: null, keywordAbsent: false, ...overrides }, env);

  it('is up on a 2xx, with its status, timings and user agent', async () => {
    const t = await target(reply(204));
    const outcome = await check(`${t.url}/health`);
    expect(outcome).to.include({ is_up: true, status_code: 204, error: null, method_used: 'GET', final_url: `${t.url}/health` });
    expect(outcome.timing.ttfb_ms).to.be.a('number');
    expect(outcome.response_time_ms).to.be.at.least(0);
    expect(t.seen[0]!.headers['user-agent']).to.equal('Vigil-Test');
  });

  it('is down on a status outside the expected ones, and says so', async () => {
    const t = await target(reply(503));
    expect(await check(t.url)).to.include({ is_up: false, status_code: 503, error: 'HTTP 503, expected 2xx' });
    expect(await check(t.url, { expectedStatus: [503] })).to.include({ is_up: true });
    expect(await check(t.url, { expectedStatus: [200, 204] })).to.include({ error: 'HTTP 503, expected 200 or 204' });
  });

  it('sends the method, headers and body it is given', async () => {
    const t = await target(reply(200));
    await check(t.url, { method: 'POST', headers: { Authorization: 'Bearer t0k3n', 'X-Probe': 'yes' }, body: '{"ping":true}' });
    await check(t.url, { method: 'HEAD' });
    expect(t.seen[0]).to.deep.include({ method: 'POST', body: '{"ping":true}' });
    expect(t.seen[0]!.headers).to.include({ authorization: 'Bearer t0k3n', 'x-probe': 'yes' });
    expect(t.seen[1]!.method).to.equal('HEAD');
  });

  it('times out after uptime_timeout_ms', async () => {
    const t = await target((_request, response) => setTimeout(() => response.end('late'), 2000));
    const outcome = await check(t.url, { timeoutMs: 200 });
    expect(outcome).to.include({ is_up: false, error: 'timed out after 200 ms' });
    expect(outcome.response_time_ms).to.be.within(150, 1500);
  });

  it('checks for a keyword, or for its absence', async () => {
    const t = await target(reply(200, '<h1>All systems OK</h1>'));
    expect(await check(t.url, { keyword: 'OK' })).to.include({ is_up: true });
    expect(await check(t.url, { keyword: 'Maintenance' })).to.include({ is_up: false, error: 'keyword "Maintenance" not found in the response' });
    expect(await check(t.url, { keyword: 'ERROR', keywordAbsent: true })).to.include({ is_up: true });
    expect(await check(t.url, { keyword: 'OK', keywordAbsent: true })).to.include({ is_up: false, error: 'keyword "OK" found in the response' });
  });

  it('follows redirects (or not), keeping custom headers to the original origin only', async () => {
    const other = await target(reply(200, 'landed'));
    const first = await target((request, response) => {
      if (request.url === '/start') return reply(302, '', { Location: '/middle' })(request, response);
      if (request.url === '/middle') return reply(301, '', { Location: `${other.url}/end` })(request, response);
      return reply(404)(request, response);
    });
    const followed = await check(`${first.url}/start`, { headers: { Authorization: 'secret' } });
    expect(followed).to.include({ is_up: true, status_code: 200, final_url: `${other.url}/end` });
    expect(followed.redirect_chain).to.deep.equal([`${first.url}/start`, `${first.url}/middle`]);
    expect(first.seen.map((r) => r.headers['authorization'])).to.deep.equal(['secret', 'secret']);
    expect(other.seen[0]!.headers).to.not.have.property('authorization');
    expect(await check(`${first.url}/start`, { followRedirects: false })).to.include({ is_up: false, status_code: 302 });
  });

  it('gives up after 10 redirects', async () => {
    const t = await target((request, response) => reply(302, '', { Location: `/hop${Number(request.url.slice(4) || 0) + 1}` })(request, response));
    expect(await check(`${t.url}/hop0`)).to.include({ is_up: false, error: 'more than 10 redirects' });
    expect(t.seen).to.have.length(11);
  });

  it('refuses a redirect from https down to http', async () => {
    const plain = await target(reply(200));
    const secure = await target(reply(302, '', { Location: plain.url }), authority.valid());
    const outcome = await check(secure.url);
    expect(outcome.is_up).to.equal(false);
    expect(outcome.error).to.match(/^refused a redirect from https to http/);
    expect(plain.seen).to.have.length(0);
  });

  it('reports a refused connection', async () => {
    const t = await target(reply(200));
    await t.close();
    targets.pop();
    expect(await check(t.url)).to.include({ is_up: false, error: 'connection refused by 127.0.0.1' });
  });

  describe('HTTPS', () => {
    it('reads the expiry and issuer of a valid certificate', async () => {
      const issued = authority.valid();
      const t = await target(reply(200), issued);
      const outcome = await check(t.url);
      expect(outcome).to.include({ is_up: true, tls_error: null, ssl_issuer: 'Vigil Test CA' });
      expect(Date.parse(outcome.ssl_expires_at!)).to.be.closeTo(issued.notAfter.getTime(), 1000);
      expect(outcome.timing.tls_ms).to.be.a('number');
    });

    it('reports a certificate expiring in 3 days while still up', async () => {
      const issued = authority.expiringInDays(3);
      const outcome = await check((await target(reply(200), issued)).url);
      expect(outcome.is_up).to.equal(true);
      expect(Date.parse(outcome.ssl_expires_at!)).to.be.closeTo(issued.notAfter.getTime(), 1000);
    });

    it('is down on an expired certificate, and still knows when it expired', async () => {
      const issued = authority.expired();
      const outcome = await check((await target(reply(200), issued)).url);
      expect(outcome.is_up).to.equal(false);
      expect(outcome.tls_error).to.match(/^TLS error: certificate has expired/);
      expect(Date.parse(outcome.ssl_expires_at!)).to.be.closeTo(issued.notAfter.getTime(), 1000);
    });

    it('is down on a self-signed certificate unless uptime_verify_ssl is false', async () => {
      const t = await target(reply(200), authority.selfSigned());
      const verified = await check(t.url);
      expect(verified.is_up).to.equal(false);
      expect(verified.tls_error).to.match(/^TLS error: self[- ]signed certificate/);
      expect(await check(t.url, { verifySsl: false })).to.include({ is_up: true, status_code: 200 });
    });
  });

  it('refuses a redirect from a public target to a private address under deny, as a probe error, without following it', async () => {
    // public.test plays a public server: it is 127.0.0.1, which this guard's classifier calls public;
    // the redirect's ::ffff:127.0.0.1 is the same listener, so following it would be counted.
    const guard = guardFor('deny', 'check', {
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
      isPrivate: (address) => address !== '127.0.0.1' && isPrivateAddress(address),
    });
    const t = await startCountingTarget((request, response) => reply(request.url === '/start' ? 302 : 200, '', { Location: `http://[::ffff:127.0.0.1]:${t.port}/inside` })(request, response));
    targets.push(t);
    const { port } = t;
    const outcome = await runHttpCheck(
      { url: `http://public.test:${port}/start`, method: 'GET', headers: {}, body: null, timeoutMs: 2000, followRedirects: true, verifySsl: true, expectedStatus: [], keyword: null, keywordAbsent: false },
      env,
      guard,
    );
    expect(outcome).to.include({ is_up: false, probe_error: true, error: 'refused to check a private address (::ffff:7f00:1)' });
    expect(outcome.redirect_chain).to.deep.equal([`http://public.test:${port}/start`]);
    expect(t.seen.map((r) => r.url)).to.deep.equal(['/start']);
  });

  it('refuses private and loopback targets when the deployment denies them, as a probe error', async () => {
    const t = await target(reply(200));
    const outcome = await runHttpCheck(
      { url: t.url, method: 'GET', headers: {}, body: null, timeoutMs: 2000, followRedirects: true, verifySsl: true, expectedStatus: [], keyword: null, keywordAbsent: false },
      { ...env, privateTargets: 'deny' },
    );
    expect(outcome).to.include({ is_up: false, probe_error: true, error: 'refused to check a private address (127.0.0.1)' });
    expect(t.seen).to.have.length(0);
    const byName = await runHttpCheck(
      { url: t.url.replace('127.0.0.1', 'localhost'), method: 'GET', headers: {}, body: null, timeoutMs: 2000, followRedirects: true, verifySsl: true, expectedStatus: [], keyword: null, keywordAbsent: false },
      { ...env, privateTargets: 'deny' },
    );
    expect(byName.probe_error).to.equal(true);
    expect(t.seen).to.have.length(0);
  });
});
