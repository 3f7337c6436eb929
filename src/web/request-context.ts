import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from './logger.js';
import type { VigilState } from './state.js';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives each request of the REST API an id (the caller's X-Request-Id when sane), echoes it, and
 * logs one line per request (see logRequest).
 */
export function requestContext(logger: Logger): Middleware {
  return async (ctx, next) => {
    const requestId = requestIdFrom(ctx.get('X-Request-Id'));
    ctx.state['requestId'] = requestId;
    ctx.set('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      logRequest(logger, {
        requestId,
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        started,
        routine: false,
        apiKeyId: (ctx.state['caller'] as VigilState['caller'] | undefined)?.apiKeyId,
      });
    }
  };
}

/** The caller's X-Request-Id when sane, else a new one. */
export function requestIdFrom(offered: string | string[] | undefined): string {
  return typeof offered === 'string' && SAFE_REQUEST_ID.test(offered) ? offered : randomUUID();
}

export interface RequestLogEntry {
  requestId: string;
  method: string;
  path: string;
  status: number;
  /** `process.hrtime.bigint()` when the request arrived. */
  started: bigint;
  /**
   * Routine traffic (pings): answered without error, it is logged at debug, since at ping rates an
   * info line each (serialised and written synchronously) costs more than the rest of the logging
   * put together, and the ping is in the log anyway with its request id.
   */
  routine: boolean;
  apiKeyId?: string | null | undefined;
}

/** The one line a request is logged with, whichever server answered it (Koa's or the Ping API's). */
export function logRequest(logger: Logger, entry: RequestLogEntry): void {
  const level = entry.routine && entry.status < 400 ? 'debug' : 'info';
  if (!logger.isLevelEnabled(level)) return;
  logger[level](
    {
      request_id: entry.requestId,
      method: entry.method,
      path: entry.path,
      status: entry.status,
      duration_ms: Number(process.hrtime.bigint() - entry.started) / 1e6,
      api_key_id: entry.apiKeyId,
    },
    'request',
  );
}
