import { createHash, randomInt } from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '../domain/identity/second-factors.js';

/** Crockford's base32, lower case: no i, l, o or u to misread. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const GROUPS = 4;
const GROUP_LENGTH = 4;

/** `xxxx-xxxx-xxxx-xxxx`: 80 random bits each, so a fast hash keeps them as safe as the API keys'. */
export function newRecoveryCodes(): string[] {
  const codes = new Set<string>();
  while (codes.size < RECOVERY_CODE_COUNT) {
    const groups = Array.from({ length: GROUPS }, () => Array.from({ length: GROUP_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join(''));
    codes.add(groups.join('-'));
  }
  return [...codes];
}

/** A code as typed: any case, with or without dashes and spaces, o for 0 and i or l for 1. */
export function normalizeRecoveryCode(typed: string): string {
  return typed.toLowerCase().replace(/[\s-]+/g, '').replace(/o/g, '0').replace(/[il]/g, '1');
}

export function hashRecoveryCode(code: string): string {
  return createHash('sha256').update(normalizeRecoveryCode(code)).digest('hex');
}
