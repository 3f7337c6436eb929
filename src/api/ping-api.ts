import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ProjectDocument } from '../../projections/projects.js';
import * as t from 'io-ts';
import { receivePing } from '../app/monitors.js';
import { provisionOnFirstPing } from '../app/auto-provisioning.js';
import { Slug } from '../web/codecs/monitors.js';
import type { PingKind } from '../domain/monitors/pings.js';
import { DomainError } from '../domain/errors.js';
import { findSlugTarget } from '../queries/monitors.js';
import { IntegerFromQuery, queryFields } from '../web/codecs/queries.js';
import type { ApiDependencies } from '../web/dependencies.js';
import { HttpError, badRequest, loggedErrorResponse } from '../web/errors.js';
import type { AuthFailureThrottle } from '../web/rate-limit.js';
import { POSITION_HEADER, positionToken } from './position-token.js';
import { readCappedBody } from './raw-body.js';
import { logRequest, requestIdFrom } from '../web/request-context.js';
import { BoundedString, OneOf, decode, pathId } from '../web/validation.js';

export interface PingApiConfig {
  /** Bytes of a POST body kept as the ping's payload; the excess is discarded and flagged. */
  payloadLimitBytes: number;
  /** The client's address, as the REST API finds it (clientAddressResolver). */
  clientAddress: (request: IncomingMessage) => string;
  /** The REST API's throttle on failed authentications: a ping naming no monitor counts as one. */
  throttle?: AuthFailureThrottle | null;
}

export const PingQuery = t.partial({
  run_id: BoundedString(1, 128),
  exit_code: IntegerFromQuery('exit_code', -2_147_483_648, 4_294_967_295),
  duration_ms: IntegerFromQuery('duration_ms', 0, 2_147_483_647),
  message: BoundedString(0, 2000),
  /** On `/v1/s-ping/...`: create the monitor if the slug is unknown and the project allows it. */
  create: OneOf(['0', '1']),
});

/** A route of the Ping API, named as the REST routers name theirs (metrics, OpenAPI, tests). */
export interface PingRoute {
  path: string;
  params: string[];
}

/** Every route answers these; HEAD rides on GET, and records a ping as GET does. */
export const PING_METHODS = ['HEAD', 'GET', 'POST'] as const;

export const PING_ROUTES: readonly PingRoute[] = ['/v1/ping/:monitorId', '/v1/ping/:monitorId/:suffix', '/v1/s-ping/:pingKey/:slug', '/v1/s-ping/:pingKey/:slug/:suffix'].map(
  (path) => ({ path, params: [...path.matchAll(/:([A-Za-z]+)/g)].map((param) => param[1]!) }),
);

/**
 * Matches a path as @koa/router matches the REST routes: case-insensitive, an optional trailing
 * slash, each parameter one non-empty segment, percent-decoded (left as sent if it does not decode).
 */
const MATCHERS = PING_ROUTES.map((route) => ({
  route,
  pattern: new RegExp(`^${route.path.replace(/:[A-Za-z]+/g, '([^/#?]+?)')}/?$`, 'i'),
}));

/** The router's other methods: on a Ping API path these are 405, and methods it does not know 501. */
const OTHER_ROUTER_METHODS = new Set(['PUT', 'PATCH', 'DELETE']);

const SUFFIXES: Record<string, PingKind> = { start: 'START', success: 'SUCCESS', fail: 'FAILURE', failure: 'FAILURE', log: 'LOG' };

interface Answer {
  status: number;
  body: object | null;
  headers?: Record<string, string>;
}

/**
 * The Ping API: no authentication, GET, POST and HEAD, by monitor id or by project ping key and
 * slug. A ping is answered only after its event is durably appended.
 *
 * It is served straight from `node:http`, beside the Koa application that serves the REST API,
 * because a ping is the one request that arrives thousands of times a second: Koa's context,
 * middleware chain and router cost ~8% of the main thread at bench:pings' peak. What Koa's
 * middleware does for every request it does too, through the same functions: a request id,
 * one log line (at debug when it succeeded), the request duration metric under the route's
 * pattern, and errors answered as `{ error }` by `loggedErrorResponse`.
 *
 * Returns false when the path is not the Ping API's, for the REST API to answer.
 */
export function pingApi(deps: ApiDependencies, config: PingApiConfig): (request: IncomingMessage, response: ServerResponse) => boolean {
  return (request, response) => {
    const url = request.url ?? '';
    const queryAt = url.indexOf('?');
    const path = queryAt < 0 ? url : url.slice(0, queryAt);
    if (!/^\/v1\/(s-)?ping\//i.test(path)) return false;
    for (const { route, pattern } of MATCHERS) {
      const matched = pattern.exec(path);
      if (!matched) continue;
      const params = Object.fromEntries(route.params.map((name, index) => [name, decodeParam(matched[index + 1]!)]));
      const querystring = queryAt < 0 ? '' : url.slice(queryAt + 1);
      serve(request, response, route, path, (requestId) => answer(request, requestId, params, querystring)).catch((error: unknown) => {
        deps.logger.error({ err: error }, 'answering a ping failed');
        response.destroy();
      });
      return true;
    }
    return false;
  };

  async function serve(request: IncomingMessage, response: ServerResponse, route: PingRoute, path: string, respond: (requestId: string) => Promise<Answer>): Promise<void> {
    const started = process.hrtime.bigint();
    const stopTimer = deps.metrics?.httpRequestDuration.startTimer();
    const requestId = requestIdFrom(request.headers['x-request-id']);
    let answered: Answer;
    try {
      answered = await respond(requestId);
    } catch (caught) {
      answered = loggedErrorResponse(caught, deps.logger, requestId);
    }
    // The client may have gone while the ping was being recorded: nothing left to answer, but the
    // request is still timed and logged.
    if (!response.destroyed && !response.writableEnded) {
      const json = answered.body === null ? '' : JSON.stringify(answered.body);
      // All at once, as name-value pairs: Node then checks no header object, one setHeader at a time.
      const headers = ['X-Request-Id', requestId, 'X-Content-Type-Options', 'nosniff'];
      for (const [name, value] of Object.entries(answered.headers ?? {})) headers.push(name, value);
      if (answered.body !== null) headers.push('Content-Type', 'application/json; charset=utf-8');
      headers.push('Content-Length', String(Buffer.byteLength(json)));
      response.writeHead(answered.status, headers);
      response.end(request.method === 'HEAD' ? undefined : json);
    }
    const method = request.method ?? '';
    stopTimer?.({ method, route: route.path, status_code: String(answered.status) });
    logRequest(deps.logger, { requestId, method, path, status: answered.status, started, routine: true });
  }

  async function answer(request: IncomingMessage, requestId: string, params: Record<string, string>, querystring: string): Promise<Answer> {
    const method = request.method ?? '';
    if (method === 'OPTIONS') return { status: 200, body: null, headers: { Allow: PING_METHODS.join(', ') } };
    if (OTHER_ROUTER_METHODS.has(method)) throw new HttpError(405, 'Method Not Allowed');
    if (!(PING_METHODS as readonly string[]).includes(method)) throw new HttpError(501, 'Not Implemented');
    const address = config.clientAddress(request);
    const byId = params['monitorId'] !== undefined ? pathId(params['monitorId'], 'monitor') : await monitorIdBySlug(params['pingKey'], params['slug'], address);
    const { kind, exitCode: suffixExitCode } = kindOf(params['suffix']);
    // Most pings have no query at all: nothing to decode (the codec's answer for it is {} too).
    const query: t.TypeOf<typeof PingQuery> = querystring === '' ? {} : decode(PingQuery, queryFields(parseQuery(querystring), PingQuery), 'query');
    const userAgent = request.headers['user-agent'] ?? '';
    const requestIp = address || null;
    const requestUa = userAgent.slice(0, 512) || null;
    let monitorId: string;
    let created = false;
    let provisionedAt: number | null = null;
    if (typeof byId === 'string') monitorId = byId;
    else if (query.create === '1' && byId.project.auto_provisioning.enabled) {
      const slug = decode(Slug, byId.slug, 'slug');
      const provisioned = await provisionOnFirstPing(deps.commands, { project_id: byId.project.id, slug, request_ip: requestIp, request_ua: requestUa, request_id: requestId });
      monitorId = provisioned.monitorId;
      provisionedAt = provisioned.position;
      created = true;
    } else throw new HttpError(404, 'monitor not found');
    if (suffixExitCode !== null && query.exit_code !== undefined && query.exit_code !== suffixExitCode) {
      throw badRequest(`exit_code ${query.exit_code} contradicts the exit code ${suffixExitCode} in the path`);
    }
    const body = method === 'POST' ? await readCappedBody(request, config.payloadLimitBytes, Math.max(config.payloadLimitBytes * 10, 10 * 1024 * 1024)) : null;
    const recorded = await receivePing(
      deps.commands,
      monitorId,
      {
        event: kind,
        run_id: query.run_id ?? null,
        exit_code: suffixExitCode ?? query.exit_code ?? null,
        duration_ms: query.duration_ms ?? null,
        message: query.message ?? null,
        payload: body && body.bytes > 0 ? body.text : null,
        payload_truncated: body?.truncated ?? false,
        payload_bytes: body && body.bytes > 0 ? body.bytes : null,
        request_ip: requestIp,
        request_ua: requestUa,
      },
      { kind: 'system', user_id: null, api_key_id: null, request_id: requestId },
    ).catch((error: unknown) => {
      throw typeof byId === 'string' && error instanceof DomainError && error.reason === 'not_found' ? unknownSecret(address, error) : error;
    });
    deps.metrics?.pingsReceived.inc({ event: recorded.event });
    const written = recorded.position ?? provisionedAt;
    return {
      status: created ? 201 : 200,
      // The ping is in the log, not yet in the read models: a read that sends this back sees it.
      headers: written === null ? {} : { [POSITION_HEADER]: positionToken(written) },
      body: {
        ok: true,
        ping_id: recorded.pingId,
        monitor_id: monitorId,
        event: recorded.event,
        ...(created ? { created: true } : {}),
        ...(recorded.evaluated ? {} : { code: 'MONITOR_PAUSED' }),
      },
    };
  }

  /** The monitor's id, or for an unknown slug its project, which may create it on a first ping. */
  async function monitorIdBySlug(pingKey: string | undefined, slug: string | undefined, address: string): Promise<string | { project: ProjectDocument; slug: string }> {
    if (!pingKey || !slug) throw new HttpError(404, 'monitor not found');
    // Slugs are lowercase, and paths match in any case (as the router matched them): so does the slug.
    const target = await findSlugTarget(deps.readModels, pingKey, slug.toLowerCase());
    if (target.monitor) return target.monitor.id;
    if (!target.project) throw unknownSecret(address, new HttpError(404, 'monitor not found'));
    return { project: target.project, slug: slug.toLowerCase() };
  }

  /**
   * A monitor id or ping key that names nothing is a wrong secret, as a wrong API key is: it counts
   * against the client's address in the same throttle, and past the limit it is a 429 rather than
   * its 404. A ping that names a monitor is recorded all the same, from any address. A right ping
   * key with an unknown slug is no guess and is not counted.
   */
  function unknownSecret(address: string, refusal: HttpError | DomainError): HttpError | DomainError {
    const throttled = config.throttle?.recordFailure(address) ?? null;
    deps.metrics?.authFailures.inc({ outcome: throttled ? 'throttled' : 'refused' });
    return throttled ?? refusal;
  }
}

/** `/<suffix>`: a kind, or an exit code 0-255 (0 is SUCCESS, anything else FAILURE). */
function kindOf(suffix: string | undefined): { kind: PingKind; exitCode: number | null } {
  if (suffix === undefined) return { kind: 'SUCCESS', exitCode: null };
  const kind = SUFFIXES[suffix.toLowerCase()];
  if (kind) return { kind, exitCode: null };
  if (/^\d{1,3}$/.test(suffix) && Number(suffix) <= 255) {
    const exitCode = Number(suffix);
    return { kind: exitCode === 0 ? 'SUCCESS' : 'FAILURE', exitCode };
  }
  throw badRequest(`unknown ping suffix ${suffix}; use start, success, fail, failure, log or an exit code from 0 to 255`);
}

function decodeParam(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** As Koa parses a query: a repeated key becomes an array of its values. */
function parseQuery(querystring: string): Record<string, string | string[]> {
  const parsed = Object.create(null) as Record<string, string | string[]>;
  const params = new URLSearchParams(querystring);
  for (const key of params.keys()) {
    const values = params.getAll(key);
    parsed[key] = values.length === 1 ? values[0]! : values;
  }
  return parsed;
}
