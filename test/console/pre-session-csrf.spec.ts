import { expect } from 'chai';
import { requestPasswordReset } from '../../src/app/accounts.js';
import { personWithPassword, postKeySignIn, preSession } from '../support/people.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

const SEEDING = { kind: 'system' as const, user_id: null, api_key_id: null, request_id: null };

/**
 * Every form posted before sign-in carries a token bound to the browser's pre-session cookie: a
 * page on another site can post the form, but cannot read the token, so it cannot sign a victim
 * in to an account of its choosing (login CSRF) nor act through the first-run, reset or
 * invitation forms. Refused without it: a 403 page, and no session.
 */
describe('Forms posted before sign-in: the pre-session CSRF token', function () {
  this.timeout(60_000);
  let vigil: TestVigil;
  afterEach(() => vigil?.stop());

  const post = (path: string, fields: Record<string, string>, cookie?: string) => fetch(`${vigil.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html', ...(cookie ? { Cookie: cookie } : {}) },
    body: new URLSearchParams(fields),
  });

  async function expectRefused(response: Response, what: string): Promise<void> {
    expect(response.status, what).to.equal(403);
    expect(response.headers.get('content-type'), what).to.match(/^text\/html/);
    expect(response.headers.get('set-cookie') ?? '', what).to.not.match(/vigil_session=[^;]/);
  }

  it('refuses the API-key sign-in form without the token, or with another browser\'s, and signs in with its own', async () => {
    vigil = await TestVigil.start();
    const key = await vigil.accountKey(await vigil.user('attacker@example.com'), ALL_SCOPES);
    const without = await post('/sign-in', { api_key: key });
    await expectRefused(without, 'no token');
    expect(await without.text()).to.contain('This form has expired: sign in again');
    const mine = preSession();
    const theirs = preSession();
    await expectRefused(await post('/sign-in', { api_key: key, csrf_token: theirs.token }, mine.cookie), 'another pre-session\'s token');
    await expectRefused(await post('/sign-in', { api_key: key, csrf_token: mine.token }), 'a token without its cookie');
    const signedIn = await postKeySignIn(vigil.url, { api_key: key });
    expect(signedIn.status).to.equal(303);
    expect(signedIn.headers.get('set-cookie')).to.match(/vigil_session=[A-Za-z0-9_-]{43}/);
  });

  it('puts the token in both sign-in forms of the page it sets the cookie with', async () => {
    vigil = await TestVigil.start();
    const page = await fetch(`${vigil.url}/sign-in`);
    expect(page.headers.get('set-cookie')).to.match(/vigil_pre_session=[A-Za-z0-9_-]{43}; path=\/; samesite=strict; httponly/i);
    const text = await page.text();
    for (const action of ['/sign-in/password', '/sign-in']) {
      const form = new RegExp(`<form method="post" action="${action}"[^>]*>\\s*<input type="hidden" name="csrf_token" value="[A-Za-z0-9_-]{43}">`);
      expect(text, action).to.match(form);
    }
  });

  it('refuses every other form shown before sign-in without it: password, passkey, setup, forgotten and reset password, invitation', async () => {
    vigil = await TestVigil.start({ env: { VIGIL_SMTP_HOST: '127.0.0.1', VIGIL_SMTP_PORT: '9', VIGIL_PUBLIC_URL: 'http://vigil.test' } });
    const setupToken = new URL(vigil.vigil.setupLink!).searchParams.get('token')!;
    await expectRefused(await post('/setup', { token: setupToken, email: 'ada@example.com', name: 'Ada', password: 'correct horse battery', password_again: 'correct horse battery' }), 'setup');

    const { userId, projectId } = await personWithPassword(vigil, 'ada@example.com', 'correct horse battery staple');
    await expectRefused(await post('/sign-in/password', { email: 'ada@example.com', password: 'correct horse battery staple' }), 'password sign-in');
    await expectRefused(await post('/sign-in/passkey', { response: '{}' }), 'passkey sign-in');
    const forgot = await post('/forgot-password', { email: 'ada@example.com' });
    expect(forgot.status, 'forgotten password').to.equal(403);
    const { token: resetToken } = await requestPasswordReset(vigil.commands, userId, 'cli', SEEDING);
    await expectRefused(await post('/reset-password', { token: resetToken, password: 'a new long password', password_again: 'a new long password' }), 'reset password');

    const ownerKey = await vigil.accountKey(userId, ALL_SCOPES);
    const invited = await vigil.request('POST', `/v1/projects/${projectId}/invitations`, { key: ownerKey, body: { email: 'grace@example.com', role: 'MEMBER' } });
    const invitationToken = String(invited.body.url).split('/invitations/')[1];
    await expectRefused(await post(`/invitations/${invitationToken}/account`, { name: 'Grace', password: 'another long password', password_again: 'another long password' }), 'invitation account');
    await vigil.settle();
    // Nothing was done: the reset link and the invitation still work, and no one joined.
    const members = (await vigil.request('GET', `/v1/projects/${projectId}`, { key: ownerKey })).body.project.members;
    expect(members.map((m: { user_id: string }) => m.user_id)).to.deep.equal([userId]);
  });
});
