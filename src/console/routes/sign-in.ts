import * as t from 'io-ts';
import { callerOfKeyHash } from '../../api/authentication.js';
import { HttpError } from '../../api/errors.js';
import { decode } from '../../api/validation.js';
import { API_KEY_PATTERN, hashApiKey } from '../../app/random-tokens.js';
import type { Caller } from '../../domain/access/authorize.js';
import { SignInForm, readForm } from '../forms.js';
import { signInPage } from '../pages/sign-in.js';
import type { ConsoleKit, ConsoleRoutes } from '../routes.js';
import { hashSessionId, sessionIdFrom, clearSessionCookie } from '../session.js';
import { ENDINGS, type Ending, endingOf, render } from '../signed-in.js';
import { completeSignIn, consolePath, endSessions, recordFailedSignIn, signInThrottled } from '../sign-in-flow.js';

const SignInQuery = t.partial({ next: t.string, ended: t.string });

export const retryAdvice = (seconds: number | null): string => (seconds !== null && seconds > 0 ? `Try again in ${seconds} s.` : 'Try again later.');

/** The sign-in page, its API-key form (automation's door), and sign-out. */
export const signInRoutes: ConsoleRoutes = (kit: ConsoleKit) => {
  const { router, deps, clock, sessions, signedIn, catchUp } = kit;
  const { readModels } = deps;

  router.get('/sign-in', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const query = decode(SignInQuery, ctx.query, 'query');
    const next = consolePath(query.next);
    const id = sessionIdFrom(ctx);
    if (id && (await sessions.find(hashSessionId(id), clock()))) {
      ctx.status = 303;
      ctx.redirect(next ?? '/');
      return;
    }
    const ending = query.ended !== undefined && Object.hasOwn(ENDINGS, query.ended) ? ENDINGS[query.ended as Ending] : null;
    render(ctx, signInPage({ next, error: null, notice: ending }));
  });

  router.post('/sign-in', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const form = await readForm(ctx, SignInForm);
    const next = consolePath(form.next);
    const presented = form.api_key.trim();
    const refuse = (error: string) => render(ctx, signInPage({ next, error, notice: null }), presented === '' ? 400 : 401);
    // A wrong key counts against the address exactly as a wrong X-API-Key does (one throttle for
    // both doors): the form is no way around the API's limit on failed authentications.
    const refuseCounted = async (error: string, reason: string) => {
      const wait = await recordFailedSignIn(kit, ctx, { userId: null, method: 'api_key', reason });
      if (wait === null) return refuse(error);
      ctx.set('Retry-After', String(wait));
      return render(ctx, signInPage({ next, error: `Too many failed sign-ins from this address. ${retryAdvice(wait)}`, notice: null }), 429);
    };
    if (presented === '') return refuse('Enter your API key');
    if (!API_KEY_PATTERN.test(presented)) return refuseCounted('That is not an API key: check that you copied all of it', 'wrong_api_key');
    const keyHash = hashApiKey(presented);
    let caller: Caller;
    try {
      caller = await callerOfKeyHash(readModels, keyHash, clock, signInThrottled(kit, ctx, null) !== null ? async () => {} : catchUp);
    } catch (error) {
      if (error instanceof HttpError && error.status === 401) {
        const ending = endingOf(error.message);
        if (ending === 'revoked') return refuseCounted('This API key has been revoked', 'revoked_api_key');
        if (ending === 'expired') return refuseCounted('This API key has expired', 'expired_api_key');
        return refuseCounted('No API key matches: check that you copied all of it', 'wrong_api_key');
      }
      throw error;
    }
    await completeSignIn(kit, ctx, { userId: caller.userId, method: 'api_key', next, apiKey: { id: caller.apiKeyId ?? '', keyHash, expiresAt: caller.expiresAt } });
  });

  router.post('/sign-out', signedIn, async (ctx) => {
    await sessions.delete(ctx.state.sessionIdHash);
    await endSessions(kit, ctx, ctx.state.session.userId, [ctx.state.session.ref], 'signed_out');
    clearSessionCookie(ctx);
    ctx.status = 303;
    ctx.redirect('/sign-in?ended=signed-out');
  });
};
