import { expect } from 'chai';
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
