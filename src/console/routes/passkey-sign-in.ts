import * as t from 'io-ts';
import type { Context } from 'koa';
import { HttpError } from '../../web/errors.js';
import { decode } from '../../web/validation.js';
import { PASSKEY_TIMEOUT_MS, passkeyAuthenticationOptions, userOfPasskeyResponse } from '../../app/passkeys.js';
import { signInWithPasskey } from '../../app/second-factors.js';
import { DomainError } from '../../domain/errors.js';
import { MemoryChallengeStore } from '../../web/challenge-store.js';
import { readForm } from '../forms.js';
import { PASSKEY_SIGN_IN_PATH, passkeySignInPage } from '../pages/passkey-sign-in.js';
import type { ConsoleKit, ConsoleRoutes } from '../kit.js';
import { preSessionCsrfMatches, preSessionCsrfToken } from '../session.js';
import { render } from '../signed-in.js';
import { completeSignIn, consolePath, recordFailedSignIn, signInThrottled } from '../sign-in-flow.js';
import { authenticationResponse } from '../webauthn-codecs.js';
import { relyingPartyOf } from './second-factors.js';
import { retryAdvice } from './sign-in.js';

const NextQuery = t.partial({ next: t.string });
const PasskeyForm = t.intersection([t.type({ response: t.string }), t.partial({ csrf_token: t.string, next: t.string })]);

/** One message for every passkey that does not sign anyone in, as the password form has one for every wrong password. */
const REFUSED = 'That passkey did not sign you in: use one you added to your account, or your password';

/**
 * `/sign-in/passkey`: a sign-in by passkey alone, through the sign-in flow as method `passkey`
 * (the gate asks for no second factor after it). The passkey names its person by the user handle
 * it was made with; its signature is checked against that person's `factors-` stream, and the use
 * recorded there as any second step's is.
 */
export const passkeySignInRoutes: ConsoleRoutes = (kit: ConsoleKit) => {
  const { router, deps, clock } = kit;
  const challenges = deps.challenges ?? new MemoryChallengeStore();
  // Keyed by the browser's pre-session secret (through its CSRF token): one waiting challenge per browser.
  const challengeKey = (ctx: Context) => `passkey-sign-in:${preSessionCsrfToken(ctx)}`;

  async function show(ctx: Context, next: string | null, error: string | null, status = 200): Promise<void> {
    ctx.set('Cache-Control', 'no-store');
    const options = await passkeyAuthenticationOptions(relyingPartyOf(ctx, deps.config.publicUrl), null);
    const now = clock();
    await challenges.put(challengeKey(ctx), options.challenge, new Date(now.getTime() + PASSKEY_TIMEOUT_MS + 5 * 60_000).toISOString(), now);
    render(ctx, passkeySignInPage({ csrfToken: preSessionCsrfToken(ctx), options: JSON.stringify(options), next, error }), status);
  }

  router.get(PASSKEY_SIGN_IN_PATH, async (ctx) => show(ctx, consolePath(decode(NextQuery, ctx.query, 'query').next), null));

  router.post(PASSKEY_SIGN_IN_PATH, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const form = await readForm(ctx, PasskeyForm);
    if (!preSessionCsrfMatches(ctx, form.csrf_token)) throw new HttpError(403, 'this form has expired or did not come from this browser; reload the page and try again');
    const next = consolePath(form.next);
    const waiting = signInThrottled(kit, ctx, null);
    if (waiting !== null) {
      ctx.set('Retry-After', String(waiting));
      return show(ctx, next, `Too many failed sign-ins from this address. ${retryAdvice(waiting)}`, 429);
    }
    const response = authenticationResponse(form.response);
    const challenge = await challenges.take(challengeKey(ctx), clock());
    if (!response || !challenge) return show(ctx, next, response ? 'The page was open too long: try again' : 'Your browser sent no passkey: try again', 400);
    const userId = userOfPasskeyResponse(response);
    const refuse = async (who: string | null) => {
      const wait = await recordFailedSignIn(kit, ctx, { userId: who, method: 'passkey', reason: 'wrong_passkey' });
      if (wait !== null) ctx.set('Retry-After', String(wait));
      return show(ctx, next, wait === null ? REFUSED : `Too many failed sign-ins. ${retryAdvice(wait)}`, wait === null ? 401 : 429);
    };
    if (userId === null) return refuse(null);
    try {
      await signInWithPasskey(deps.commands, { user_id: userId, rp: relyingPartyOf(ctx, deps.config.publicUrl), response, challenge, client_address: ctx.ip, alone: true }, {
        kind: 'system', user_id: null, api_key_id: null, request_id: typeof ctx.state['requestId'] === 'string' ? ctx.state['requestId'] : null, cause: 'sign_in', request_ip: ctx.ip,
      });
    } catch (error) {
      if (error instanceof DomainError) return refuse(userId);
      throw error;
    }
    await completeSignIn(kit, ctx, { userId, method: 'passkey', next });
  });
};
