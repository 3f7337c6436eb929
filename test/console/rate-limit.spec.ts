import { expect } from 'chai';
import { EXPENSIVE_LIMIT } from '../../src/console/rate-limit.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';
import { preSession } from '../support/people.js';

/** The console's rate limits over plain HTTP, as a browser would meet them (no browser needed). */
describe('Console rate limits', function () {
  this.timeout(60_000);
  let vigil: TestVigil;
  let key: string;
  let projectId: string;

  // The sign-in page's pre-session, as a browser that opened it holds it.
  const pre = preSession();
  const form = (fields: Record<string, string>, cookie = '') => ({
    method: 'POST',
    redirect: 'manual' as const,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie ? `${cookie}; ${pre.cookie}` : pre.cookie },
    body: new URLSearchParams({ csrf_token: pre.token, ...fields }),
  });
  const get = (path: string, cookie = '') => fetch(`${vigil.url}${path}`, { headers: cookie ? { Cookie: cookie } : {}, redirect: 'manual' });

  async function signIn(): Promise<string> {
    const response = await fetch(`${vigil.url}/sign-in`, form({ api_key: key }));
    expect(response.status, await response.clone().text()).to.equal(303);
    return `vigil_session=${/vigil_session=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1] ?? ''}`;
  }

  async function expectHtml429(response: Response): Promise<string> {
    expect(response.status).to.equal(429);
    expect(response.headers.get('content-type')).to.match(/^text\/html/);
    expect(Number(response.headers.get('retry-after'))).to.be.greaterThan(0);
    const body = await response.text();
    expect(body).to.match(/^<!doctype html>/i);
    expect(body).to.contain('Too many requests');
    return body;
  }

  async function start(env: NodeJS.ProcessEnv = {}) {
    vigil = await TestVigil.start({ env });
    const owner = await vigil.user('owner@example.com');
    projectId = await vigil.project(owner, 'Jobs');
    key = await vigil.accountKey(owner, ALL_SCOPES);
  }
  afterEach(async () => {
    await vigil?.stop();
  });

  it('answers a session over the limit with an HTML 429 page, while another session goes on', async () => {
    await start({ VIGIL_RATE_LIMIT_REQUESTS: '5', VIGIL_RATE_LIMIT_WINDOW_SECONDS: '60' });
    const first = await signIn();
    const second = await signIn();
    for (let i = 0; i < 5; i += 1) expect((await get(`/projects/${projectId}`, first)).status).to.equal(200);
    const refused = await get(`/projects/${projectId}`, first);
    expect(await expectHtml429(refused)).to.contain('5 per 60 s for each session');
    expect((await get(`/projects/${projectId}`, second)).status).to.equal(200);
  });

  it('counts requests without a session, or with a cookie that names none, against the client address', async () => {
    await start({ VIGIL_RATE_LIMIT_REQUESTS: '5', VIGIL_RATE_LIMIT_WINDOW_SECONDS: '60' });
    for (let i = 0; i < 3; i += 1) expect((await get('/sign-in')).status).to.equal(200);
    // A new invented session id each time buys no fresh allowance.
    for (let i = 0; i < 2; i += 1) expect((await get(`/projects/${projectId}`, `vigil_session=invented${i}`)).status).to.equal(303);
    await expectHtml429(await get('/sign-in'));
    await expectHtml429(await get(`/projects/${projectId}`, 'vigil_session=invented-again'));
  });

  it(`lets a session start Verify now ${EXPENSIVE_LIMIT.requests} times in ${EXPENSIVE_LIMIT.windowSeconds / 60} minutes, then answers an HTML 429`, async () => {
    await start();
    const cookie = await signIn();
    const html = await (await get(`/projects/${projectId}/audit`, cookie)).text();
    const token = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1] ?? '';
    const verify = () => fetch(`${vigil.url}/projects/${projectId}/audit/verify`, form({ csrf_token: token }, cookie));
    for (let i = 0; i < EXPENSIVE_LIMIT.requests; i += 1) expect((await verify()).status).to.equal(303);
    expect(await expectHtml429(await verify())).to.contain(`${EXPENSIVE_LIMIT.requests} times per ${EXPENSIVE_LIMIT.windowSeconds / 60} minutes`);
    // Pages are still served: only the expensive action is held back.
    expect((await get(`/projects/${projectId}/audit`, cookie)).status).to.equal(200);
  });
});
