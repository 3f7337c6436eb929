import { Refusal } from '../app/refusal.js';
import type { Middleware } from 'koa';
import { API_KEY_PATTERN, hashApiKey, sameHash } from '../app/random-tokens.js';
import type { Caller } from '../domain/access/authorize.js';
import { isBefore } from '../domain/time.js';
import { findApiKeyByHash } from '../queries/identity.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';
import { HttpError } from './errors.js';
import type { AuthFailureThrottle } from './rate-limit.js';
import type { VigilState } from './state.js';

export interface AuthenticationOptions {
  /** Waits for the read models to reach the log's head, or for a bound; resolves either way. */
  catchUp?: () => Promise<void>;
  throttle?: AuthFailureThrottle | null;
  /** Told of every failed authentication: refused (401) or throttled (429). */
  onFailure?: (outcome: 'refused' | 'throttled') => void;
  /** Told of every key that authenticated (the key's "last used"): must not throw, is not awaited. */
  onKeyUsed?: (userId: string, apiKeyId: string) => void;
}

/**
 * Every REST request carries a live API key in X-API-Key; anything else is a 401.
 *
 * A key minted a moment ago by another process (`vigil keys create` next to a running server) is
 * in the log before it is in the read models; an unknown key therefore waits, briefly, for the
 * read models to reach the log's head before it is refused.
 *
 * A key that fails (malformed, unknown, revoked or expired) counts against the client's address;
 * past the throttle's limit the failure is a 429 with Retry-After instead, and an unknown key from
 * that address no longer waits for the read models. A key that works is let through all the same.
 */
export function authenticate(readModels: ReadModelStore, clock: () => Date, options: AuthenticationOptions = {}): Middleware<VigilState> {
  const { catchUp = async () => {}, throttle = null, onFailure = () => {}, onKeyUsed = () => {} } = options;
  return async (ctx, next) => {
    const presented = ctx.get('X-API-Key');
    if (presented === '') throw new HttpError(401, 'missing X-API-Key header');
    const fail = (message: string) => {
      const throttled = throttle?.recordFailure(ctx.ip) ?? null;
      onFailure(throttled ? 'throttled' : 'refused');
      return throttled ?? new HttpError(401, message);
    };
    if (!API_KEY_PATTERN.test(presented)) throw fail('invalid API key');
    const wait = throttle?.isThrottled(ctx.ip) ? async () => {} : catchUp;
    try {
      ctx.state.caller = await callerOfKeyHash(readModels, hashApiKey(presented), clock, wait);
      if (ctx.state.caller.apiKeyId !== null) onKeyUsed(ctx.state.caller.userId, ctx.state.caller.apiKeyId);
    } catch (error) {
      if (error instanceof Refusal && error.status === 401) throw fail(error.message);
      throw error;
    }
    await next();
  };
}

/**
 * The caller behind the key with this hash, as long as the key is live; a 401 otherwise. The web
 * console's sessions keep the hash of the key they were opened with and pass here on every request,
 * so a session ends the moment its key is revoked or expires.
 */
export async function callerOfKeyHash(readModels: ReadModelStore, hash: string, clock: () => Date, catchUp: () => Promise<void> = async () => {}): Promise<Caller> {
  let key = await findApiKeyByHash(readModels, hash);
  if (!key) {
    await catchUp();
    key = await findApiKeyByHash(readModels, hash);
  }
  if (!key || !sameHash(key.key_hash, hash)) throw new HttpError(401, 'invalid API key');
  if (key.revoked_at !== null) throw new HttpError(401, 'API key has been revoked');
  if (!isBefore(clock().toISOString(), key.expires_at)) throw new HttpError(401, 'API key has expired');
  return {
    userId: key.user_id,
    apiKeyId: key.id,
    sessionRef: null,
    kind: key.kind,
    scopes: key.scopes,
    projectId: key.project_id,
    expiresAt: key.expires_at,
  };
}
