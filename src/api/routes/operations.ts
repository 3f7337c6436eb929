import { Router } from '@koa/router';
import { hashApiKey, sameHash } from '../../app/random-tokens.js';
import type { ApiDependencies } from '../../web/dependencies.js';
import { HttpError } from '../../web/errors.js';

/**
 * What the platform around Vigil asks, outside /v1 and without an API key: is the process up
 * (/healthz), can it serve (/readyz), and its Prometheus metrics (/metrics, behind
 * VIGIL_METRICS_TOKEN when that is set).
 */
export function operationsRoutes(deps: ApiDependencies): RouterMiddleware {
  const router = new Router();

  // Liveness touches no store: a restart does not cure a database outage.
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });

  router.get('/readyz', async (ctx) => {
    if (!deps.readiness) throw new HttpError(503, 'readiness is not checked in this process');
    const report = await deps.readiness();
    if (report.ready) {
      ctx.body = { status: 'ready', checks: report.checks };
      return;
    }
    const failed = Object.entries(report.checks).filter(([, check]) => !check.ok).map(([name]) => name);
    ctx.status = 503;
    ctx.body = { error: `not ready: ${failed.join(', ')} failed`, checks: report.checks };
  });

  router.get('/metrics', async (ctx) => {
    const token = deps.config.metricsToken;
    if (token && !presentsBearer(ctx.get('Authorization'), token)) {
      throw new HttpError(401, 'metrics need Authorization: Bearer <VIGIL_METRICS_TOKEN>', null, { 'WWW-Authenticate': 'Bearer' });
    }
    if (!deps.metrics) throw new HttpError(404, 'metrics are not collected in this process');
    ctx.type = deps.metrics.registry.contentType;
    ctx.body = await deps.metrics.registry.metrics();
  });

  // The REST router's allowedMethods, upstream, sees these routes too and answers other methods with 405.
  return router.routes();
}

type RouterMiddleware = ReturnType<Router['routes']>;

/** Compared as hashes, so the time taken says nothing about the token. */
function presentsBearer(header: string, token: string): boolean {
  const match = /^Bearer (.+)$/i.exec(header);
  return match !== null && sameHash(hashApiKey(match[1]!), hashApiKey(token));
}
