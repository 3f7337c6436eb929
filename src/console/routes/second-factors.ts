import * as t from 'io-ts';
import type { Context } from 'koa';
import type { SecondFactorsDocument } from '../../../projections/second-factors.js';
import { actorOf } from '../../web/actor.js';
import { settled } from '../../web/dependencies.js';
import { HttpError } from '../../web/errors.js';
import { decode, pathId } from '../../web/validation.js';
import { PASSKEY_TIMEOUT_MS, type RelyingParty, passkeyRegistrationOptions } from '../../app/passkeys.js';
import { type FactorChange, addPasskeyFactor, addTotpFactor, regenerateRecoveryCodes, removeSecondFactor, secondFactorsOf } from '../../app/second-factors.js';
import { newTotpEnrolment, openTotpEnrolment, totpUri } from '../../app/totp.js';
import { DomainError } from '../../domain/errors.js';
import { getUser } from '../../queries/identity.js';
import { MemoryChallengeStore } from '../../web/challenge-store.js';
import { qrCodeDataUrl } from '../qr-code.js';
import type { ConsoleKit, ConsoleRoutes, ConsoleState } from '../kit.js';
import { doneNotice } from '../done-notice.js';
import { render } from '../signed-in.js';
import { FACTORS_PATH, type FormProblem, recoveryCodesPage, removeFactorPage, secondFactorsPage, totpSetupPage } from '../pages/second-factors.js';
import { registrationResponse } from '../webauthn-codecs.js';
import { signedInRecently } from '../reauthentication.js';
import { endSessions } from '../sign-in-flow.js';
import { clearSessionCookie } from '../session.js';

const DONE = {
  'passkey-added': 'Passkey added.',
  'totp-added': 'Authenticator app turned on.',
  removed: 'Second factor removed.',
} as const;

const TotpForm = t.type({ pending: t.string, code: t.string, name: t.string });
const PasskeyForm = t.type({ name: t.string, response: t.string });
const RemoveForm = t.partial({ confirm_last: t.string });

const NAME_MAX = 60;
/** How long a page's passkey challenge can wait for its ceremony: the browser's own timeout and some time to read the page. */
const CHALLENGE_LIFETIME_MS = PASSKEY_TIMEOUT_MS + 5 * 60_000;

type Ctx = Context & { state: ConsoleState; params?: Record<string, string> };

/**
 * The relying party passkeys are bound to: where people reach the console (VIGIL_PUBLIC_URL) when
 * it is set, else where this request reached it (its host name and origin, through the proxies
 * VIGIL_TRUST_PROXY trusts).
 */
export function relyingPartyOf(ctx: Context, publicUrl: string | null | undefined): RelyingParty {
  if (publicUrl) {
    const url = new URL(publicUrl);
    return { rpID: url.hostname, origin: url.origin };
  }
  return { rpID: ctx.hostname, origin: ctx.origin };
}

function checkedName(typed: string, field: string, fallback: string | null): string | FormProblem {
  const name = typed.trim() === '' && fallback !== null ? fallback : typed.trim();
  if (name === '' || name.length > NAME_MAX) return { field, message: `Enter a name of 1 to ${NAME_MAX} characters` };
  return name;
}

const isProblem = (value: unknown): value is FormProblem => typeof value === 'object' && value !== null && 'field' in value;

/**
 * The account's second factors (authenticator app, passkeys, recovery codes), for whoever is
 * signed in. Every change needs a recent sign-in (reauthentication.ts): past it, the page offers to
 * sign in again, and a POST is refused.
 */
export const secondFactorRoutes: ConsoleRoutes = (kit: ConsoleKit) => {
  const { router, deps, signedIn, clock } = kit;
  const { readModels, commands } = deps;
  const challenges = deps.challenges ?? new MemoryChallengeStore();

  const factorsDoc = async (userId: string) => (await readModels.get<SecondFactorsDocument>('second_factors', userId))?.doc ?? null;
  const registerKey = (ctx: Ctx) => `register:${ctx.state.sessionIdHash}`;

  const fresh = (ctx: Ctx) => signedInRecently(ctx.state.session, clock());

  async function showFactors(ctx: Ctx, problem: FormProblem | null = null, passkeyName = ''): Promise<void> {
    ctx.set('Cache-Control', 'no-store');
    const userId = ctx.state.caller.userId;
    const now = clock();
    const [user, factors, state] = await Promise.all([getUser(readModels, userId), factorsDoc(userId), secondFactorsOf(commands, userId)]);
    let registrationOptions: string | null = null;
    if (fresh(ctx)) {
      const email = user?.email ?? ctx.state.viewer.email;
      const options = await passkeyRegistrationOptions(relyingPartyOf(ctx, deps.config.publicUrl), { userId, email, name: user ? `${user.first_name} ${user.last_name}`.trim() || email : email }, [...state.passkeys.values()]);
      await challenges.put(registerKey(ctx), options.challenge, new Date(now.getTime() + CHALLENGE_LIFETIME_MS).toISOString(), now);
      registrationOptions = JSON.stringify(options);
    }
    render(ctx, secondFactorsPage({
      viewer: ctx.state.viewer, notice: problem ? null : doneNotice(ctx, DONE), factors, registrationOptions, problem, passkeyName, fresh: fresh(ctx), now,
    }), problem ? 400 : 200);
  }

  /** Every change goes through here first: a session that signed in too long ago is sent back to the page that says so. */
  function staleRefused(ctx: Ctx): boolean {
    if (fresh(ctx)) return false;
    ctx.status = 303;
    ctx.redirect(FACTORS_PATH);
    return true;
  }

  async function showTotpSetup(ctx: Ctx, seed: string, pending: string, name: string, problem: FormProblem | null): Promise<void> {
    ctx.set('Cache-Control', 'no-store');
    const qrCode = await qrCodeDataUrl(totpUri(seed, ctx.state.viewer.email));
    render(ctx, totpSetupPage({ viewer: ctx.state.viewer, secret: seed, qrCode, pending, name, problem }), problem ? 400 : 200);
  }

  /** After a change: the new recovery codes when it made some (shown this once), else back to the list. */
  async function afterChange(ctx: Ctx, change: FactorChange, done: keyof typeof DONE, firstFactorNotice: string): Promise<void> {
    await settled(deps, change.position, ctx.state);
    if (change.recoveryCodes) {
      ctx.set('Cache-Control', 'no-store');
      render(ctx, recoveryCodesPage(ctx.state.viewer, change.recoveryCodes, firstFactorNotice));
      return;
    }
    ctx.status = 303;
    ctx.redirect(`${FACTORS_PATH}?done=${done}`);
  }

  /** A domain refusal as the form's problem, on the field it concerns. */
  const refusal = (error: unknown, field: string): FormProblem => {
    if (error instanceof DomainError && error.reason !== 'rate_limited') return { field, message: error.message.charAt(0).toUpperCase() + error.message.slice(1) };
    throw error;
  };

  router.get(FACTORS_PATH, signedIn, async (ctx) => showFactors(ctx));

  router.post(`${FACTORS_PATH}/sign-in-again`, signedIn, async (ctx) => {
    // The session ends here; signing in again (second factor included) opens a fresh one that comes back.
    const { session } = ctx.state;
    await kit.sessions.delete(session.idHash);
    await endSessions(kit, ctx, session.userId, [session.ref], 'reauthenticating');
    clearSessionCookie(ctx);
    ctx.status = 303;
    ctx.redirect(`/sign-in?next=${encodeURIComponent(FACTORS_PATH)}`);
  });

  router.get(`${FACTORS_PATH}/totp`, signedIn, async (ctx) => {
    if (staleRefused(ctx)) return;
    const enrolment = newTotpEnrolment(deps.secrets, ctx.state.caller.userId, ctx.state.viewer.email, clock());
    await showTotpSetup(ctx, enrolment.secret, enrolment.pending, 'Authenticator app', null);
  });

  router.post(`${FACTORS_PATH}/totp`, signedIn, async (ctx) => {
    if (staleRefused(ctx)) return;
    const form = decode(TotpForm, ctx.request.body, 'form');
    const userId = ctx.state.caller.userId;
    const seed = openTotpEnrolment(deps.secrets, form.pending, userId, clock());
    if (seed === null) {
      // Expired or not this person's: a fresh seed, since the one shown can no longer be confirmed.
      const enrolment = newTotpEnrolment(deps.secrets, userId, ctx.state.viewer.email, clock());
      return showTotpSetup(ctx, enrolment.secret, enrolment.pending, form.name, { field: 'totp-code', message: 'This set-up page expired: scan the new QR code and enter its code' });
    }
    const again = (problem: FormProblem) => showTotpSetup(ctx, seed, form.pending, form.name, problem);
    const name = checkedName(form.name, 'totp-name', 'Authenticator app');
    if (isProblem(name)) return again(name);
    let change: FactorChange;
    try {
      change = await addTotpFactor(commands, deps.secrets, { user_id: userId, factor_id: commands.newId(), name, pending: form.pending, code: form.code }, actorOf(ctx.state));
    } catch (error) {
      return again(refusal(error, 'totp-code'));
    }
    await afterChange(ctx, change, 'totp-added', 'Authenticator app turned on. From now on, signing in asks for a code from it.');
  });

  router.post(`${FACTORS_PATH}/passkeys`, signedIn, async (ctx) => {
    if (staleRefused(ctx)) return;
    const form = decode(PasskeyForm, ctx.request.body, 'form');
    const name = checkedName(form.name, 'passkey-name', null);
    if (isProblem(name)) return showFactors(ctx, name, form.name);
    const response = registrationResponse(form.response);
    if (!response) return showFactors(ctx, { field: 'passkey-name', message: 'Your browser did not make a passkey: it needs JavaScript and a passkey, phone or security key' }, form.name);
    const challenge = await challenges.take(registerKey(ctx), clock());
    if (!challenge) return showFactors(ctx, { field: 'passkey-name', message: 'The page was open too long: try again' }, form.name);
    let change: FactorChange;
    try {
      change = await addPasskeyFactor(commands, {
        user_id: ctx.state.caller.userId, factor_id: commands.newId(), name, rp: relyingPartyOf(ctx, deps.config.publicUrl), response, challenge,
      }, actorOf(ctx.state));
    } catch (error) {
      return showFactors(ctx, refusal(error, 'passkey-name'), form.name);
    }
    await afterChange(ctx, change, 'passkey-added', `Passkey ${name} added. From now on, signing in asks for it.`);
  });

  router.post(`${FACTORS_PATH}/recovery-codes`, signedIn, async (ctx) => {
    if (staleRefused(ctx)) return;
    let change: FactorChange;
    try {
      change = await regenerateRecoveryCodes(commands, ctx.state.caller.userId, actorOf(ctx.state));
    } catch (error) {
      return showFactors(ctx, refusal(error, 'new-codes'));
    }
    await settled(deps, change.position, ctx.state);
    ctx.set('Cache-Control', 'no-store');
    render(ctx, recoveryCodesPage(ctx.state.viewer, change.recoveryCodes ?? [], null));
  });

  async function factorToRemove(ctx: Ctx) {
    const factorId = pathId(ctx.params?.['factorId'], 'second factor');
    const doc = await factorsDoc(ctx.state.caller.userId);
    const factor = doc?.factors.find((f) => f.factor_id === factorId);
    if (!doc || !factor) throw new HttpError(404, 'second factor not found');
    ctx.set('Cache-Control', 'no-store');
    return { factor, isLast: doc.factors.length === 1 };
  }

  router.get(`${FACTORS_PATH}/:factorId/remove`, signedIn, async (ctx) => {
    if (staleRefused(ctx)) return;
    const { factor, isLast } = await factorToRemove(ctx);
    render(ctx, removeFactorPage({ viewer: ctx.state.viewer, factor, isLast, problem: null }));
  });

  router.post(`${FACTORS_PATH}/:factorId/remove`, signedIn, async (ctx) => {
    if (staleRefused(ctx)) return;
    const form = decode(RemoveForm, ctx.request.body, 'form');
    const { factor, isLast } = await factorToRemove(ctx);
    const again = (problem: FormProblem) => render(ctx, removeFactorPage({ viewer: ctx.state.viewer, factor, isLast, problem }), 400);
    // The last factor goes only from the page that said it was the last.
    if (isLast && form.confirm_last !== 'yes') return again({ field: 'remove', message: 'This is your last second factor: confirm that you want to remove it' });
    const outcome = await removeSecondFactor(commands, { user_id: ctx.state.caller.userId, factor_id: factor.factor_id }, actorOf(ctx.state));
    await settled(deps, outcome.position, ctx.state);
    ctx.status = 303;
    ctx.redirect(`${FACTORS_PATH}?done=removed`);
  });
};
