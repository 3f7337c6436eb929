import type { Context, Middleware } from 'koa';
import type { VigilMetrics } from '../metrics/vigil-metrics.js';

/**
 * Times every request into vigil_http_request_duration_seconds. Mounted outermost, so the status
 * is the one the client got, after the error middleware mapped any error.
 */
export function httpRequestMetrics(metrics: VigilMetrics | undefined): Middleware {
  return async (ctx, next) => {
    if (!metrics) return void (await next());
    const stopTimer = metrics.httpRequestDuration.startTimer();
    try {
      await next();
    } finally {
      stopTimer({ method: ctx.method, route: routePattern(ctx), status_code: String(ctx.status) });
    }
  };
}

interface RouteLayer {
  path: string;
  methods: string[];
}

/**
 * The pattern of the route that answered (`/v1/monitors/:monitorId`), never the raw URL, so a
 * scanner cannot mint a series per path. The router lists every layer whose path matched, in
 * registration order; middleware layers have no methods. A path matched with another method (a
 * 405) still names its pattern.
 */
function routePattern(ctx: Context): string {
  const matched: unknown = ctx['matched'];
  if (!Array.isArray(matched)) return 'unmatched';
  const routes = matched.filter(isRouteLayer);
  const route = routes.find((layer) => layer.methods.includes(ctx.method)) ?? routes[0];
  return route?.path ?? 'unmatched';
}

function isRouteLayer(layer: unknown): layer is RouteLayer {
  return (
    typeof layer === 'object' && layer !== null && 'path' in layer && typeof layer.path === 'string' &&
    'methods' in layer && Array.isArray(layer.methods) && layer.methods.length > 0
  );
}
