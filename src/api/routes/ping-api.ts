import type { Router } from '@koa/router';
import type { Context } from 'koa';
import * as t from 'io-ts';
import { receivePing } from '../../app/monitors.js';
import type { PingKind } from '../../domain/monitors/pings.js';
import { findMonitorBySlug } from '../../queries/monitors.js';
import type { ApiDependencies } from '../dependencies.js';
import { HttpError, badRequest } from '../errors.js';
import { readCappedBody } from '../raw-body.js';
import { IntegerFromQuery, queryFields } from '../codecs/queries.js';
import { BoundedString, decode, pathId } from '../validation.js';

export interface PingApiConfig {
  /** Bytes of a POST body kept as the ping's payload; the excess is discarded and flagged. */
  payloadLimitBytes: number;
}

const SUFFIXES: Record<string, PingKind> = { start: 'START', success: 'SUCCESS', fail: 'FAILURE', failure: 'FAILURE', log: 'LOG' };


export const PingQuery = t.partial({
  run_id: BoundedString(1, 128),
  exit_code: IntegerFromQuery('exit_code', -2_147_483_648, 4_294_967_295),
  duration_ms: IntegerFromQuery('duration_ms', 0, 2_147_483_647),
  message: BoundedString(0, 2000),
});

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

/**
 * The Ping API: no authentication, GET, POST and HEAD, by monitor id or by project ping key and
 * slug. A ping is answered only after its event is durably appended.
 */
export function pingRoutes(router: Router, deps: ApiDependencies, config: PingApiConfig): void {
  async function handle(ctx: Context, monitorId: string, suffix: string | undefined) {
    ctx.state['routine'] = true;
    const { kind, exitCode: suffixExitCode } = kindOf(suffix);
    const query = decode(
      PingQuery,
      queryFields(ctx.query, PingQuery),
      'query',
    );
    const body = ctx.method === 'POST' ? await readCappedBody(ctx.req, config.payloadLimitBytes, Math.max(config.payloadLimitBytes * 10, 10 * 1024 * 1024)) : null;
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
        request_ip: ctx.ip || null,
        request_ua: ctx.get('User-Agent').slice(0, 512) || null,
      },
      { kind: 'system', user_id: null, api_key_id: null, request_id: ctx.state['requestId'] ?? null },
    );
    deps.metrics?.pingsReceived.inc({ event: recorded.event });
    ctx.body = {
      ok: true,
      ping_id: recorded.pingId,
      monitor_id: monitorId,
      event: recorded.event,
      ...(recorded.evaluated ? {} : { code: 'MONITOR_PAUSED' }),
    };
  }

  async function bySlug(ctx: Context, pingKey: string | undefined, slug: string | undefined, suffix: string | undefined) {
    const monitor = pingKey && slug ? await findMonitorBySlug(deps.readModels, pingKey, slug) : null;
    if (!monitor) throw new HttpError(404, 'monitor not found');
    await handle(ctx, monitor.id, suffix);
  }

  const methods = ['get', 'post'] as const;
  for (const method of methods) {
    router[method]('/ping/:monitorId', (ctx) => handle(ctx, pathId(ctx.params['monitorId'], 'monitor'), undefined));
    router[method]('/ping/:monitorId/:suffix', (ctx) => handle(ctx, pathId(ctx.params['monitorId'], 'monitor'), ctx.params['suffix']));
    router[method]('/s-ping/:pingKey/:slug', (ctx) => bySlug(ctx, ctx.params['pingKey'], ctx.params['slug'], undefined));
    router[method]('/s-ping/:pingKey/:slug/:suffix', (ctx) => bySlug(ctx, ctx.params['pingKey'], ctx.params['slug'], ctx.params['suffix']));
  }
}
