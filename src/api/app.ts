import type { RequestListener } from 'node:http';
import type Koa from 'koa';
import { Router } from '@koa/router';
import type { RouterMiddleware } from '@koa/router';
import { authenticate } from '../web/authentication.js';
import { clientAddressResolver } from '../web/client-address.js';
import type { ApiDependencies } from '../web/dependencies.js';
import { jsonBody } from './json-body.js';
import { AuthFailureThrottle, rateLimitPerKey } from '../web/rate-limit.js';
import { readYourWrites } from './read-your-writes.js';
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

/** How the REST API's keys are checked: the throttle and metric shared with the console's sign-in, and a key's "last used". */
export interface KeyChecks {
  throttle: AuthFailureThrottle;
  onFailure: (outcome: 'refused' | 'throttled') => void;
  onKeyUsed: (userId: string, apiKeyId: string) => void;
}

/** The REST API's parts, which the web app (src/main/web-app.ts) mounts in order among the console's and the public pages'. */
export interface RestApi {
  /** The OpenAPI document and its explorer: public, outside /v1. */
  docs: Router;
  /** The authenticated REST API under /v1. */
  v1: Router<VigilState>;
  /** /healthz, /readyz and /metrics: unauthenticated, outside /v1. */
  operations: RouterMiddleware;
}

export function restApi(deps: ApiDependencies, catchUpWithLog: () => Promise<void>, keys: KeyChecks): RestApi {
  const docs = docsRouter({ version: API_VERSION, pingPayloadLimitBytes: deps.config.pingPayloadLimitBytes, bodyLimitBytes: deps.config.bodyLimitBytes });
  const rest = new Router<VigilState>({ prefix: '/v1' });
  rest.use(authenticate(deps.readModels, deps.commands.clock, { catchUp: catchUpWithLog, ...keys }));
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
  return { docs, v1: rest, operations: operationsRoutes(deps) };
}
