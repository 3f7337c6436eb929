import { Router } from '@koa/router';
import type Koa from 'koa';

export interface ServedRoute {
  method: string;
  /** Koa-style with its prefix: `/v1/monitors/:monitorId`. */
  path: string;
  /** The path's parameter names, in order. */
  params: string[];
}

/**
 * Every method and path the app's routers answer, read off the routers it mounts (not a list), so
 * a route added tomorrow is documented, fuzzed and authorised tomorrow.
 */
export function servedRoutes(app: Koa<any>): ServedRoute[] {
  const routes: ServedRoute[] = [];
  for (const middleware of app.middleware) {
    const router: unknown = 'router' in middleware ? middleware.router : undefined;
    if (!(router instanceof Router)) continue;
    for (const layer of router.stack) {
      // Middleware layers (authentication, body parsing) have no methods.
      if (typeof layer.path !== 'string') continue;
      for (const method of layer.methods) routes.push({ method, path: layer.path, params: layer.paramNames.map((key) => String(key.name)) });
    }
  }
  return routes;
}
