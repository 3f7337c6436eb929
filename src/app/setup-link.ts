import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ReadModelStore } from '../readstore/read-model-store.js';

/**
 * The one-time link to create the first account, while no user exists. Its token is 256 random
 * bits, kept only as a SHA-256 hash and only in the memory of the process that printed it: a new
 * one is printed at every start until an account exists, so nothing needs to survive a restart,
 * and a copy of the data directory holds no way in. Taken once: the first valid POST consumes it
 * before the account is made (a second, concurrent one finds it gone).
 */
export class SetupLink {
  private hash: Buffer | null = null;

  /** A fresh token (the previous one stops working). */
  issue(): string {
    const token = randomBytes(32).toString('base64url');
    this.hash = digest(token);
    return token;
  }

  /** Whether a link is waiting to be used. */
  get open(): boolean {
    return this.hash !== null;
  }

  matches(token: string): boolean {
    return this.hash !== null && timingSafeEqual(digest(token), this.hash);
  }

  /** Takes the link if `token` is it: true once, false ever after (and for any other token). */
  consume(token: string): boolean {
    if (!this.matches(token)) return false;
    this.hash = null;
    return true;
  }

  close(): void {
    this.hash = null;
  }
}

const digest = (token: string) => createHash('sha256').update(token).digest();

/** Whether any account exists, as the read models say. */
export async function anyUserExists(readModels: ReadModelStore): Promise<boolean> {
  return (await readModels.find('users', {}, { limit: 1 })).length > 0;
}
