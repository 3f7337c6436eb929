import type Koa from 'koa';

export interface ServedRoute {
  method: string;
  /** Koa-style with its prefix: `/v1/monitors/:monitorId`. */
  path: string;
}

interface RouterLayer {
  methods: string[];
  path: string;
}

/** Every method and path the app's routers answer, read off the routers themselves (not a list). */
export function servedRoutes(app: Koa<any>): ServedRoute[] {
  const routes: ServedRoute[] = [];
  for (const middleware of app.middleware) {
    const router: { stack?: RouterLayer[] } | undefined = Reflect.get(middleware, 'router');
    for (const layer of router?.stack ?? []) {
      // Middleware layers (authentication, body parsing) have no methods.
      for (const method of layer.methods) routes.push({ method, path: layer.path });
    }
  }
  return routes;
}
