import type { IncomingMessage } from 'node:http';
import { provisionOnFirstPing } from '../../app/auto-provisioning.js';
import { monitorByPeerAlias } from '../../app/peer-aliases.js';
import type { PingKind } from '../../domain/monitors/pings.js';
import { findSlugTarget } from '../../queries/monitors.js';
import { Slug } from '../../web/codecs/monitors.js';
import { HttpError } from '../../web/errors.js';
import { decode } from '../../web/validation.js';
import { readCappedBody } from '../raw-body.js';
import { type PeerAnswer, type PeerPing, PeerPingCore, type PingOrigin, UUID_PATTERN, decodeSegment } from './peer-serve.js';

/**
 * Healthchecks' ping URLs, as its hc/api/urls.py routes them:
 *   /ping/<uuid>[/], /ping/<uuid>/{fail,start,log,<exit status>}
 *   /ping/<ping key>/<slug>, /ping/<ping key>/<slug>/{fail,start,log,<exit status>}
 * A UUID is a monitor's id, or the UUID a check had in Healthchecks before `vigil import
 * healthchecks`; the ping key is the project's. Answers are Healthchecks' plain text.
 */
const ACTIONS: Record<string, PingKind> = { fail: 'FAILURE', start: 'START', log: 'LOG' };
const SLUG_SEGMENT = /^[-a-zA-Z0-9_]+$/;

type Target = { uuid: string } | { pingKey: string; slug: string };

interface Parsed {
  target: Target;
  kind: PingKind;
  exitCode: number | null;
  route: string;
}

/** The route a path takes, or null when it is none of Healthchecks' (the REST API's 404 then). */
export function parseHealthchecksPath(path: string): Parsed | 'bad_exit_status' | null {
  const segments = path.slice('/ping/'.length).split('/').map(decodeSegment);
  const [first, second, third, ...rest] = segments;
  if (rest.length > 0 || !first) return null;
  if (UUID_PATTERN.test(first)) {
    // Django's uuid routes come first: a UUID followed by an action, a number, or nothing (a trailing slash).
    if (second === undefined || (second === '' && third === undefined)) return { target: { uuid: first }, kind: 'SUCCESS', exitCode: null, route: '/ping/:uuid' };
    if (third === undefined) {
      const action = actionOf(second);
      if (action !== null) return action === 'bad_exit_status' ? action : { target: { uuid: first }, ...action, route: '/ping/:uuid/:action' };
    }
  }
  if (!SLUG_SEGMENT.test(first) || second === undefined || !SLUG_SEGMENT.test(second)) return null;
  if (third === undefined) return { target: { pingKey: first, slug: second }, kind: 'SUCCESS', exitCode: null, route: '/ping/:pingKey/:slug' };
  const action = actionOf(third);
  if (action === null) return null;
  return action === 'bad_exit_status' ? action : { target: { pingKey: first, slug: second }, ...action, route: '/ping/:pingKey/:slug/:action' };
}

function actionOf(segment: string): { kind: PingKind; exitCode: number | null } | 'bad_exit_status' | null {
  const kind = ACTIONS[segment];
  if (kind) return { kind, exitCode: null };
  if (!/^\d+$/.test(segment)) return null;
  const status = Number(segment);
  if (status > 255) return 'bad_exit_status';
  return { kind: status === 0 ? 'SUCCESS' : 'FAILURE', exitCode: status };
}

const text = (status: number, body: string, headers: Record<string, string> = {}): PeerAnswer => ({ status, body, contentType: 'text/plain; charset=utf-8', headers });

/** Healthchecks answers its errors in a few words of plain text; Vigil's own reason is as plain. */
export const healthchecksRefusal = (status: number, message: string): PeerAnswer => text(status, status === 404 ? 'not found' : message);

export async function answerHealthchecks(core: PeerPingCore, request: IncomingMessage, parsed: Parsed, query: URLSearchParams, origin: PingOrigin): Promise<PeerAnswer> {
  const { config, deps } = core;
  const method = request.method ?? '';
  if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') return text(405, 'method not allowed', { Allow: 'GET, HEAD, POST' });
  const rid = query.get('rid');
  if (rid !== null && !UUID_PATTERN.test(rid)) return text(400, 'invalid uuid format');
  const { target } = parsed;
  let monitorId: string | null = null;
  let created = false;
  if ('uuid' in target) {
    // Resolved when the ping is recorded: the id first, then the UUID an import kept.
  } else {
    if (target.slug !== target.slug.toLowerCase()) return text(400, 'invalid url format');
    const found = await core.lookTwice(() => findSlugTarget(deps.readModels, target.pingKey, target.slug), (looked) => looked.monitor !== null);
    if (found.monitor) monitorId = found.monitor.id;
    else if (!found.project) throw core.unknownSecret(origin.address, new HttpError(404, 'not found'));
    else if (query.get('create') === '1' && found.project.auto_provisioning.enabled) {
      // Healthchecks' slugs may hold underscores, Vigil's may not: refused before the project counts a creation.
      decode(Slug, target.slug, 'slug');
      const provisioned = await provisionOnFirstPing(deps.commands, {
        project_id: found.project.id,
        slug: target.slug,
        request_ip: origin.address || null,
        request_ua: origin.userAgent,
        request_id: origin.requestId,
      });
      monitorId = provisioned.monitorId;
      created = true;
    } else return text(404, 'not found');
  }
  const body = method === 'POST' ? await readCappedBody(request, config.payloadLimitBytes, Math.max(config.payloadLimitBytes * 10, 10 * 1024 * 1024)) : null;
  const ping: PeerPing = { kind: parsed.kind, runId: rid?.toLowerCase() ?? null, exitCode: parsed.exitCode, durationMs: null, message: null, body };
  let recorded = monitorId === null ? null : await core.record(monitorId, ping, origin);
  if ('uuid' in target) {
    recorded = await core.recordIfThere(target.uuid.toLowerCase(), ping, origin);
    if (recorded === null) {
      const aliased = await core.lookTwice(() => monitorByPeerAlias(deps.readModels, 'healthchecks', target.uuid), (id) => id !== null);
      recorded = aliased === null ? null : await core.recordIfThere(aliased, ping, origin);
    }
    if (recorded === null) throw core.unknownSecret(origin.address, new HttpError(404, 'not found'));
  }
  const headers = { 'Ping-Body-Limit': String(config.payloadLimitBytes), 'Access-Control-Allow-Origin': '*', ...PeerPingCore.positionHeaders(recorded!.position) };
  return created ? text(201, 'Created', headers) : text(200, 'OK', headers);
}
