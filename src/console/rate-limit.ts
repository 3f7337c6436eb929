import type { Context, Middleware, Next } from 'koa';
import { type RateLimitConfig, RequestLimit, clientKey } from '../web/rate-limit.js';
import { ASSET_PATH } from './assets.js';
import { hashSessionId, sessionIdFrom } from './session.js';
import type { SessionStore } from '../web/session-store.js';

/**
 * Console actions that cost far more than a page: Verify now walks every event of the log's hash
 * chain (on a thread of its own, one check at a time, but each one long on a long log).
 */
const EXPENSIVE: readonly { method: string; path: RegExp }[] = [{ method: 'POST', path: /^\/projects\/[^/]+\/audit\/verify$/ }];

/** How many expensive actions a session may start: a few in a row, then one every five minutes. */
export const EXPENSIVE_LIMIT = { requests: 3, windowSeconds: 15 * 60 } as const;

const ASSET_PREFIX = ASSET_PATH.slice(0, ASSET_PATH.indexOf(':'));

/**
 * The console's share of the REST API's rate limit: the same `requests` per `windowSeconds` (600 a
 * minute by default), counted for each live session, or for the client address (an IPv6 /64)
 * where there is none (the sign-in page, a cookie that names no session: inventing cookies buys no
 * fresh allowance); and EXPENSIVE_LIMIT on top for the expensive actions. Over either, the 429 is
 * thrown to the console's error middleware, which answers the browser with a page, never JSON.
 * The hashed assets are not counted: they are cached for a year and cost nothing to serve.
 * Counted in this process, as the API's limit is.
 */
export function consoleRateLimit(config: Pick<RateLimitConfig, 'requests' | 'windowSeconds'>, sessions: SessionStore, clock: () => Date): Middleware {
  const pages = new RequestLimit(config, (retryAfter) => `too many requests: ${config.requests} per ${config.windowSeconds} s for each session; try again in ${retryAfter} s`);
  const expensive = new RequestLimit(
    EXPENSIVE_LIMIT,
    (retryAfter) => `this can be started ${EXPENSIVE_LIMIT.requests} times per ${EXPENSIVE_LIMIT.windowSeconds / 60} minutes for each session; try again in ${retryAfter} s`,
  );

  async function limitKey(ctx: Context): Promise<string> {
    const id = sessionIdFrom(ctx);
    const session = id ? await sessions.find(hashSessionId(id), clock()) : null;
    return session ? `session:${session.idHash}` : `address:${clientKey(ctx.ip)}`;
  }

  return async (ctx: Context, next: Next) => {
    if (ctx.path.startsWith(ASSET_PREFIX)) return void (await next());
    const key = await limitKey(ctx);
    const headers = await pages.take(key);
    if (EXPENSIVE.some((action) => action.method === ctx.method && action.path.test(ctx.path))) await expensive.take(key);
    ctx.set(headers);
    await next();
  };
}
