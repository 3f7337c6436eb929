import type { Context, Middleware } from 'koa';
import { errorPage } from './pages/error.js';
import { CONTENT_SECURITY_POLICY } from './routes.js';

/**
 * Paths whose every answer is for a program, whatever its Accept header says: the REST and Ping
 * APIs, the OpenAPI document, the probes and metrics, and badges (read by shields.io and README
 * renderers). A person never reads their errors in a browser tab as a page.
 */
const MACHINE_PATHS = /^\/(v1|openapi\.json|healthz|readyz|metrics|badge)(\/|$)/;

/**
 * Whether the request is a browser's asking for a page: it names text/html in Accept (a browser's
 * navigation always does; `curl` sends `*\/*`, API clients application/json) outside the machine paths.
 */
export function wantsPage(ctx: Context): boolean {
  if (MACHINE_PATHS.test(ctx.path)) return false;
  return /\btext\/html\b/i.test(ctx.get('Accept'));
}

/**
 * Turns an `{ error }` answer into the console's error page for a browser: the status stays, the
 * words become a page with a title, `lang` and a way back. Every other client keeps the JSON it
 * got, byte for byte. Placed outside the error middleware, it sees what that one answered.
 */
export function browserErrors(): Middleware {
  return async (ctx, next) => {
    await next();
    if (ctx.status < 400 || !wantsPage(ctx)) return;
    const body: unknown = ctx.body;
    if (typeof body !== 'object' || body === null || Buffer.isBuffer(body) || !('error' in body) || typeof body.error !== 'string') return;
    const status = ctx.status;
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    // The router's words are for programs: a person is told which page is not there.
    const message = /^no route for /.test(body.error) ? `There is no page at ${ctx.path}.` : body.error;
    ctx.body = errorPage(status, message, null).markup;
    ctx.status = status;
  };
}
