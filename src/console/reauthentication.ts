import type { ConsoleSession } from '../web/session-store.js';

/**
 * How recently a person must have signed in to change how they sign in (add or remove a second
 * factor, make new recovery codes): a session left open on a shared screen is not enough. Signing
 * in again passes the password (or single sign-on) and every second factor the account has, so it
 * is both "the current password" and "a fresh factor", whichever way the person signs in.
 */
export const FRESH_SIGN_IN_MS = 15 * 60_000;

export function signedInRecently(session: Pick<ConsoleSession, 'createdAt'>, now: Date): boolean {
  return Date.parse(session.createdAt) > now.getTime() - FRESH_SIGN_IN_MS;
}
