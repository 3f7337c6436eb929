import { expect } from 'chai';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';
import { preSession } from '../support/people.js';

/** The account page's sessions and the sign-in record, over plain HTTP as a browser holds its cookie. */
describe('Web console account sessions', function () {
  this.timeout(60_000);
  let vigil: TestVigil;

  afterEach(async () => {
    await vigil?.stop();
  });

  // The sign-in page's pre-session, as a browser that opened it holds it.
  const pre = preSession();
  const form = (fields: Record<string, string>, cookie = '', userAgent = 'Spec browser') => ({
    method: 'POST',
    redirect: 'manual' as const,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie ? `${cookie}; ${pre.cookie}` : pre.cookie, 'User-Agent': userAgent },
    body: new URLSearchParams({ csrf_token: pre.token, ...fields }),
  });
  const get = (path: string, cookie: string) => fetch(`${vigil.url}${path}`, { headers: { Cookie: cookie }, redirect: 'manual' });

  async function signIn(key: string, userAgent: string): Promise<string> {
    const response = await fetch(`${vigil.url}/sign-in`, form({ api_key: key }, '', userAgent));
    expect(response.status).to.equal(303);
    return `vigil_session=${/vigil_session=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1] ?? ''}`;
  }

  async function signInRecord(userId: string): Promise<{ type: string; data: Record<string, unknown> }[]> {
    const events = await vigil.vigil.stores.events.readStream(`signins-${userId}`);
    return events.map((e) => ({ type: e.type, data: e.data }));
  }

  it('lists the user’s sessions with how and where each began, and ends another one, which is signed out at its next request', async () => {
    vigil = await TestVigil.start();
    const userId = await vigil.user('ada@example.com');
    await vigil.project(userId);
    const key = await vigil.accountKey(userId, ALL_SCOPES);
    const first = await signIn(key, 'First browser');
    const second = await signIn(key, 'Second browser');

    const page = await (await get('/account', first)).text();
    expect(page).to.contain('First browser').and.to.contain('Second browser').and.to.contain('(this session)');
    const record = await signInRecord(userId);
    expect(record.map((e) => e.type)).to.deep.equal(['UserSignedIn', 'UserSignedIn']);
    expect(record[1]!.data).to.include({ method: 'api_key', user_agent: 'Second browser', client_address: '127.0.0.1' });
    const secondRef = String(record[1]!.data['session_ref']);

    const csrf = /name="csrf_token" value="([^"]+)"/.exec(page)?.[1] ?? '';
    expect(page).to.contain(`/account/sessions/${secondRef}/end`);
    const ended = await fetch(`${vigil.url}/account/sessions/${secondRef}/end`, form({ csrf_token: csrf }, first));
    expect(ended.status).to.equal(303);
    expect(ended.headers.get('location')).to.equal('/account?done=session-ended#sessions');

    const after = await get('/', second);
    expect(after.headers.get('location')).to.equal('/sign-in?ended=ended');
    const afterwards = await (await get('/account', first)).text();
    // The account's own record of sign-ins: the newest first, with how and from where.
    const activity = /<h2 id="activity">[\s\S]*?<\/section>/.exec(afterwards)?.[0] ?? '';
    expect(activity.match(/<tr>\n<td>/g)).to.have.length(3);
    expect(activity.indexOf('Session ended')).to.be.lessThan(activity.indexOf('Signed in'));
    expect(activity).to.contain('(API key)').and.to.contain('ended by user').and.to.contain('127.0.0.1');
    expect((await signInRecord(userId)).at(-1)).to.deep.include({ type: 'UserSessionEnded', data: { user_id: userId, session_ref: secondRef, reason: 'ended_by_user', ended_at: vigil.clock.now().toISOString() } });
  });

  it('ends no session of another user, answering as if there were none', async () => {
    vigil = await TestVigil.start();
    const ada = await vigil.user('ada@example.com');
    const bob = await vigil.user('bob@example.com');
    const adaCookie = await signIn(await vigil.accountKey(ada, ALL_SCOPES), 'Ada');
    await signIn(await vigil.accountKey(bob, ALL_SCOPES), 'Bob');
    const bobRef = String((await signInRecord(bob))[0]!.data['session_ref']);
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(await (await get('/account', adaCookie)).text())?.[1] ?? '';
    const refused = await fetch(`${vigil.url}/account/sessions/${bobRef}/end`, form({ csrf_token: csrf }, adaCookie));
    expect(refused.status).to.equal(404);
    expect(await refused.text()).to.contain('Session not found');
  });

  it('records a failed sign-in with an unknown key apart from any user, and a sign-out as the end of its session', async () => {
    vigil = await TestVigil.start();
    const userId = await vigil.user('ada@example.com');
    const cookie = await signIn(await vigil.accountKey(userId, ALL_SCOPES), 'Ada');
    expect((await fetch(`${vigil.url}/sign-in`, form({ api_key: 'vgl_live_ABCDEFGHIJKLMNOPQRSTUVWXYZ' }))).status).to.equal(401);
    const unknown = await vigil.vigil.stores.events.readStream('signins-unknown');
    expect(unknown.map((e) => [e.type, e.data['method'], e.data['reason'], e.data['user_id']])).to.deep.equal([['UserSignInFailed', 'api_key', 'wrong_api_key', null]]);
    expect(JSON.stringify(unknown[0]!.data)).to.not.contain('ABCDEFGHIJ');
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(await (await get('/account', cookie)).text())?.[1] ?? '';
    expect((await fetch(`${vigil.url}/sign-out`, form({ csrf_token: csrf }, cookie))).status).to.equal(303);
    expect((await signInRecord(userId)).map((e) => [e.type, e.data['reason'] ?? null])).to.deep.equal([['UserSignedIn', null], ['UserSessionEnded', 'signed_out']]);
  });
});
