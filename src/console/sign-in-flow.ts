import { createHash, randomUUID } from 'node:crypto';
import type { Context } from 'koa';
import type { Actor } from '../app/command-handler.js';
import { recordSignIn } from '../app/sign-ins.js';
import { normalizeEmail } from '../domain/identity/email-claim.js';
import type { SessionEnding, SignInFailure, SignInMethod } from '../domain/identity/sign-ins.js';
import type { ConsoleKit, SecondFactorGate } from './kit.js';
import { type ConsoleSession } from '../web/session-store.js';
import {
  PENDING_COOKIE, PENDING_MAX_AGE_MS, clearSessionCookie, hashSessionId, newSessionId, sessionExpiry, sessionIdFrom, setSessionCookie,
} from './session.js';

/*
 * How every way of signing in ends: the one place a console session is opened.
 *
 * A sign-in method (the password form, a passkey, single sign-on, the first-run setup link, an
 * accepted invitation, a password reset, an API key) identifies a person its own way, then:
 *
 *   - before it checks a secret: `signInThrottled(kit, ctx, account)`, `account` being
 *     accountThrottleKey(email) for a form that names an email (known or not), the user id where
 *     the user is known already, or null; when it answers a number of seconds, refuse without
 *     checking (a 429 page, "try again in N s").
 *   - on a failure: `await recordFailedSignIn(kit, ctx, { userId, account, method, reason })`, which records
 *     UserSignInFailed (the user's id, or null for an email that names no one; the address and user
 *     agent; never what was typed) and counts the failure against the client address (the REST API's
 *     failed-authentication throttle, shared) and the account. It answers the seconds to wait when
 *     that failure was one too many (show the 429 page), or null (show the method's own refusal).
 *     Say the same thing for an unknown account as for a wrong secret.
 *   - on success: `await completeSignIn(kit, ctx, { userId, method, next })`. It answers the
 *     request itself (a 303), so the handler returns right after. When the second-factor gate
 *     (kit.secondFactors, see second-factor-gate.ts) says this user must pass one, it records
 *     nothing yet: it keeps a pending sign-in (its id hashed, server side, 10 minutes, under a
 *     cookie of its own) and redirects to `/sign-in/second-factor`. Otherwise it ends whatever
 *     session the browser held (fixation), opens a new one, records UserSignedIn, sets the cookie
 *     and redirects to `next` if that is a console path (consolePath), else to `/`.
 *
 * The second-factor page (the factors feature) finds the waiting sign-in with
 * `pendingSignIn(kit, ctx)`, shows its form with `preSessionCsrfToken(ctx)` (session.ts), and
 * once the factor checks out calls `completePendingSignIn(kit, ctx, pending, 'totp' | 'passkey' |
 * 'recovery_code')`, or on a wrong one `recordFailedSignIn(kit, ctx, { userId: pending.userId,
 * method: pending.method, reason: 'wrong_second_factor' })`.
 *
 * Ending sessions (sign-out, ended from the account page, a password changed or reset) goes
 * through `endSessions`, which records UserSessionEnded for each.
 */

/** What the method found out: who, how, and where they wanted to go. */
export interface IdentifiedPerson {
  userId: string;
  method: SignInMethod;
  /** Where the person was going (a `next` from a form or a query): used only if consolePath accepts it. */
  next?: string | null;
  /** For `method: 'api_key'` only: the key, checked again on every request of the session. */
  apiKey?: { id: string; keyHash: string; expiresAt: string } | null;
}

export type { SecondFactorGate, SignInThrottles } from './kit.js';

export const NO_SECOND_FACTOR: SecondFactorGate = { required: async () => false };

/** Only the console's own pages may be where sign-in leads: never another site, never a protocol-relative URL. */
export function consolePath(next: string | null | undefined): string | null {
  if (next === undefined || next === null) return null;
  // A path of the console's own shape (`/projects/<id>`, …, `/projects/<id>/settings/on-call/<id>/edit`): a letter
  // after the one slash, so never `//host` or a scheme.
  // A past view keeps its instant (`?as_of=`, ISO characters only).
  return next === '/' || /^\/[a-z][a-z-]{0,31}(\/[A-Za-z0-9_-]{1,64}){0,5}(\?as_of=[0-9A-Za-z:.%+-]{1,40})?$/.test(next) ? next : null;
}

const userAgentOf = (ctx: Context): string | null => ctx.get('User-Agent') || null;

function requestId(ctx: Context): string | null {
  const id: unknown = ctx.state['requestId'];
  return typeof id === 'string' ? id : null;
}

function personActor(ctx: Context, session: Pick<ConsoleSession, 'userId' | 'apiKeyId' | 'ref'>): Actor {
  return { kind: 'user', user_id: session.userId, api_key_id: session.apiKeyId, request_id: requestId(ctx), session_ref: session.ref, request_ip: ctx.ip, request_ua: userAgentOf(ctx) };
}

function attemptActor(ctx: Context): Actor {
  return { kind: 'system', user_id: null, api_key_id: null, request_id: requestId(ctx), cause: 'sign_in', request_ip: ctx.ip, request_ua: userAgentOf(ctx) };
}

/**
 * What the per-account throttle counts a sign-in form's failures by: a hash of the email typed,
 * known or not, so that being throttled says nothing about whether the account exists (counting
 * by user id would throttle only real accounts). Methods that know the user already (a second
 * factor) count by the user id.
 */
export function accountThrottleKey(email: string): string {
  return createHash('sha256').update(normalizeEmail(email)).digest('hex');
}

/** Seconds to wait before this address (or, named, this account: see accountThrottleKey) may try again; null when it may try now. */
export function signInThrottled(kit: ConsoleKit, ctx: Context, account: string | null): number | null {
  const { address, account: perAccount } = kit.signInThrottles;
  const waits = [address?.retryAfterSeconds(ctx.ip) ?? null, account === null ? null : (perAccount?.retryAfterSeconds(account) ?? null)].filter((w): w is number => w !== null);
  return waits.length > 0 ? Math.max(...waits) : null;
}

/**
 * Records a failed sign-in (in the user's record, or with no user for an email that names no one)
 * and counts it against the client address and the account (`account`, by default the user id).
 * Answers the seconds to wait when this failure was one too many (answer 429), else null.
 */
export async function recordFailedSignIn(
  kit: ConsoleKit,
  ctx: Context,
  failure: { userId: string | null; account?: string | null; method: SignInMethod; reason: SignInFailure },
): Promise<number | null> {
  const { address, account: perAccount, onFailure } = kit.signInThrottles;
  const account = failure.account ?? failure.userId;
  const byAddress = address?.recordFailure(ctx.ip) ?? null;
  const byAccount = account === null ? null : (perAccount?.recordFailure(account) ?? null);
  const waits = [byAddress, byAccount].map((refusal) => Number(refusal?.headers?.['Retry-After'])).filter((w) => Number.isFinite(w) && w > 0);
  const throttled = waits.length > 0 ? Math.max(...waits) : null;
  onFailure(throttled === null ? 'refused' : 'throttled');
  await recordSignIn(
    kit.deps.commands,
    { type: 'RecordSignInFailure', user_id: failure.userId, method: failure.method, reason: throttled === null ? failure.reason : 'throttled', client_address: ctx.ip, user_agent: userAgentOf(ctx), now: kit.clock().toISOString() },
    attemptActor(ctx),
  );
  return throttled;
}

/** A fresh session or pending sign-in for `who`, not yet stored. */
function newSession(ctx: Context, who: IdentifiedPerson, now: Date, pending: boolean): { id: string; session: ConsoleSession } {
  const id = newSessionId();
  const next = consolePath(who.next);
  return {
    id,
    session: {
      idHash: hashSessionId(id), ref: randomUUID(), userId: who.userId, method: who.method,
      keyHash: who.method === 'api_key' ? (who.apiKey?.keyHash ?? null) : null, apiKeyId: who.method === 'api_key' ? (who.apiKey?.id ?? null) : null,
      secondFactor: null, clientAddress: ctx.ip || null, userAgent: userAgentOf(ctx)?.slice(0, 300) ?? null,
      createdAt: now.toISOString(), lastSeenAt: now.toISOString(),
      expiresAt: pending ? new Date(now.getTime() + PENDING_MAX_AGE_MS).toISOString() : sessionExpiry(now, who.method === 'api_key' ? (who.apiKey?.expiresAt ?? now.toISOString()) : null),
      pending, next: pending ? next : null,
    },
  };
}

/** The one way a console session opens: see the comment at the top of this file. Answers the request (303). */
export async function completeSignIn(kit: ConsoleKit, ctx: Context, who: IdentifiedPerson): Promise<void> {
  const now = kit.clock();
  if (who.method === 'api_key' && !who.apiKey) throw new Error('an API-key sign-in needs its key');
  if (who.method !== 'api_key' && (await kit.secondFactors.required(who.userId, who.method))) {
    const previous = sessionIdFrom(ctx, PENDING_COOKIE);
    if (previous) await kit.sessions.delete(hashSessionId(previous));
    const { id, session } = newSession(ctx, who, now, true);
    await kit.sessions.create(session);
    setSessionCookie(ctx, id, session, now, PENDING_COOKIE);
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 303;
    ctx.redirect('/sign-in/second-factor');
    return;
  }
  await openSession(kit, ctx, who, null, now);
}

/** The sign-in waiting for this browser's second factor, or null (none, or it expired). */
export async function pendingSignIn(kit: ConsoleKit, ctx: Context): Promise<ConsoleSession | null> {
  const id = sessionIdFrom(ctx, PENDING_COOKIE);
  return id ? kit.sessions.findPending(hashSessionId(id), kit.clock()) : null;
}

/** The second factor checked out: the pending sign-in becomes a session (see completeSignIn). Answers the request (303). */
export async function completePendingSignIn(kit: ConsoleKit, ctx: Context, pending: ConsoleSession, secondFactor: string): Promise<void> {
  await kit.sessions.delete(pending.idHash);
  clearSessionCookie(ctx, PENDING_COOKIE);
  await openSession(kit, ctx, { userId: pending.userId, method: pending.method, next: pending.next }, secondFactor, kit.clock());
}

/** Gives up a pending sign-in (the person chose to start again). */
export async function abandonPendingSignIn(kit: ConsoleKit, ctx: Context): Promise<void> {
  const id = sessionIdFrom(ctx, PENDING_COOKIE);
  if (id) await kit.sessions.delete(hashSessionId(id));
  clearSessionCookie(ctx, PENDING_COOKIE);
}

async function openSession(kit: ConsoleKit, ctx: Context, who: IdentifiedPerson, secondFactor: string | null, now: Date): Promise<void> {
  // Session fixation: whatever id the browser held, signing in gives it a new one, and the old one ends.
  const previousId = sessionIdFrom(ctx);
  const previous = previousId ? await kit.sessions.find(hashSessionId(previousId), now) : null;
  if (previousId) await kit.sessions.delete(hashSessionId(previousId));
  if (previous) await endSessions(kit, ctx, previous.userId, [previous.ref], 'replaced');
  await kit.sessions.purgeExpired(now);
  const { id, session } = newSession(ctx, who, now, false);
  session.secondFactor = secondFactor;
  await kit.sessions.create(session);
  await recordSignIn(
    kit.deps.commands,
    {
      type: 'RecordSignIn', user_id: who.userId, session_ref: session.ref, method: who.method, second_factor: secondFactor, api_key_id: session.apiKeyId,
      client_address: ctx.ip, user_agent: userAgentOf(ctx), now: now.toISOString(),
    },
    personActor(ctx, session),
  );
  setSessionCookie(ctx, id, session, now);
  ctx.set('Cache-Control', 'no-store');
  ctx.status = 303;
  ctx.redirect(consolePath(who.next) ?? '/');
}

/**
 * Records that these sessions of the user ended (they are already gone from the store, or go now).
 * `ctx` is the request that ended them (its session the actor), or null (the CLI, a reset link).
 */
export async function endSessions(kit: Pick<ConsoleKit, 'deps' | 'clock'>, ctx: Context | null, userId: string, refs: readonly string[], reason: SessionEnding, actor?: Actor): Promise<void> {
  if (refs.length === 0) return;
  const by: Actor = actor ?? (ctx ? { kind: 'user', user_id: userId, api_key_id: null, request_id: requestId(ctx), request_ip: ctx.ip, request_ua: userAgentOf(ctx) } : { kind: 'system', user_id: null, api_key_id: null, request_id: null });
  await recordSignIn(kit.deps.commands, { type: 'RecordSessionsEnded', user_id: userId, session_refs: refs, reason, now: kit.clock().toISOString() }, by);
}
