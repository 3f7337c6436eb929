import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import type { ConsoleSession } from './session-store.js';

export const SESSION_COOKIE = 'vigil_session';

/** However long its key lives, a session lasts at most this; then its owner signs in again. */
export const SESSION_MAX_AGE_MS = 12 * 3_600_000;

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

export function sessionExpiry(now: Date, keyExpiresAt: string): string {
  const cap = new Date(now.getTime() + SESSION_MAX_AGE_MS).toISOString();
  return keyExpiresAt < cap ? keyExpiresAt : cap;
}

/** HttpOnly, SameSite=Strict, Path=/, and Secure when the request came over HTTPS (directly, or through a trusted proxy). */
export function setSessionCookie(ctx: Context, id: string, session: ConsoleSession, now: Date): void {
  ctx.cookies.set(SESSION_COOKIE, id, {
    httpOnly: true,
    sameSite: 'strict',
    secure: ctx.secure,
    path: '/',
    maxAge: Math.max(0, Date.parse(session.expiresAt) - now.getTime()),
    overwrite: true,
  });
}

export function clearSessionCookie(ctx: Context): void {
  ctx.cookies.set(SESSION_COOKIE, '', { httpOnly: true, sameSite: 'strict', secure: ctx.secure, path: '/', maxAge: 0, overwrite: true });
}

export function sessionIdFrom(ctx: Context): string | null {
  const value = ctx.cookies.get(SESSION_COOKIE);
  return value && /^[A-Za-z0-9_-]{43}$/.test(value) ? value : null;
}
