import { Router } from '@koa/router';
import type Koa from 'koa';
import { PING_METHODS, PING_ROUTES } from '../../src/api/ping-api.js';
import { isConsoleRouter } from '../../src/console/routes.js';

export interface ServedRoute {
  method: string;
  /** Koa-style with its prefix: `/v1/monitors/:monitorId`. */
  path: string;
  /** The path's parameter names, in order. */
  params: string[];
}

/**
 * Every method and path the API answers, read off the routers the REST app mounts and the Ping
 * API's own table (not a list kept here), so a route added tomorrow is documented, fuzzed and
 * authorised tomorrow.
 */
export function servedRoutes(app: Koa<any>): ServedRoute[] {
  const routes: ServedRoute[] = PING_ROUTES.flatMap((route) => PING_METHODS.map((method) => ({ method, path: route.path, params: route.params })));
  for (const middleware of app.middleware) {
    const router: unknown = 'router' in middleware ? middleware.router : undefined;
    // The web console's pages are for browsers, signed in by session: not the REST API (see test/console).
    if (!(router instanceof Router) || isConsoleRouter(router)) continue;
    for (const layer of router.stack) {
      // Middleware layers (authentication, body parsing) have no methods.
      if (typeof layer.path !== 'string') continue;
      for (const method of layer.methods) routes.push({ method, path: layer.path, params: layer.paramNames.map((key) => String(key.name)) });
    }
  }
  return routes;
}
