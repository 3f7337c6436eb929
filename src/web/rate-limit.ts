import type { Middleware } from 'koa';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { HttpError } from './errors.js';
import type { VigilState } from './state.js';

export interface RateLimitConfig {
  requests: number;
  windowSeconds: number;
  /** Failed authentications a client address may make per window before the next ones are 429; 0 for no limit. */
  authFailures: number;
  authFailureWindowSeconds: number;
}

/**
 * Per API key, counted in this process: with several api processes each allows the full rate
 * (documented). Answers 429 with Retry-After; every answer carries the RateLimit headers.
 */
export function rateLimitPerKey(config: RateLimitConfig): Middleware<VigilState> {
  const limit = new RequestLimit(config, (retryAfter) => `rate limit exceeded: ${config.requests} requests per ${config.windowSeconds} s for each API key; retry after ${retryAfter} s`);
  return async (ctx, next) => {
    const { apiKeyId, userId } = ctx.state.caller;
    ctx.set(await limit.take(apiKeyId ?? `user:${userId}`));
    await next();
  };
}

/**
 * `requests` per `windowSeconds` for each key (an API key, a console session, a client address),
 * counted in this process. `take` answers the RateLimit headers to send, or throws the 429 (with
 * Retry-After) whose message `refusal` words.
 */
export class RequestLimit {
  private readonly limiter: RateLimiterMemory;

  constructor(
    private readonly config: Pick<RateLimitConfig, 'requests' | 'windowSeconds'>,
    private readonly refusal: (retryAfterSeconds: number) => string,
  ) {
    this.limiter = new RateLimiterMemory({ points: config.requests, duration: config.windowSeconds });
  }

  async take(key: string): Promise<Record<string, string>> {
    try {
      const result = await this.limiter.consume(key);
      return headers(this.config, result.remainingPoints, result.msBeforeNext);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      throw new HttpError(429, this.refusal(retryAfter), null, { 'Retry-After': String(retryAfter), ...headers(this.config, 0, rejection.msBeforeNext) });
    }
  }
}

function headers(config: Pick<RateLimitConfig, 'requests'>, remaining: number, msBeforeNext: number): Record<string, string> {
  return {
    'RateLimit-Limit': String(config.requests),
    'RateLimit-Remaining': String(remaining),
    'RateLimit-Reset': String(Math.ceil(msBeforeNext / 1000)),
  };
}

/** Addresses tracked at once; past it the oldest window is forgotten first. */
const MAX_TRACKED_ADDRESSES = 100_000;

/**
 * Failed authentications (a malformed, unknown, revoked or expired key) per client address, in
 * fixed windows on the server's clock: once an address has used up its failures, its failures are
 * answered 429 until the window ends. A valid key is never held back, from any address: keys are
 * 155 random bits, so what this stops is a flood of lookups (and of waits for the read models, which
 * an unknown key costs), not guessing. Counted in this process, like the per-key limit.
 */
export class AuthFailureThrottle {
  /** In the order the windows began, which is the order they end: all windows are as long. */
  private readonly windows = new Map<string, { endsAt: number; failures: number }>();

  constructor(
    private readonly config: Pick<RateLimitConfig, 'authFailures' | 'authFailureWindowSeconds'>,
    private readonly clock: () => Date,
  ) {}

  /** Whether the address's next failure will be answered 429 (then there is no point waiting to be sure). */
  isThrottled(address: string): boolean {
    return this.retryAfterSeconds(address) !== null;
  }

  /** While the address is throttled, the seconds until its window ends; null when it is not. */
  retryAfterSeconds(address: string): number | null {
    const window = this.current(clientKey(address));
    if (this.config.authFailures === 0 || window === null || window.failures < this.config.authFailures) return null;
    return Math.max(1, Math.ceil((window.endsAt - this.clock().getTime()) / 1000));
  }

  /** Counts a failure: the 429 to answer when it is one too many, else null (a 401, then). */
  recordFailure(address: string): HttpError | null {
    if (this.config.authFailures === 0) return null;
    const key = clientKey(address);
    const now = this.clock().getTime();
    this.forgetEnded(now);
    let window = this.current(key);
    if (window === null) {
      if (this.windows.size >= MAX_TRACKED_ADDRESSES) this.windows.delete(this.windows.keys().next().value!);
      window = { endsAt: now + this.config.authFailureWindowSeconds * 1000, failures: 0 };
      // Deleted first so that it goes to the end, among the windows that end last.
      this.windows.delete(key);
      this.windows.set(key, window);
    }
    window.failures += 1;
    if (window.failures <= this.config.authFailures) return null;
    const retryAfter = Math.max(1, Math.ceil((window.endsAt - now) / 1000));
    return new HttpError(
      429,
      `too many failed authentications from this address: ${this.config.authFailures} per ${this.config.authFailureWindowSeconds} s; retry after ${retryAfter} s`,
      null,
      { 'Retry-After': String(retryAfter) },
    );
  }

  private current(key: string): { endsAt: number; failures: number } | null {
    const window = this.windows.get(key);
    return window && window.endsAt > this.clock().getTime() ? window : null;
  }

  private forgetEnded(now: number): void {
    for (const [key, window] of this.windows) {
      if (window.endsAt > now) return;
      this.windows.delete(key);
    }
  }
}

/**
 * Whom an address belongs to: an IPv4 address (also written as ::ffff:a.b.c.d), or an IPv6 /64, the
 * least a single host is given, so one host cannot spread its failures over 2^64 addresses.
 */
export function clientKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!address.includes(':')) return address;
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === '' ? [] : tail.split(':');
  const groups = address.includes('::') ? [...headGroups, ...Array<string>(Math.max(0, 8 - headGroups.length - tailGroups.length)).fill('0'), ...tailGroups] : headGroups;
  return `${groups.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}
