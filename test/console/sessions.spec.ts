import { expect } from 'chai';
import { openSqliteDatabase } from '../../src/eventstore/sqlite-database.js';
import { CONTENT_SECURITY_POLICY } from '../../src/console/routes.js';
import { preSession } from '../support/people.js';
import { send } from '../support/raw-http.js';
import { SPOOFS, expectThrottledAfterTwenty } from '../support/spoofed-forwarding.js';
import { ALL_SCOPES, TestClock, TestVigil } from '../support/test-vigil.js';

/** The console's sessions over plain HTTP, as a browser would hold them (no browser needed). */
describe('Web console sessions', function () {
  this.timeout(60_000);
  let vigil: TestVigil;

  // The sign-in page's pre-session, as a browser that opened it holds it.
  const pre = preSession();
  const form = (fields: Record<string, string>) => ({
    method: 'POST',
    redirect: 'manual' as const,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: pre.cookie },
    body: new URLSearchParams({ csrf_token: pre.token, ...fields }),
  });

  async function signIn(key: string): Promise<{ cookie: string; id: string; response: Response }> {
    const response = await fetch(`${vigil.url}/sign-in`, form({ api_key: key }));
    expect(response.status, await response.clone().text()).to.equal(303);
    const set = response.headers.get('set-cookie') ?? '';
    const id = /vigil_session=([^;]+)/.exec(set)?.[1] ?? '';
    return { cookie: `vigil_session=${id}`, id, response };
  }

  const get = (path: string, cookie: string) => fetch(`${vigil.url}${path}`, { headers: { Cookie: cookie }, redirect: 'manual' });

  async function csrfOf(cookie: string, path: string): Promise<string> {
    const html = await (await get(path, cookie)).text();
    return /name="csrf_token" value="([^"]+)"/.exec(html)?.[1] ?? '';
  }

  afterEach(async () => {
    await vigil?.stop();
  });

  it('sets an HttpOnly, SameSite=Strict cookie on Path=/ holding at least 128 random bits, and a new one at every sign-in', async () => {
    vigil = await TestVigil.start();
    const owner = await vigil.user('owner@example.com');
    const key = await vigil.accountKey(owner, ALL_SCOPES);
    const first = await signIn(key);
    const set = first.response.headers.get('set-cookie') ?? '';
    expect(set).to.match(/httponly/i);
    expect(set).to.match(/samesite=strict/i);
    expect(set).to.match(/path=\//i);
    expect(set).not.to.match(/secure/i);
    expect(Buffer.from(first.id, 'base64url').length).to.be.at.least(16);
    expect(first.response.headers.get('content-security-policy')).to.equal(CONTENT_SECURITY_POLICY);

    // Session fixation: signing in again over a session gives a new id, and the old one ends.
    const again = await fetch(`${vigil.url}/sign-in`, { ...form({ api_key: key }), headers: { ...form({}).headers, Cookie: `${first.cookie}; ${pre.cookie}` } });
    const secondId = /vigil_session=([^;]+)/.exec(again.headers.get('set-cookie') ?? '')?.[1];
    expect(secondId).to.be.a('string').and.not.equal(first.id);
    expect((await get('/', first.cookie)).headers.get('location')).to.match(/^\/sign-in/);
    expect((await get('/', `vigil_session=${secondId}`)).status).to.equal(200);
  });

  it('marks the cookie Secure when the request came over HTTPS through a trusted proxy', async () => {
    vigil = await TestVigil.start({ env: { VIGIL_TRUST_PROXY: 'true' } });
    const owner = await vigil.user('owner@example.com');
    const key = await vigil.accountKey(owner, ALL_SCOPES);
    const response = await fetch(`${vigil.url}/sign-in`, { ...form({ api_key: key }), headers: { ...form({}).headers, 'X-Forwarded-Proto': 'https' } });
    expect(response.status).to.equal(303);
    expect(response.headers.get('set-cookie')).to.match(/;\s*secure/i);
  });

  it('takes X-Forwarded-Proto only from a listed proxy, not from a client that reaches Vigil past it', async () => {
    vigil = await TestVigil.start({ env: { VIGIL_TRUST_PROXY: '127.0.0.1' } });
    const key = await vigil.accountKey(await vigil.user('owner@example.com'), ALL_SCOPES);
    const signInFrom = async (localAddress: string) => {
      const headers = { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-Proto': 'https', Cookie: pre.cookie };
      const response = await send(vigil.url, 'POST', '/sign-in', { headers, body: new URLSearchParams({ api_key: key, csrf_token: pre.token }).toString(), localAddress });
      expect(response.status).to.equal(303);
      return String(response.headers['set-cookie']);
    };
    expect(await signInFrom('127.0.0.1')).to.match(/;\s*secure/i);
    expect(await signInFrom('127.0.0.2')).not.to.match(/;\s*secure/i);
  });

  it('counts wrong keys at the sign-in form against the same limit as wrong X-API-Keys, and still lets a right key in', async () => {
    vigil = await TestVigil.start({ env: { VIGIL_AUTH_FAILURE_LIMIT: '2' } });
    const owner = await vigil.user('owner@example.com');
    const key = await vigil.accountKey(owner, ALL_SCOPES);
    const wrongKey = `${key.slice(0, -4)}AAAA`;
    expect((await fetch(`${vigil.url}/sign-in`, form({ api_key: wrongKey }))).status).to.equal(401);
    const api = await fetch(`${vigil.url}/v1/projects`, { headers: { 'X-API-Key': wrongKey } });
    expect(api.status).to.equal(401);

    // The third failure from this address, whichever door it came through, is one too many.
    const throttled = await fetch(`${vigil.url}/sign-in`, form({ api_key: 'not a key at all' }));
    expect(throttled.status).to.equal(429);
    expect(Number(throttled.headers.get('retry-after'))).to.be.within(1, 60);
    expect(await throttled.text()).to.contain('Too many failed sign-ins from this address');
    expect((await fetch(`${vigil.url}/v1/projects`, { headers: { 'X-API-Key': wrongKey } })).status).to.equal(429);

    await signIn(key);
    vigil.clock.advance(61_000);
    expect((await fetch(`${vigil.url}/sign-in`, form({ api_key: wrongKey }))).status).to.equal(401);
  });

  for (const spoof of SPOOFS) {
    it(`counts wrong keys at the sign-in form behind a trusted proxy by one address, whatever X-Forwarded-For it makes up: ${spoof.name} (VIGIL_TRUST_PROXY=${spoof.trust})`, async () => {
      vigil = await TestVigil.start({ env: { VIGIL_TRUST_PROXY: spoof.trust } });
      const wrongKey = 'vgl_live_AAAAAAAAAAAAAAAAAAAAAAAAAA';
      await expectThrottledAfterTwenty(async (i) => {
        const body = new URLSearchParams({ api_key: i % 2 ? wrongKey : 'not a key at all', csrf_token: pre.token }).toString();
        const headers = { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': spoof.forwardedFor(i), Cookie: pre.cookie };
        return (await send(vigil.url, 'POST', '/sign-in', { headers, body, localAddress: spoof.from })).status;
      }, 401);
    });
  }

  it('sends its pages compressed to a browser that accepts gzip', async () => {
    vigil = await TestVigil.start();
    const owner = await vigil.user('owner@example.com');
    const key = await vigil.accountKey(owner, ALL_SCOPES);
    const projectId = await vigil.project(owner, 'Compressed');
    const { cookie } = await signIn(key);
    const { request } = await import('node:http');
    const encoding = await new Promise<string | undefined>((resolve, reject) => {
      request(`${vigil.url}/projects/${projectId}`, { headers: { Cookie: cookie, 'Accept-Encoding': 'gzip' } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.headers['content-encoding']));
      }).on('error', reject).end();
    });
    expect(encoding).to.equal('gzip');
  });

  it('keeps only hashes: neither the session id nor the API key is in the database', async () => {
    vigil = await TestVigil.start();
    const owner = await vigil.user('owner@example.com');
    const key = await vigil.accountKey(owner, ALL_SCOPES);
    const { id } = await signIn(key);
    const db = openSqliteDatabase(`${vigil.dataDir}/vigil.db`);
    try {
      const rows = db.prepare('SELECT * FROM console_sessions').all();
      expect(rows).to.have.length(1);
      const stored = JSON.stringify(rows);
      expect(stored).not.to.contain(id);
      expect(stored).not.to.contain(key);
    } finally {
      db.close();
    }
  });

  it('survives a restart of the server', async () => {
    vigil = await TestVigil.start({ clock: TestClock.atWallTime() });
    const owner = await vigil.user('owner@example.com');
    const key = await vigil.accountKey(owner, ALL_SCOPES);
    await vigil.request('POST', '/v1/projects', { key, body: { name: 'Kept' } });
    const { cookie } = await signIn(key);
    await vigil.stopKeepingData();
    vigil = await TestVigil.reopen(vigil.dataDir, vigil.env, vigil.clock);
    const response = await get('/', cookie);
    expect(response.status).to.equal(303);
    expect(response.headers.get('location')).to.match(/^\/projects\//);
  });

  it('ends when the key expires, and after twelve hours whatever the key', async () => {
    vigil = await TestVigil.start();
    const owner = await vigil.user('owner@example.com');
    const shortKey = await vigil.accountKey(owner, ALL_SCOPES, 1);
    const longKey = await vigil.accountKey(owner, ALL_SCOPES, 30);
    const short = await signIn(shortKey);
    vigil.clock.advance(11 * 3_600_000);
    const long = await signIn(longKey);
    expect((await get('/', short.cookie)).status).to.equal(200);

    // The short key's session is capped at 12 h from sign-in: it ends first, after 12 h.
    vigil.clock.advance(2 * 3_600_000);
    expect((await get('/', short.cookie)).headers.get('location')).to.equal('/sign-in?ended=ended');
    expect((await get('/', long.cookie)).status).to.equal(200);

    // A session opened after the key's last 12 h ends with the key.
    vigil.clock.advance(8 * 3_600_000);
    const late = await signIn(shortKey);
    vigil.clock.advance(3 * 3_600_000);
    expect((await get('/', late.cookie)).headers.get('location')).to.match(/^\/sign-in/);
    expect((await (await fetch(`${vigil.url}/sign-in`, form({ api_key: shortKey }))).text())).to.contain('This API key has expired');
  });

  it('ends when its API key is revoked, on the next request', async () => {
    vigil = await TestVigil.start();
    const owner = await vigil.user('owner@example.com');
    const key = await vigil.accountKey(owner, ALL_SCOPES);
    await vigil.request('POST', '/v1/projects', { key, body: { name: 'Owned' } });
    const created = await vigil.request('POST', '/v1/api-keys', { key, body: { name: 'browser', expires_in_days: 7, scopes: ['read'] } });
    expect(created.status, created.text).to.equal(201);
    const { cookie } = await signIn(created.body.key);
    expect((await get('/', cookie)).headers.get('location')).to.match(/^\/projects\//);
    expect((await vigil.request('DELETE', `/v1/api-keys/${created.body.api_key.id}`, { key })).status).to.be.lessThan(300);
    expect((await get('/', cookie)).headers.get('location')).to.equal('/sign-in?ended=revoked');
    expect((await get('/', cookie)).headers.get('location')).to.equal('/sign-in?ended=ended');
  });

  it('refuses a sign-in with an unknown or malformed key, saying so beside the field', async () => {
    vigil = await TestVigil.start();
    const unknown = await fetch(`${vigil.url}/sign-in`, form({ api_key: 'vgl_live_ABCDEFGHIJKLMNOPQRSTUVWXYZ' }));
    expect(unknown.status).to.equal(401);
    expect(await unknown.text()).to.contain('No API key matches');
    const empty = await fetch(`${vigil.url}/sign-in`, form({ api_key: '' }));
    expect(empty.status).to.equal(400);
    expect(await empty.text()).to.contain('Enter your API key');
  });

  it('only goes back to a console page after sign-in, never to another site', async () => {
    vigil = await TestVigil.start();
    const owner = await vigil.user('owner@example.com');
    const key = await vigil.accountKey(owner, ALL_SCOPES);
    for (const next of ['//evil.example/', 'https://evil.example/', '/\\evil.example', '/projects/../../x']) {
      const response = await fetch(`${vigil.url}/sign-in`, form({ api_key: key, next }));
      expect(response.headers.get('location'), next).to.equal('/');
    }
  });

  it('deletes the session at sign-out, which needs the CSRF token', async () => {
    vigil = await TestVigil.start();
    const owner = await vigil.user('owner@example.com');
    const key = await vigil.accountKey(owner, ALL_SCOPES);
    await vigil.request('POST', '/v1/projects', { key, body: { name: 'One' } });
    await vigil.request('POST', '/v1/projects', { key, body: { name: 'Two' } });
    const { cookie } = await signIn(key);
    const refused = await fetch(`${vigil.url}/sign-out`, { ...form({}), headers: { ...form({}).headers, Cookie: cookie } });
    expect(refused.status).to.equal(403);
    expect((await get('/', cookie)).status).to.equal(200);

    const token = await csrfOf(cookie, '/');
    const out = await fetch(`${vigil.url}/sign-out`, { ...form({ csrf_token: token }), headers: { ...form({}).headers, Cookie: cookie } });
    expect(out.status).to.equal(303);
    expect(out.headers.get('location')).to.equal('/sign-in?ended=signed-out');
    expect((await get('/', cookie)).headers.get('location')).to.match(/^\/sign-in/);
  });
});
