import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { setPassword } from '../../src/app/accounts.js';
import type { Actor } from '../../src/app/command-handler.js';
import { hashPassword } from '../../src/app/passwords.js';
import { PRE_SESSION_COOKIE, csrfTokenOf } from '../../src/console/session.js';
import type { TestVigil } from './test-vigil.js';

const SEEDING: Actor = { kind: 'system', user_id: null, api_key_id: null, request_id: null };

/** A person with a password (and, unless told not to, a project they own), as the setup page or an invitation leaves them. */
export async function personWithPassword(vigil: TestVigil, email: string, password: string, project: string | null = 'Team'): Promise<{ userId: string; projectId: string | null }> {
  const userId = await vigil.user(email);
  await setPassword(vigil.commands, { user_id: userId, password_hash: await hashPassword(password), reason: 'setup' }, SEEDING);
  const projectId = project === null ? null : await vigil.project(userId, project);
  await vigil.settle();
  return { userId, projectId };
}

/** A browser-less sign-in form round: GET /sign-in for the pre-session cookie and token, then POST. */
export async function postPasswordSignIn(url: string, email: string, password: string, preSession?: { cookie: string; token: string }): Promise<{ response: Response; text: string; preSession: { cookie: string; token: string } }> {
  let pre = preSession;
  if (!pre) {
    const page = await fetch(`${url}/sign-in`);
    const cookie = /vigil_pre_session=[^;]+/.exec(page.headers.get('set-cookie') ?? '')?.[0] ?? '';
    const token = /name="csrf_token" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
    expect(cookie, 'pre-session cookie').to.not.equal('');
    pre = { cookie, token };
  }
  const response = await fetch(`${url}/sign-in/password`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: pre.cookie },
    body: new URLSearchParams({ email, password, csrf_token: pre.token }),
  });
  return { response, text: await response.text(), preSession: pre };
}

/**
 * A pre-session as a browser holds one after it opened a sign-in page: the cookie and the token
 * its forms carry (every form posted before sign-in needs both). For specs that post those forms
 * without a browser and are not about the pre-session itself.
 */
export function preSession(): { cookie: string; token: string } {
  const secret = randomBytes(32).toString('base64url');
  return { cookie: `${PRE_SESSION_COOKIE}=${secret}`, token: csrfTokenOf(secret) };
}

/** POSTs the API-key sign-in form as a browser that opened the page would; `headers` may add cookies (joined) and more. */
export function postKeySignIn(url: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  const pre = preSession();
  const { Cookie, ...rest } = headers;
  return fetch(`${url}/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...rest, Cookie: Cookie ? `${Cookie}; ${pre.cookie}` : pre.cookie },
    body: new URLSearchParams({ csrf_token: pre.token, ...fields }),
  });
}
