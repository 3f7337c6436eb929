import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Unbiased random base62: 26 characters carry about 155 bits. */
export function randomBase62(length: number): string {
  let token = '';
  for (let i = 0; i < length; i += 1) token += BASE62[randomInt(BASE62.length)];
  return token;
}

export const API_KEY_RANDOM_LENGTH = 26;
export const API_KEY_PATTERN = /^([a-z][a-z0-9]{0,15})_(live|test)_([0-9A-Za-z]{26})$/;

/** `<prefix>_<live|test>_<26 random characters>`, shown once. */
export function newApiKey(prefix: string, env: 'live' | 'test'): string {
  return `${prefix}_${env}_${randomBase62(API_KEY_RANDOM_LENGTH)}`;
}

/** Keys carry ~155 random bits, so a fast hash is safe: no dictionary reaches them. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** What a person sees to tell their keys apart: prefix, env and four random characters. */
export function apiKeyPreview(key: string): string {
  const [prefix, env, random] = key.split('_');
  return `${prefix}_${env}_${(random ?? '').slice(0, 4)}`;
}

/** Per-project secret in slug ping URLs. */
export function newPingKey(): string {
  return randomBase62(22);
}
