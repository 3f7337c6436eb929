import { createHash } from 'node:crypto';
import { randomBase62 } from './random-tokens.js';

/**
 * A project's badge key: the secret part of its badge URLs (`/badge/<key>/<slug>.svg`), made to be
 * pasted into READMEs and wikis. It opens nothing but the badges: it cannot ping (the ping key
 * does), read the API or reach the status pages.
 *
 * Stored as the ping key is, in clear in the project's `ProjectBadgeKeyIssued` event and in the
 * `badge_keys` read model, not sealed with the SecretBox: the console must show it again to build
 * the URLs, and a value meant to be published gains nothing from encryption at rest (the SecretBox
 * guards what must never leave Vigil: channel credentials, uptime header values). The history API
 * redacts it, as it does the ping key, because a history reader need not be a badge publisher.
 *
 * A request finds its project by the key's SHA-256 (`badge_keys.key_hash`, indexed), never by the
 * key itself: the lookup compares hashes, so how long it takes says nothing about how much of a
 * guessed key was right. 22 base62 characters carry about 131 random bits.
 */
export function newBadgeKey(): string {
  return randomBase62(22);
}

export function hashBadgeKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** What a badge URL's key must look like before anything is looked up. */
export const BADGE_KEY_PATTERN = /^[0-9A-Za-z]{22}$/;
