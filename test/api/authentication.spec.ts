import { expect } from 'chai';
import { parsePrometheusText } from '../support/prometheus-text.js';
import { send } from '../support/raw-http.js';
import { SPOOFS, expectThrottledAfterTwenty } from '../support/spoofed-forwarding.js';
import { TestClock, TestVigil } from '../support/test-vigil.js';

describe('Authentication', () => {
  let vigil: TestVigil;
  let userId: string;
  before(async () => {
    vigil = await TestVigil.start({ clock: new TestClock() });
    userId = await vigil.user('auth@example.com');
    await vigil.project(userId);
  });
  after(() => vigil.stop());

  it('answers 401 naming the problem for a missing, malformed or unknown key', async () => {
    const missing = await vigil.request('GET', '/v1/projects');
    expect(missing).to.deep.include({ status: 401, body: { error: 'missing X-API-Key header' } });
    for (const key of ['nonsense', 'vgl_live_AAAAAAAAAAAAAAAAAAAAAAAAAA']) {
      expect(await vigil.request('GET', '/v1/projects', { key })).to.deep.include({ status: 401, body: { error: 'invalid API key' } });
    }
  });

  it('accepts a key until the instant it expires, then answers 401', async () => {
    const key = await vigil.accountKey(userId, ['read'], 1);
    vigil.clock.advance(24 * 3600 * 1000 - 1);
    expect((await vigil.request('GET', '/v1/projects', { key })).status).to.equal(200);
    vigil.clock.advance(1);
    expect(await vigil.request('GET', '/v1/projects', { key })).to.deep.include({ status: 401, body: { error: 'API key has expired' } });
  });

  it('honours, within a second, a key the CLI created against the same data dir', async () => {
    const { runCli } = await import('../../src/main/cli.js');
    let printed = '';
    const code = await runCli(['keys', 'create', '--email', 'auth@example.com', '--name', 'cli', '--days', '5', '--scopes', 'read'], {
      env: vigil.env,
      clock: vigil.clock.now,
      stdout: (text) => (printed = text),
      stderr: process.stderr,
    });
    expect(code).to.equal(0);
    const { key } = JSON.parse(printed);
    const deadline = Date.now() + 1000;
    let status = 0;
    while (Date.now() < deadline && status !== 200) {
      status = (await vigil.request('GET', '/v1/projects', { key })).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(status).to.equal(200);
  });
});

describe('Rate limiting', () => {
  let vigil: TestVigil;
  before(async () => {
    vigil = await TestVigil.start({ env: { VIGIL_RATE_LIMIT_REQUESTS: '3', VIGIL_RATE_LIMIT_WINDOW_SECONDS: '60' } });
  });
  after(() => vigil.stop());

  it('answers 429 with Retry-After once a key spends its budget, counting each key apart', async () => {
    const a = await vigil.accountKey(await vigil.user('rl-a@example.com'), ['read']);
    const b = await vigil.accountKey(await vigil.user('rl-b@example.com'), ['read']);
    for (let i = 0; i < 3; i++) {
      const ok = await vigil.request('GET', '/v1/projects', { key: a });
      expect(ok.status).to.equal(200);
      expect(ok.headers.get('RateLimit-Remaining')).to.equal(String(2 - i));
    }
    const limited = await vigil.request('GET', '/v1/projects', { key: a });
    expect(limited.status).to.equal(429);
    expect(limited.body.error).to.match(/rate limit exceeded: 3 requests per 60 s/);
    expect(Number(limited.headers.get('Retry-After'))).to.be.within(1, 60);
    expect((await vigil.request('GET', '/v1/projects', { key: b })).status).to.equal(200);
  });
});

describe('Failed authentication throttling', () => {
  const WRONG = 'vgl_live_AAAAAAAAAAAAAAAAAAAAAAAAAA';
  let vigil: TestVigil;
  let valid: string;
  before(async () => {
    vigil = await TestVigil.start({ clock: new TestClock() });
    valid = await vigil.accountKey(await vigil.user('throttle@example.com'), ['read']);
  });
  after(() => vigil.stop());

  it('answers 429 with Retry-After and { error } once an address has failed 20 times in a minute, while a valid key from it keeps getting 200', async () => {
    for (let i = 0; i < 20; i++) {
      expect((await vigil.request('GET', '/v1/projects', { key: i % 2 ? WRONG : 'not-a-key' })).status, `failure ${i + 1}`).to.equal(401);
      expect((await vigil.request('GET', '/v1/projects', { key: valid })).status, `valid key after failure ${i + 1}`).to.equal(200);
    }
    const throttled = await vigil.request('GET', '/v1/projects', { key: WRONG });
    expect(throttled.status).to.equal(429);
    expect(throttled.headers.get('Retry-After')).to.equal('60');
    expect(throttled.body).to.deep.equal({ error: 'too many failed authentications from this address: 20 per 60 s; retry after 60 s' });
    expect((await vigil.request('GET', '/v1/projects', { key: 'not-a-key' })).status).to.equal(429);
    expect((await vigil.request('GET', '/v1/projects', { key: valid })).status).to.equal(200);
    // No key at all is no guess: it stays a 401.
    expect(await vigil.request('GET', '/v1/projects')).to.deep.include({ status: 401, body: { error: 'missing X-API-Key header' } });

    vigil.clock.advance(45_000);
    const later = await vigil.request('GET', '/v1/projects', { key: WRONG });
    expect(later.status).to.equal(429);
    expect(later.headers.get('Retry-After')).to.equal('15');
    expect((await vigil.request('GET', '/v1/projects', { key: valid })).status).to.equal(200);

    vigil.clock.advance(15_000);
    expect(await vigil.request('GET', '/v1/projects', { key: WRONG }), 'a new window').to.deep.include({ status: 401, body: { error: 'invalid API key' } });
  });

  it('counts expired and revoked keys as failures too', async () => {
    vigil.clock.advance(60_000);
    const userId = await vigil.user('throttle-expired@example.com');
    const expiring = await vigil.accountKey(userId, ['read'], 1);
    vigil.clock.advance(24 * 3600 * 1000);
    for (let i = 0; i < 20; i++) expect((await vigil.request('GET', '/v1/projects', { key: expiring })).body.error).to.equal('API key has expired');
    expect((await vigil.request('GET', '/v1/projects', { key: expiring })).status).to.equal(429);

    vigil.clock.advance(60_000);
    const revokedId = await vigil.user('throttle-revoked@example.com');
    await vigil.project(revokedId);
    const revoked = await vigil.accountKey(revokedId, ['read', 'manage_projects']);
    const ownId = (await vigil.request('GET', '/v1/api-keys', { key: revoked })).body.api_keys[0].id;
    expect((await vigil.request('DELETE', `/v1/api-keys/${ownId}`, { key: revoked })).status).to.equal(204);
    for (let i = 0; i < 20; i++) expect((await vigil.request('GET', '/v1/projects', { key: revoked })).body.error).to.equal('API key has been revoked');
    expect((await vigil.request('GET', '/v1/projects', { key: revoked })).status).to.equal(429);
  });

  it('counts each failure in vigil_auth_failures_total, as refused (401) or throttled (429)', async () => {
    const failures = async () => {
      const scraped = parsePrometheusText(await (await fetch(`${vigil.url}/metrics`)).text());
      return { refused: scraped.value('vigil_auth_failures_total', { outcome: 'refused' }), throttled: scraped.value('vigil_auth_failures_total', { outcome: 'throttled' }) };
    };
    vigil.clock.advance(60_000);
    const before = await failures();
    for (let i = 0; i < 22; i++) await vigil.request('GET', '/v1/projects', { key: WRONG });
    await vigil.request('GET', '/v1/projects', { key: valid });
    const after = await failures();
    expect({ refused: after.refused - before.refused, throttled: after.throttled - before.throttled }).to.deep.equal({ refused: 20, throttled: 2 });
  });
});

describe('Failed authentication throttling by client address', () => {
  const WRONG = 'vgl_live_AAAAAAAAAAAAAAAAAAAAAAAAAA';
  const fromAddress = (vigil: TestVigil, address: string) =>
    vigil.request('GET', '/v1/projects', { key: WRONG, headers: { 'X-Forwarded-For': address } }).then((response) => response.status);

  it('takes the address from X-Forwarded-For behind a trusted proxy, counting each address apart', async () => {
    const vigil = await TestVigil.start({ env: { VIGIL_TRUST_PROXY: 'true', VIGIL_AUTH_FAILURE_LIMIT: '2' } });
    try {
      expect([await fromAddress(vigil, '203.0.113.7'), await fromAddress(vigil, '203.0.113.7'), await fromAddress(vigil, '203.0.113.7')]).to.deep.equal([401, 401, 429]);
      expect(await fromAddress(vigil, '203.0.113.8')).to.equal(401);
      // One IPv6 host has a /64 to spread its failures over: it counts as one address.
      expect([await fromAddress(vigil, '2001:db8:1:2::1'), await fromAddress(vigil, '2001:db8:1:2:ffff::9'), await fromAddress(vigil, '2001:db8:1:2::3')]).to.deep.equal([401, 401, 429]);
      expect(await fromAddress(vigil, '2001:db8:1:3::1')).to.equal(401);
    } finally {
      await vigil.stop();
    }
  });

  for (const spoof of SPOOFS) {
    it(`counts a client behind a trusted proxy as one address, whatever X-Forwarded-For it makes up: ${spoof.name} (VIGIL_TRUST_PROXY=${spoof.trust})`, async () => {
      const vigil = await TestVigil.start({ env: { VIGIL_TRUST_PROXY: spoof.trust } });
      try {
        await expectThrottledAfterTwenty(
          async (i) => (await send(vigil.url, 'GET', '/v1/projects', { headers: { 'X-API-Key': WRONG, 'X-Forwarded-For': spoof.forwardedFor(i) }, localAddress: spoof.from })).status,
          401,
        );
      } finally {
        await vigil.stop();
      }
    });
  }

  it('ignores X-Forwarded-For without one, so a made-up address does not escape the count', async () => {
    const vigil = await TestVigil.start({ env: { VIGIL_AUTH_FAILURE_LIMIT: '2' } });
    try {
      expect([await fromAddress(vigil, '203.0.113.1'), await fromAddress(vigil, '203.0.113.2'), await fromAddress(vigil, '203.0.113.3')]).to.deep.equal([401, 401, 429]);
    } finally {
      await vigil.stop();
    }
  });

  it('does not count at all with VIGIL_AUTH_FAILURE_LIMIT=0', async () => {
    const vigil = await TestVigil.start({ env: { VIGIL_AUTH_FAILURE_LIMIT: '0' } });
    try {
      for (let i = 0; i < 30; i++) expect(await fromAddress(vigil, '203.0.113.1')).to.equal(401);
    } finally {
      await vigil.stop();
    }
  });
});
