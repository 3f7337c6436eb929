import Koa from 'koa';
import { restApi } from '../api/app.js';
import { ApiKeyUseRecorder } from '../app/api-key-use.js';
import { browserErrors } from '../console/browser-errors.js';
import { consoleRouter } from '../console/routes.js';
import { publicRouter } from '../public/router.js';
import { clientAddressResolver, peerIsProxyResolver, trustsAnyProxy } from '../web/client-address.js';
import type { ApiDependencies } from '../web/dependencies.js';
import { errorMiddleware } from '../web/errors.js';
import { httpRequestMetrics } from '../web/http-metrics.js';
import type { AuthFailureThrottle } from '../web/rate-limit.js';
import { requestContext } from '../web/request-context.js';
import type { VigilState } from '../web/state.js';

/** How long an unknown API key (before its 401) or a read waits for the read models to reach the log's head. */
const CATCH_UP_MS = 2_000;

/**
 * The one Koa app behind the API's HTTP server (after the Ping API, see apiListener): request ids
 * and logs, one error middleware, then its three peers, each over src/app and src/queries: the REST
 * API (src/api), the public badges and status pages (src/public) and the web console (src/console).
 */
export function createWebApp(deps: ApiDependencies, throttle: AuthFailureThrottle): Koa<VigilState> {
  const app = new Koa<VigilState>();
  // Koa reads X-Forwarded-Proto and X-Forwarded-Host once a proxy is trusted; the client's address
  // it would take from the left of X-Forwarded-For, where any client can write: it is set here
  // instead, as the Ping API finds it.
  app.proxy = trustsAnyProxy(deps.config.trustProxy);
  const clientAddress = clientAddressResolver(deps.config.trustProxy);
  const peerIsProxy = peerIsProxyResolver(deps.config.trustProxy);
  app.use(async (ctx, next) => {
    ctx.request.ip = clientAddress(ctx.req);
    if (app.proxy && !peerIsProxy(ctx.req)) {
      // A client that reaches Vigil past its listed proxies does not say for them how it came.
      delete ctx.req.headers['x-forwarded-proto'];
      delete ctx.req.headers['x-forwarded-host'];
    }
    // Every answer says what it is: a JSON error echoing a request's text is never read as HTML or script.
    ctx.set('X-Content-Type-Options', 'nosniff');
    await next();
  });
  app.use(httpRequestMetrics(deps.metrics));
  app.use(requestContext(deps.logger));
  // A browser asking for a page outside the APIs gets one, never `{ error }`.
  app.use(browserErrors());
  app.use(errorMiddleware(deps.logger));

  const catchUpWithLog = async () => {
    const head = await deps.commands.events.headPosition();
    await deps.progress.waitForPosition(head, CATCH_UP_MS).catch(() => undefined);
  };
  const onFailure = (outcome: 'refused' | 'throttled') => deps.metrics?.authFailures.inc({ outcome });
  const keyUses = new ApiKeyUseRecorder(deps.commands, (err) => deps.logger.warn({ err }, 'an API key use was not recorded'));
  const onKeyUsed = (userId: string, apiKeyId: string) => void keyUses.use(userId, apiKeyId);
  const api = restApi(deps, catchUpWithLog, { throttle, onFailure, onKeyUsed });
  // The OpenAPI document and its explorer: public, outside /v1.
  app.use(api.docs.routes());
  app.use(api.docs.allowedMethods({ throw: true }));
  app.use(api.v1.routes());
  app.use(api.v1.allowedMethods({ throw: true }));
  // Badges and public status pages: no key, no session, outside /v1.
  const publicPages = publicRouter(deps, throttle);
  app.use(publicPages.routes());
  app.use(publicPages.allowedMethods({ throw: true }));
  // The web console for people: server-rendered pages outside /v1, signed in with an API key.
  const webConsole = consoleRouter(deps, catchUpWithLog, { throttle, onFailure, onKeyUsed });
  app.use(webConsole.routes());
  app.use(webConsole.allowedMethods({ throw: true }));
  // /healthz, /readyz and /metrics: unauthenticated, outside /v1.
  app.use(api.operations);
  // Sets rather than throws, so allowedMethods (upstream) can still turn it into a 405.
  app.use((ctx) => {
    ctx.status = 404;
    ctx.body = { error: `no route for ${ctx.method} ${ctx.path}` };
  });
  return app;
}
