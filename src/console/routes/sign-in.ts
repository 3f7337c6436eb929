import { Refusal } from '../../app/refusal.js';
import { ssoButton } from '../pages/sso.js';
import * as t from 'io-ts';
import { callerOfKeyHash } from '../../web/authentication.js';
import { decode } from '../../web/validation.js';
import { API_KEY_PATTERN, hashApiKey } from '../../app/random-tokens.js';
import type { Caller } from '../../domain/access/authorize.js';
import { credentialsOf } from '../../app/accounts.js';
import { verifyPassword } from '../../app/passwords.js';
import { PasswordSignInForm, SignInForm, readForm } from '../forms.js';
import { type SignInField, signInPage } from '../pages/sign-in.js';
import type { ConsoleKit, ConsoleRoutes } from '../kit.js';
import { clearSessionCookie, hashSessionId, preSessionCsrfMatches, preSessionCsrfToken, sessionIdFrom } from '../session.js';
import { ENDINGS, type Ending, endingOf, render } from '../signed-in.js';
import { accountThrottleKey, completeSignIn, consolePath, endSessions, recordFailedSignIn, signInThrottled } from '../sign-in-flow.js';

const SignInQuery = t.partial({ next: t.string, ended: t.string });

export const retryAdvice = (seconds: number | null): string => (seconds !== null && seconds > 0 ? `Try again in ${seconds} s.` : 'Try again later.');

/** The sign-in page: email and password, and the API-key form (automation's door); and sign-out. */
export const signInRoutes: ConsoleRoutes = (kit: ConsoleKit) => {
  const { router, deps, clock, sessions, signedIn, catchUp } = kit;
  const { readModels } = deps;
  const sso = deps.config.oidc?.name ?? null;

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
    render(ctx, signInPage({ next, error: null, notice: ending, csrfToken: preSessionCsrfToken(ctx), alternatives: sso ? ssoButton(sso, next) : null }));
  });

  router.post('/sign-in/password', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const form = await readForm(ctx, PasswordSignInForm);
    const next = consolePath(form.next);
    const email = form.email.trim();
    const again = (status: number, error: string, errorField: SignInField) =>
      render(ctx, signInPage({ next, error, errorField, notice: null, csrfToken: preSessionCsrfToken(ctx), alternatives: sso ? ssoButton(sso, next) : null, email }), status);
    if (!preSessionCsrfMatches(ctx, form.csrf_token)) return again(403, 'This form has expired: sign in again', 'email');
    if (email === '') return again(400, 'Enter your email address', 'email');
    if (form.password === '') return again(400, 'Enter your password', 'password');
    const account = accountThrottleKey(email);
    const tooMany = (wait: number) => {
      ctx.set('Retry-After', String(wait));
      return again(429, `Too many failed sign-ins. ${retryAdvice(wait)}`, 'email');
    };
    const waitFirst = signInThrottled(kit, ctx, account);
    const credentials = await credentialsOf(deps.commands, email);
    if (waitFirst !== null) {
      // Refused without checking the password, right or wrong: a guess made now tells nothing.
      await recordFailedSignIn(kit, ctx, { userId: credentials?.userId ?? null, account, method: 'password', reason: 'throttled' });
      return tooMany(waitFirst);
    }
    // A hash is computed whether or not the email names anyone: the answer takes as long either way.
    if (await verifyPassword(form.password, credentials?.passwordHash ?? null)) {
      return completeSignIn(kit, ctx, { userId: credentials!.userId, method: 'password', next });
    }
    const reason = credentials === null ? 'unknown_account' : credentials.passwordHash === null ? 'no_password' : 'wrong_password';
    const wait = await recordFailedSignIn(kit, ctx, { userId: credentials?.userId ?? null, account, method: 'password', reason });
    if (wait !== null) return tooMany(wait);
    // The same words for an unknown email as for a wrong password: the form never says which accounts exist.
    return again(401, 'Email or password is wrong', 'email');
  });

  router.post('/sign-in', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const form = await readForm(ctx, SignInForm);
    const next = consolePath(form.next);
    const presented = form.api_key.trim();
    const refuse = (error: string) => render(ctx, signInPage({ next, error, notice: null, csrfToken: preSessionCsrfToken(ctx), alternatives: sso ? ssoButton(sso, next) : null }), presented === '' ? 400 : 401);
    // A wrong key counts against the address exactly as a wrong X-API-Key does (one throttle for
    // both doors): the form is no way around the API's limit on failed authentications.
    const refuseCounted = async (error: string, reason: string) => {
      const wait = await recordFailedSignIn(kit, ctx, { userId: null, method: 'api_key', reason });
      if (wait === null) return refuse(error);
      ctx.set('Retry-After', String(wait));
      return render(ctx, signInPage({ next, error: `Too many failed sign-ins from this address. ${retryAdvice(wait)}`, notice: null, csrfToken: preSessionCsrfToken(ctx), alternatives: sso ? ssoButton(sso, next) : null }), 429);
    };
    // Without the token its page gave this browser, the form was posted from elsewhere: signing a
    // victim in to the attacker's key (login CSRF) would have them enter their data into it.
    if (!preSessionCsrfMatches(ctx, form.csrf_token)) return render(ctx, signInPage({ next, error: 'This form has expired: sign in again', notice: null, csrfToken: preSessionCsrfToken(ctx), alternatives: sso ? ssoButton(sso, next) : null }), 403);
    if (presented === '') return refuse('Enter your API key');
    if (!API_KEY_PATTERN.test(presented)) return refuseCounted('That is not an API key: check that you copied all of it', 'wrong_api_key');
    const keyHash = hashApiKey(presented);
    let caller: Caller;
    try {
      caller = await callerOfKeyHash(readModels, keyHash, clock, signInThrottled(kit, ctx, null) !== null ? async () => {} : catchUp);
    } catch (error) {
      if (error instanceof Refusal && error.status === 401) {
        const ending = endingOf(error.message);
        if (ending === 'revoked') return refuseCounted('This API key has been revoked', 'revoked_api_key');
        if (ending === 'expired') return refuseCounted('This API key has expired', 'expired_api_key');
        return refuseCounted('No API key matches: check that you copied all of it', 'wrong_api_key');
      }
      throw error;
    }
    if (caller.apiKeyId !== null) kit.onKeyUsed(caller.userId, caller.apiKeyId);
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
