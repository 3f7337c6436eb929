import { Refusal } from '../app/refusal.js';
import type { Context, Middleware } from 'koa';
import { callerOfKeyHash } from '../web/authentication.js';
import { HttpError } from '../web/errors.js';
import type { VigilState } from '../web/state.js';
import { type Caller } from '../domain/access/authorize.js';
import { SCOPES } from '../domain/access/scopes.js';
import { getUser } from '../queries/identity.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';
import { ActionForm, readForm } from './forms.js';
import { html } from './html.js';
import { type Viewer, page } from './layout.js';
import { clearSessionCookie, csrfTokenOf, hashSessionId, sameToken, sessionIdFrom } from './session.js';
import type { ConsoleSession, SessionStore } from '../web/session-store.js';

/** What the console's handlers find on `ctx.state` once the session is checked. */
export interface ConsoleState extends VigilState {
  viewer: Viewer;
  sessionIdHash: string;
  /** The session itself: who, how they signed in, its public reference. */
  session: ConsoleSession;
}

/** Why a session ended, as the sign-in page says it; the query names one of these, never free text. */
export const ENDINGS = {
  'signed-out': 'You have signed out.',
  revoked: 'Your session ended because its API key was revoked. Sign in with another key.',
  expired: 'Your session ended because its API key expired. Sign in with another key.',
  ended: 'Your session has ended. Sign in again.',
} as const;
export type Ending = keyof typeof ENDINGS;

export function endingOf(message: string): Ending {
  if (/revoked/.test(message)) return 'revoked';
  if (/expired/.test(message)) return 'expired';
  return 'ended';
}

/**
 * The caller behind a console session, checked again on every request: a session opened with an
 * API key is as live as its key (callerOfKeyHash); a person's session acts with the person's full
 * rights, an ACCOUNT caller with every scope, limited only by their role on each project, which the
 * gates look up per request (so a role lowered or a membership removed counts at once). A 401
 * when the key or the user is gone.
 */
export async function callerOfSession(readModels: ReadModelStore, session: ConsoleSession, clock: () => Date, catchUp: () => Promise<void> = async () => {}): Promise<Caller> {
  if (session.method === 'api_key') {
    if (session.keyHash === null) throw new HttpError(401, 'session has no API key');
    return { ...(await callerOfKeyHash(readModels, session.keyHash, clock, catchUp)), sessionRef: session.ref };
  }
  if (!(await getUser(readModels, session.userId))) throw new HttpError(401, 'user not found');
  return { userId: session.userId, apiKeyId: null, sessionRef: session.ref, kind: 'ACCOUNT', scopes: [...SCOPES], projectId: null, expiresAt: session.expiresAt };
}

export function render(ctx: Context, markup: { markup: string }, status = 200): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = markup.markup;
}

/** Sends a browser that is not signed in (or no longer) to the sign-in page, keeping where it was going. */
export function toSignIn(ctx: Context, ending: Ending | null): void {
  if (ctx.get('Accept').includes('text/event-stream')) {
    // An EventSource follows no redirect: it is told, and the page goes to sign in.
    ctx.status = 200;
    ctx.type = 'text/event-stream';
    ctx.body = 'event: signed-out\ndata: {}\n\n';
    return;
  }
  const query = new URLSearchParams();
  const asOf = typeof ctx.query['as_of'] === 'string' ? `?as_of=${encodeURIComponent(ctx.query['as_of'])}` : '';
  if (ctx.method === 'GET' && ctx.path !== '/') query.set('next', `${ctx.path}${asOf}`);
  if (ending) query.set('ended', ending);
  const search = query.toString();
  if (ctx.method === 'GET' && ctx.get('Sec-Fetch-Site') === 'cross-site' && ending === null) {
    // A link followed from another site (an alert in a chat) comes without the SameSite=Strict
    // cookie. The page reloads itself from here, a same-site navigation that carries it.
    render(ctx, page({ title: 'Opening', viewer: null, body: html`<p>Opening… <a href="${ctx.path}">Continue</a></p>` }));
    ctx.set('Refresh', `0; url=${ctx.path}`);
    return;
  }
  ctx.redirect(`/sign-in${search ? `?${search}` : ''}`);
  ctx.status = 303;
}

/**
 * The session's check on every console request: a live session (not a pending sign-in), its key
 * or its person still there, and for a POST the form's CSRF token. A session ended elsewhere (the
 * account page, a password change) is gone from the store, so its next request lands here signed out.
 */
export function signedInMiddleware(options: { readModels: ReadModelStore; sessions: SessionStore; clock: () => Date; catchUp: () => Promise<void> }): Middleware<ConsoleState> {
  const { readModels, sessions, clock, catchUp } = options;
  return async (ctx, next) => {
    const id = sessionIdFrom(ctx);
    const now = clock();
    const session = id ? await sessions.find(hashSessionId(id), now) : null;
    if (!id || !session) {
      if (id) clearSessionCookie(ctx);
      toSignIn(ctx, id ? 'ended' : null);
      return;
    }
    try {
      ctx.state.caller = await callerOfSession(readModels, session, clock, catchUp);
    } catch (error) {
      if (!(error instanceof Refusal) || error.status !== 401) throw error;
      await sessions.delete(session.idHash);
      clearSessionCookie(ctx);
      toSignIn(ctx, endingOf(error.message));
      return;
    }
    await sessions.touch(session.idHash, now);
    const user = await getUser(readModels, session.userId);
    ctx.state.viewer = { email: user?.email ?? session.userId, csrfToken: csrfTokenOf(id) };
    ctx.state.sessionIdHash = session.idHash;
    ctx.state.session = session;
    if (ctx.method === 'POST') {
      const form = await readForm(ctx, ActionForm);
      if (!sameToken(form.csrf_token ?? '', ctx.state.viewer.csrfToken)) throw new HttpError(403, 'this form has expired or did not come from this session; reload the page and try again');
    }
    // As the REST API: a page shows every write acknowledged before it, pings included.
    await catchUp();
    await next();
  };
}

/** For the live stream: whether the session is still open and its key or person still there. */
export async function stillSignedIn(readModels: ReadModelStore, sessions: SessionStore, sessionIdHash: string, clock: () => Date): Promise<boolean> {
  const session = await sessions.find(sessionIdHash, clock());
  if (!session) return false;
  return callerOfSession(readModels, session, clock).then(() => true, () => false);
}
