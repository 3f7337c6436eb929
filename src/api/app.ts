import type { RequestListener } from 'node:http';
import Koa from 'koa';
import { Router } from '@koa/router';
import { consoleRouter } from '../console/routes.js';
import { publicRouter } from '../public/router.js';
import { ApiKeyUseRecorder } from '../app/api-key-use.js';
import { authenticate } from '../web/authentication.js';
import { clientAddressResolver, peerIsProxyResolver, trustsAnyProxy } from '../web/client-address.js';
import type { ApiDependencies } from '../web/dependencies.js';
import { browserErrors } from '../console/browser-errors.js';
import { errorMiddleware } from '../web/errors.js';
import { httpRequestMetrics } from './http-metrics.js';
import { jsonBody } from './json-body.js';
import { AuthFailureThrottle, rateLimitPerKey } from '../web/rate-limit.js';
import { readYourWrites } from './read-your-writes.js';
import { requestContext } from './request-context.js';
import { apiKeyRoutes } from './routes/api-keys.js';
import { docsRouter } from './routes/docs.js';
import { incidentNoteRoutes } from './routes/incident-notes.js';
import { incidentRoutes } from './routes/incidents.js';
import { monitorRoutes } from './routes/monitors.js';
import { operationsRoutes } from './routes/operations.js';
import { historyRoutes } from './routes/history.js';
import { notificationRoutes } from './routes/notifications.js';
import { escalationPolicyRoutes } from './routes/escalation-policies.js';
import { pingApi } from './ping-api.js';
import { peerPings } from './peers/index.js';
import { uptimeRoutes } from './routes/uptime.js';
import { invitationRoutes } from './routes/invitations.js';
import { projectRoutes } from './routes/projects.js';
import { statusPageRoutes } from './routes/status-pages.js';
import { maintenanceRoutes } from './routes/maintenance.js';
import { onCallRoutes } from './routes/on-call.js';
import type { VigilState } from '../web/state.js';

/** The version of the REST contract the OpenAPI document describes. */
export const API_VERSION = '1.0.0';

/** How long an unknown API key (before its 401) or a read waits for the read models to reach the log's head. */
const CATCH_UP_MS = 2_000;

/**
 * Failed authentications per client address, one count for every door: a wrong X-API-Key, a wrong
 * key at the console's sign-in, a ping to a monitor id or ping key that does not exist, a badge URL
 * that names nothing.
 */
export function authFailureThrottle(deps: ApiDependencies): AuthFailureThrottle {
  return new AuthFailureThrottle(deps.config.rateLimit, deps.commands.clock);
}

/**
 * What the API's HTTP server runs: the Ping API (see pingApi) for its paths, the peers' ping URLs
 * (see peerPings) for theirs, the REST API for everything else.
 */
export function apiListener(deps: ApiDependencies, rest: Koa<VigilState>, throttle: AuthFailureThrottle): RequestListener {
  const pings = pingApi(deps, { payloadLimitBytes: deps.config.pingPayloadLimitBytes, clientAddress: clientAddressResolver(deps.config.trustProxy), throttle });
  const peers = peerPings(deps, { payloadLimitBytes: deps.config.pingPayloadLimitBytes, clientAddress: clientAddressResolver(deps.config.trustProxy), throttle });
  const answerRest = rest.callback();
  return (request, response) => {
    if (!pings(request, response) && !peers(request, response)) void answerRest(request, response);
  };
}

/** The REST API's HTTP edge: request ids and logs, one error middleware, then the authenticated REST API under /v1. */
export function createApiApp(deps: ApiDependencies, throttle: AuthFailureThrottle): Koa<VigilState> {
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

  // The OpenAPI document and its explorer: public, outside /v1.
  const docs = docsRouter({ version: API_VERSION, pingPayloadLimitBytes: deps.config.pingPayloadLimitBytes, bodyLimitBytes: deps.config.bodyLimitBytes });
  app.use(docs.routes());
  app.use(docs.allowedMethods({ throw: true }));

  const rest = new Router<VigilState>({ prefix: '/v1' });
  const catchUpWithLog = async () => {
    const head = await deps.commands.events.headPosition();
    await deps.progress.waitForPosition(head, CATCH_UP_MS).catch(() => undefined);
  };
  const onFailure = (outcome: 'refused' | 'throttled') => deps.metrics?.authFailures.inc({ outcome });
  const keyUses = new ApiKeyUseRecorder(deps.commands, (err) => deps.logger.warn({ err }, 'an API key use was not recorded'));
  const onKeyUsed = (userId: string, apiKeyId: string) => void keyUses.use(userId, apiKeyId);
  rest.use(authenticate(deps.readModels, deps.commands.clock, { catchUp: catchUpWithLog, throttle, onFailure, onKeyUsed }));
  // Where the projector runs in this process on the embedded log, a request sees every write
  // acknowledged before it, pings included (the Ping API answers once a ping is in the log, not once
  // it is projected): it waits, briefly, for the read models to reach the log head. Writes too, for
  // they read before they decide: a DELETE of a monitor archives the incidents it finds, and one a
  // ping opened a moment ago must be among them. Caught up, that is one position read; behind for
  // longer than the bound, it goes on with what it has rather than fail. Elsewhere, reading the head
  // and polling the checkpoints would cost every request a round trip or more: a client that wants
  // its own writes sends their Vigil-Position back in Vigil-Min-Position (see readYourWrites).
  rest.use(readYourWrites(deps, catchUpWithLog));
  rest.use(rateLimitPerKey(deps.config.rateLimit));
  rest.use(jsonBody(deps.config.bodyLimitBytes));
  projectRoutes(rest, deps);
  apiKeyRoutes(rest, deps);
  invitationRoutes(rest, deps);
  monitorRoutes(rest, deps);
  incidentRoutes(rest, deps);
  incidentNoteRoutes(rest, deps);
  uptimeRoutes(rest, deps);
  notificationRoutes(rest, deps);
  escalationPolicyRoutes(rest, deps);
  historyRoutes(rest, deps);
  statusPageRoutes(rest, deps);
  maintenanceRoutes(rest, deps);
  onCallRoutes(rest, deps);

  app.use(rest.routes());
  app.use(rest.allowedMethods({ throw: true }));
  // Badges and public status pages: no key, no session, outside /v1.
  const publicPages = publicRouter(deps, throttle);
  app.use(publicPages.routes());
  app.use(publicPages.allowedMethods({ throw: true }));
  // The web console for people: server-rendered pages outside /v1, signed in with an API key.
  const webConsole = consoleRouter(deps, catchUpWithLog, { throttle, onFailure, onKeyUsed });
  app.use(webConsole.routes());
  app.use(webConsole.allowedMethods({ throw: true }));
  // /healthz, /readyz and /metrics: unauthenticated, outside /v1.
  app.use(operationsRoutes(deps));
  // Sets rather than throws, so allowedMethods (upstream) can still turn it into a 405.
  app.use((ctx) => {
    ctx.status = 404;
    ctx.body = { error: `no route for ${ctx.method} ${ctx.path}` };
  });
  return app;
}
