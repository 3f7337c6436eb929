import * as t from 'io-ts';
import type { Context } from 'koa';
import { HttpError } from '../../web/errors.js';
import type { Actor } from '../../app/command-handler.js';
import { passkeyAuthenticationOptions } from '../../app/passkeys.js';
import { secondFactorsOf, signInWithPasskey, signInWithRecoveryCode, signInWithTotp } from '../../app/second-factors.js';
import { DomainError } from '../../domain/errors.js';
import { recoveryCodesLeft } from '../../domain/identity/second-factors.js';
import { MemoryChallengeStore } from '../../web/challenge-store.js';
import { readForm } from '../forms.js';
import { SECOND_STEP_PATH, type SecondStepView, secondStepPage } from '../pages/second-step.js';
import type { ConsoleKit, ConsoleRoutes } from '../kit.js';
import { preSessionCsrfMatches, preSessionCsrfToken } from '../session.js';
import type { ConsoleSession } from '../../web/session-store.js';
import { render } from '../signed-in.js';
import { abandonPendingSignIn, completePendingSignIn, pendingSignIn, recordFailedSignIn, signInThrottled } from '../sign-in-flow.js';
import { authenticationResponse } from '../webauthn-codecs.js';
import { relyingPartyOf } from './second-factors.js';
import { PASSKEY_TIMEOUT_MS } from '../../app/passkeys.js';
import { retryAdvice } from './sign-in.js';

const CodeForm = t.intersection([t.type({ code: t.string }), t.partial({ csrf_token: t.string })]);
const PasskeyForm = t.intersection([t.type({ response: t.string }), t.partial({ csrf_token: t.string })]);
const CancelForm = t.partial({ csrf_token: t.string });

type Method = 'totp' | 'passkey' | 'recovery_code';
const FORM_OF = { totp: 'totp', passkey: 'passkey', recovery_code: 'recovery' } as const;

/**
 * `/sign-in/second-factor`: the second step of a sign-in the gate (second-factor-gate.ts) held
 * back. It finds the waiting sign-in through sign-in-flow.ts, checks the factor through the
 * person's `factors-` stream (each attempt, right or wrong, recorded there), and completes the
 * sign-in, or records the failure through the flow, which counts it against the address and the
 * account as a wrong password is.
 */
export const secondStepRoutes: ConsoleRoutes = (kit: ConsoleKit) => {
  const { router, deps, clock } = kit;
  const { commands } = deps;
  const challenges = deps.challenges ?? new MemoryChallengeStore();
  const challengeKey = (pending: ConsoleSession) => `sign-in:${pending.idHash}`;

  const attemptActor = (ctx: Context, pending: ConsoleSession): Actor => ({
    kind: 'user', user_id: pending.userId, api_key_id: null, request_id: typeof ctx.state['requestId'] === 'string' ? ctx.state['requestId'] : null,
    cause: 'sign_in', request_ip: ctx.ip, request_ua: ctx.get('User-Agent') || null,
  });

  async function show(ctx: Context, pending: ConsoleSession, problem: SecondStepView['problem'], status = 200): Promise<void> {
    ctx.set('Cache-Control', 'no-store');
    const state = await secondFactorsOf(commands, pending.userId);
    let passkeyOptions: string | null = null;
    if (state.passkeys.size > 0) {
      const options = await passkeyAuthenticationOptions(relyingPartyOf(ctx, deps.config.publicUrl), [...state.passkeys.values()]);
      const now = clock();
      await challenges.put(challengeKey(pending), options.challenge, new Date(Math.min(Date.parse(pending.expiresAt), now.getTime() + PASSKEY_TIMEOUT_MS + 5 * 60_000)).toISOString(), now);
      passkeyOptions = JSON.stringify(options);
    }
    render(ctx, secondStepPage({
      csrfToken: preSessionCsrfToken(ctx), passkeyOptions, hasTotp: state.totp !== null, hasRecoveryCodes: recoveryCodesLeft(state) > 0, problem,
    }), status);
  }

  /** The waiting sign-in of a POST, its form checked; null when there is none (the answer is then a redirect to start again). */
  async function postedPending<A extends { csrf_token?: string | undefined }>(ctx: Context, codec: t.Decoder<unknown, A>): Promise<{ pending: ConsoleSession; form: A } | null> {
    ctx.set('Cache-Control', 'no-store');
    const form = await readForm(ctx, codec);
    if (!preSessionCsrfMatches(ctx, form.csrf_token)) throw new HttpError(403, 'this form has expired or did not come from this browser; reload the page and try again');
    const pending = await pendingSignIn(kit, ctx);
    if (!pending) {
      ctx.status = 303;
      ctx.redirect('/sign-in?ended=ended');
      return null;
    }
    return { pending, form };
  }

  /** One attempt: refused unchecked while throttled; a right one completes the sign-in, a wrong one is counted and the page shown again. */
  async function attempt(ctx: Context, pending: ConsoleSession, method: Method, check: () => Promise<unknown>): Promise<void> {
    const tooMany = (seconds: number | null) => {
      if (seconds !== null) ctx.set('Retry-After', String(seconds));
      return show(ctx, pending, { form: FORM_OF[method], message: `Too many failed attempts. ${retryAdvice(seconds)}` }, 429);
    };
    const waiting = signInThrottled(kit, ctx, pending.userId);
    if (waiting !== null) return tooMany(waiting);
    try {
      await check();
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      if (error.reason === 'rate_limited') return show(ctx, pending, { form: FORM_OF[method], message: `${capitalized(error.message)}.` }, 429);
      const wait = await recordFailedSignIn(kit, ctx, { userId: pending.userId, method: pending.method, reason: 'wrong_second_factor' });
      if (wait !== null) return tooMany(wait);
      return show(ctx, pending, { form: FORM_OF[method], message: capitalized(error.message) }, 401);
    }
    await completePendingSignIn(kit, ctx, pending, method);
  }

  router.get(SECOND_STEP_PATH, async (ctx) => {
    const pending = await pendingSignIn(kit, ctx);
    if (!pending) {
      ctx.status = 303;
      ctx.redirect('/sign-in');
      return;
    }
    await show(ctx, pending, null);
  });

  router.post(`${SECOND_STEP_PATH}/totp`, async (ctx) => {
    const posted = await postedPending(ctx, CodeForm);
    if (!posted) return;
    const { pending, form } = posted;
    await attempt(ctx, pending, 'totp', () => signInWithTotp(commands, deps.secrets, { user_id: pending.userId, code: form.code, client_address: ctx.ip }, attemptActor(ctx, pending)));
  });

  router.post(`${SECOND_STEP_PATH}/recovery-code`, async (ctx) => {
    const posted = await postedPending(ctx, CodeForm);
    if (!posted) return;
    const { pending, form } = posted;
    await attempt(ctx, pending, 'recovery_code', () => signInWithRecoveryCode(commands, { user_id: pending.userId, code: form.code, client_address: ctx.ip }, attemptActor(ctx, pending)));
  });

  router.post(`${SECOND_STEP_PATH}/passkey`, async (ctx) => {
    const posted = await postedPending(ctx, PasskeyForm);
    if (!posted) return;
    const { pending, form } = posted;
    const response = authenticationResponse(form.response);
    const challenge = await challenges.take(challengeKey(pending), clock());
    if (!response || !challenge) {
      return show(ctx, pending, { form: 'passkey', message: response ? 'The page was open too long: try the passkey again' : 'Your browser sent no passkey: try again, or use a code' }, 400);
    }
    await attempt(ctx, pending, 'passkey', () => signInWithPasskey(commands, {
      user_id: pending.userId, rp: relyingPartyOf(ctx, deps.config.publicUrl), response, challenge, client_address: ctx.ip,
    }, attemptActor(ctx, pending)));
  });

  router.post(`${SECOND_STEP_PATH}/cancel`, async (ctx) => {
    const form = await readForm(ctx, CancelForm);
    if (!preSessionCsrfMatches(ctx, form.csrf_token)) throw new HttpError(403, 'this form has expired or did not come from this browser; reload the page and try again');
    await abandonPendingSignIn(kit, ctx);
    ctx.status = 303;
    ctx.redirect('/sign-in');
  });
};

const capitalized = (message: string) => message.charAt(0).toUpperCase() + message.slice(1);
