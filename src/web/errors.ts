import type { Middleware } from 'koa';
import { Refusal } from '../app/refusal.js';
import { DomainError } from '../domain/errors.js';
import { ReadModelLagError } from '../projector/read-model-progress.js';
import { StoreCannotWriteError, storageFault } from '../eventstore/storage-fault.js';
import { AsOfBusyError } from '../audit/as-of-reader.js';
import type { Logger } from './logger.js';

/** An error with the status and message the client should see. */
/** A refusal with the headers of its answer; a refusal from src/app is answered the same way, with none. */
export class HttpError extends Refusal {
  constructor(
    status: number,
    message: string,
    code: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(status, message, code);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const notFoundError = (message: string) => new HttpError(404, message);

/**
 * The one place errors become responses: every body is `{ error }` (plus `code` where the API
 * contract names one). Anything unexpected is logged and answered with a bland 500.
 */
export function errorMiddleware(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (caught) {
      const { status, body, headers } = loggedErrorResponse(caught, logger, ctx.state['requestId']);
      ctx.status = status;
      ctx.set(headers);
      ctx.body = body;
    }
  };
}

/** As `errorResponse`, logging what the client sees only as a bland 500 (both APIs answer errors so). */
export function loggedErrorResponse(caught: unknown, logger: Logger, requestId: unknown): ReturnType<typeof errorResponse> {
  const answer = errorResponse(caught);
  if (answer.status >= 500) logger.error({ err: caught, request_id: requestId }, 'request failed');
  return answer;
}

/** What the client sees of an error: its status, `{ error }` (and `code`), and any headers it names. */
export function errorResponse(caught: unknown): { status: number; body: { error: string; code?: string }; headers: Record<string, string> } {
  if (caught instanceof Refusal) {
    const headers = caught instanceof HttpError ? caught.headers : {};
    return { status: caught.status, body: { error: caught.message, ...(caught.code ? { code: caught.code } : {}) }, headers };
  }
  if (caught instanceof DomainError) {
    return { status: caught.reason === 'not_found' ? 404 : caught.reason === 'conflict' ? 409 : caught.reason === 'rate_limited' ? 429 : 400, body: { error: caught.message }, headers: {} };
  }
  if (caught instanceof ReadModelLagError) {
    return {
      status: 503,
      body: { error: 'the change was recorded but is not yet visible in reads; retry the read shortly' },
      headers: { 'Retry-After': '1' },
    };
  }
  if (caught instanceof AsOfBusyError) {
    return { status: 503, body: { error: 'too many as_of queries are waiting; retry shortly' }, headers: { 'Retry-After': '1' } };
  }
  // The disk refused a commit: nothing was recorded (a ping is acknowledged only once it is), and
  // the same request succeeds once there is space again.
  const fault = storageFault(caught);
  if (fault) {
    const message = caught instanceof StoreCannotWriteError ? caught.message : new StoreCannotWriteError('store', fault).message;
    return { status: 503, body: { error: message }, headers: { 'Retry-After': String(STORAGE_RETRY_AFTER_SECONDS) } };
  }
  // Errors raised by the body parser, Koa and the router carry a client status and a safe message.
  if (isRequestError(caught)) {
    const status = caught.status;
    const message =
      status === 413 ? 'request body is too large' : status === 400 && /json/i.test(caught.message) ? 'request body is not valid JSON' : caught.message;
    return { status, body: { error: message }, headers: {} };
  }
  return { status: 500, body: { error: 'internal error' }, headers: {} };
}

/** A 4xx, or the router's 501 for a method it does not know (PROPFIND): the request's doing, not a fault. */
function isRequestError(error: unknown): error is { status: number; message: string } {
  if (typeof error !== 'object' || error === null) return false;
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' && ((status >= 400 && status < 500) || status === NOT_IMPLEMENTED);
}

const NOT_IMPLEMENTED = 501;
/** Space comes back when an operator (or a log rotation) frees it: seconds rather than a moment. */
const STORAGE_RETRY_AFTER_SECONDS = 10;
