import type { Middleware } from 'koa';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { HttpError } from './errors.js';
import type { VigilState } from './state.js';

export interface RateLimitConfig {
  requests: number;
  windowSeconds: number;
}

/**
 * Per API key, counted in this process: with several api processes each allows the full rate
 * (documented). Answers 429 with Retry-After; every answer carries the RateLimit headers.
 */
export function rateLimitPerKey(config: RateLimitConfig): Middleware<VigilState> {
  const limiter = new RateLimiterMemory({ points: config.requests, duration: config.windowSeconds });
  return async (ctx, next) => {
    let result: RateLimiterRes;
    try {
      result = await limiter.consume(ctx.state.caller.apiKeyId);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      throw new HttpError(
        429,
        `rate limit exceeded: ${config.requests} requests per ${config.windowSeconds} s for each API key; retry after ${retryAfter} s`,
        null,
        { 'Retry-After': String(retryAfter), ...headers(config, 0, rejection.msBeforeNext) },
      );
    }
    ctx.set(headers(config, result.remainingPoints, result.msBeforeNext));
    await next();
  };
}

function headers(config: RateLimitConfig, remaining: number, msBeforeNext: number): Record<string, string> {
  return {
    'RateLimit-Limit': String(config.requests),
    'RateLimit-Remaining': String(remaining),
    'RateLimit-Reset': String(Math.ceil(msBeforeNext / 1000)),
  };
}
