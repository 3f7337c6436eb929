import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import type { ConsoleSession } from '../web/session-store.js';

export const SESSION_COOKIE = 'vigil_session';
/** A sign-in waiting for its second factor (sign-in-flow.ts): a cookie of its own, never a session. */
export const PENDING_COOKIE = 'vigil_pending_sign_in';
/** The browser's CSRF secret on the forms shown before anyone is signed in (sign-in, setup, reset). */
export const PRE_SESSION_COOKIE = 'vigil_pre_session';

/** However long its key lives, a session lasts at most this; then its owner signs in again. */
export const SESSION_MAX_AGE_MS = 12 * 3_600_000;

/** How long a sign-in waits for its second factor. */
export const PENDING_MAX_AGE_MS = 10 * 60_000;

/** 256 random bits, base64url: the cookie's value and the only copy of the id outside a hash. */
export function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

export function hashSessionId(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

/**
 * The session's CSRF token: an HMAC of a fixed label under the session id. Each session gets its own,
 * nothing more is stored, and only a holder of the id (the browser that signed in; the cookie is
 * HttpOnly) can work it out.
 */
export function csrfTokenOf(sessionId: string): string {
  return createHmac('sha256', sessionId).update('vigil-console-csrf').digest('base64url');
}

export function sameToken(presented: string, expected: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** SESSION_MAX_AGE_MS from now, or sooner when the key it was opened with expires sooner (null: a person's session). */
export function sessionExpiry(now: Date, keyExpiresAt: string | null): string {
  const cap = new Date(now.getTime() + SESSION_MAX_AGE_MS).toISOString();
  return keyExpiresAt !== null && keyExpiresAt < cap ? keyExpiresAt : cap;
}

/** HttpOnly, SameSite=Strict, Path=/, and Secure when the request came over HTTPS (directly, or through a trusted proxy). */
export function setSessionCookie(ctx: Context, id: string, session: ConsoleSession, now: Date, name = SESSION_COOKIE): void {
  ctx.cookies.set(name, id, {
    httpOnly: true,
    sameSite: 'strict',
    secure: ctx.secure,
    path: '/',
    maxAge: Math.max(0, Date.parse(session.expiresAt) - now.getTime()),
    overwrite: true,
  });
}

export function clearSessionCookie(ctx: Context, name = SESSION_COOKIE): void {
  ctx.cookies.set(name, '', { httpOnly: true, sameSite: 'strict', secure: ctx.secure, path: '/', maxAge: 0, overwrite: true });
}

export function sessionIdFrom(ctx: Context, name = SESSION_COOKIE): string | null {
  const value = ctx.cookies.get(name);
  return value && /^[A-Za-z0-9_-]{43}$/.test(value) ? value : null;
}

/**
 * The CSRF token for a form shown before sign-in (sign-in, first-run setup, password reset, a
 * pending second factor): derived, as a session's, from a random secret in an HttpOnly cookie of
 * its own, set here when the browser has none yet. A page that shows such a form calls this; the
 * POST checks it with `checkPreSessionCsrf`.
 */
export function preSessionCsrfToken(ctx: Context): string {
  let secret = sessionIdFrom(ctx, PRE_SESSION_COOKIE);
  if (!secret) {
    secret = newSessionId();
    ctx.cookies.set(PRE_SESSION_COOKIE, secret, { httpOnly: true, sameSite: 'strict', secure: ctx.secure, path: '/', overwrite: true });
  }
  return csrfTokenOf(secret);
}

/** Whether a form posted before sign-in carries the token its page was given (see preSessionCsrfToken). */
export function preSessionCsrfMatches(ctx: Context, presented: string | undefined): boolean {
  const secret = sessionIdFrom(ctx, PRE_SESSION_COOKIE);
  return secret !== null && presented !== undefined && sameToken(presented, csrfTokenOf(secret));
}
