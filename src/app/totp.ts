import { Secret, TOTP } from 'otpauth';
import type { SecretBox } from './secret-box.js';

/** RFC 6238 as every authenticator app reads it by default: SHA-1, six digits, 30 s. */
const TOTP_SETTINGS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;
/** A code of the step before or after now is accepted too: phones' clocks drift and people type slowly. */
const TOTP_WINDOW = 1;
/** How long the page that shows a new seed stays good for confirming it. */
const ENROLMENT_LIFETIME_MS = 15 * 60_000;

export interface TotpEnrolment {
  /** The seed in base32, shown beside the QR code for those who type it in. */
  secret: string;
  /** The otpauth:// URI the QR code holds. */
  uri: string;
  /** The seed, whose it is and until when, sealed: the form carries it back, and only this server can open it. */
  pending: string;
}

const totpOf = (seed: string, label = '') => new TOTP({ issuer: 'Vigil', label, secret: Secret.fromBase32(seed), ...TOTP_SETTINGS });

/** A new seed for a person to add to their app, not yet theirs until a code from it is entered. */
export function newTotpEnrolment(secrets: SecretBox, userId: string, email: string, now: Date): TotpEnrolment {
  const seed = new Secret({ size: 20 }).base32;
  const pending = secrets.seal({ purpose: 'totp-enrolment', user_id: userId, seed, expires_at: new Date(now.getTime() + ENROLMENT_LIFETIME_MS).toISOString() });
  return { secret: seed, uri: totpUri(seed, email), pending };
}

/** The seed a pending enrolment holds, if it is this person's and still good; null otherwise (tampered, someone else's, expired). */
export function openTotpEnrolment(secrets: SecretBox, pending: string, userId: string, now: Date): string | null {
  let fields: Record<string, unknown>;
  try {
    fields = secrets.openConfig(pending);
  } catch {
    return null;
  }
  if (fields['purpose'] !== 'totp-enrolment' || fields['user_id'] !== userId || typeof fields['seed'] !== 'string' || typeof fields['expires_at'] !== 'string') return null;
  return fields['expires_at'] > now.toISOString() ? fields['seed'] : null;
}

/** The seed as the log keeps it, and back. */
export const sealTotpSeed = (secrets: SecretBox, seed: string): string => secrets.seal({ seed });

export function openTotpSeed(secrets: SecretBox, sealed: string): string {
  const opened = secrets.openConfig(sealed);
  if (typeof opened['seed'] !== 'string') throw new Error('a sealed TOTP seed holds no seed');
  return opened['seed'];
}

/** The time step of the code typed, at `now` (±1 step), or null when it is no code of this seed then. */
export function totpStepOf(seed: string, code: string, now: Date): number | null {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const totp = totpOf(seed);
  const delta = totp.validate({ token, timestamp: now.getTime(), window: TOTP_WINDOW });
  return delta === null ? null : totp.counter({ timestamp: now.getTime() }) + delta;
}

/** The otpauth:// URI of a seed, as the QR code carries it. */
export const totpUri = (seed: string, email: string): string => totpOf(seed, email).toString();
