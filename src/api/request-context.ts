import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from './logger.js';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives each request an id (the caller's X-Request-Id when sane), echoes it, and logs one line per
 * request. A route may mark its traffic routine (`ctx.state.routine`, pings): answered without
 * error, such a request is logged at debug, since at ping rates an info line each (serialised and
 * written synchronously) costs more than the rest of the logging put together, and the ping is in
 * the log anyway with its request id.
 */
export function requestContext(logger: Logger): Middleware {
  return async (ctx, next) => {
    const offered = ctx.get('X-Request-Id');
    const requestId = SAFE_REQUEST_ID.test(offered) ? offered : randomUUID();
    ctx.state['requestId'] = requestId;
    ctx.set('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const level = ctx.state['routine'] === true && ctx.status < 400 ? 'debug' : 'info';
      if (logger.isLevelEnabled(level)) {
        logger[level](
          {
            request_id: requestId,
            method: ctx.method,
            path: ctx.path,
            status: ctx.status,
            duration_ms: Number(process.hrtime.bigint() - started) / 1e6,
            api_key_id: ctx.state['caller']?.apiKeyId,
          },
          'request',
        );
      }
    }
  };
}
