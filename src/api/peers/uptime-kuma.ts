import type { IncomingMessage } from 'node:http';
import { monitorByPeerAlias } from '../../app/peer-aliases.js';
import { HttpError } from '../../web/errors.js';
import { readCappedBody } from '../raw-body.js';
import { type PeerAnswer, type PeerPing, PeerPingCore, type PingOrigin, UUID_PATTERN } from './peer-serve.js';

/**
 * Uptime Kuma's push URL, `/api/push/<token>?status=up|down&msg=…&ping=…`, as its
 * server/routers/api-router.js answers it: `{"ok":true}`, and every refusal a 404 with
 * `{"ok":false,"msg":…}`. The token is a monitor's id, or the pushToken a push monitor had in Kuma
 * before `vigil import uptime-kuma`.
 */
export const KUMA_PUSH_PATH = /^\/api\/push\/([^/]+)\/?$/;

/** Kuma's own words for a token that names no active monitor. */
const NOT_FOUND = 'Monitor not found or not active.';
/** Vigil keeps a duration in whole milliseconds up to 2^31 - 1 (24.8 days); Kuma's own bound is 10^11. */
const MAX_PING_MS = 2_147_483_647;
const MAX_MESSAGE = 2000;

const json = (status: number, body: object, headers: Record<string, string> = {}): PeerAnswer => ({ status, body: JSON.stringify(body), contentType: 'application/json', headers });

export const kumaRefusal = (status: number, message: string): PeerAnswer => json(status, { ok: false, msg: status === 404 ? NOT_FOUND : message });

export async function answerKumaPush(core: PeerPingCore, request: IncomingMessage, token: string, query: URLSearchParams, origin: PingOrigin): Promise<PeerAnswer> {
  const { config, deps } = core;
  const method = request.method ?? '';
  if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') return json(405, { ok: false, msg: 'Method Not Allowed' }, { Allow: 'GET, HEAD, POST' });
  // As Kuma reads them: `parseFloat(ping) || null`, a status other than "up" is down, msg defaults to "OK".
  const ping = Number.parseFloat(query.get('ping') ?? '') || null;
  if (ping !== null && (ping < 0 || ping > MAX_PING_MS)) return json(404, { ok: false, msg: `Invalid ping value. Must be between 0 and ${MAX_PING_MS} ms.` });
  const status = query.get('status') ?? 'up';
  const msg = query.get('msg');
  const body = method === 'POST' ? await readCappedBody(request, config.payloadLimitBytes, Math.max(config.payloadLimitBytes * 10, 10 * 1024 * 1024)) : null;
  const peerPing: PeerPing = {
    kind: status === 'up' ? 'SUCCESS' : 'FAILURE',
    runId: null,
    exitCode: null,
    durationMs: ping === null ? null : Math.round(ping),
    message: msg ? msg.slice(0, MAX_MESSAGE) : null,
    body,
  };
  let recorded = UUID_PATTERN.test(token) ? await core.recordIfThere(token.toLowerCase(), peerPing, origin) : null;
  if (recorded === null) {
    const aliased = await core.lookTwice(() => monitorByPeerAlias(deps.readModels, 'uptime_kuma', token), (id) => id !== null);
    recorded = aliased === null ? null : await core.recordIfThere(aliased, peerPing, origin);
  }
  if (recorded === null) throw core.unknownSecret(origin.address, new HttpError(404, NOT_FOUND));
  return json(200, { ok: true }, PeerPingCore.positionHeaders(recorded.position));
}
