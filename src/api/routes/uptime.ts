import type { Router } from '@koa/router';
import type * as t from 'io-ts';
import { runHttpCheck } from '../../checker/http-check.js';
import { inspectDns } from '../../checker/dns-inspect.js';
import { inspectTls } from '../../checker/tls-inspect.js';
import { guardFor } from '../../outbound/guard.js';
import { listMonitors } from '../../queries/monitors.js';
import { checkHours, periodStart, summarize } from '../../queries/uptime.js';
import type { CheckResultDocument } from '../../../projections/check-results.js';
import type { ApiDependencies } from '../../web/dependencies.js';
import { HttpError } from '../../web/errors.js';
import { gate } from '../../app/gate.js';
import { gatedMonitor, targetProject } from '../../web/monitor-access.js';
import type { VigilState } from '../../web/state.js';
import { PeriodQuery, queryFields } from '../../web/codecs/queries.js';
import { CheckDnsBody, CheckHttpBody, CheckSslBody } from '../../web/codecs/tools.js';
import { ToolRunLimit } from '../tool-runs.js';
import { decode, pathId } from '../../web/validation.js';
import { isUptimeType } from '../../domain/monitors/schedule.js';

const READ = { scope: 'read' } as const;
/** As creating a monitor: a tool run reaches nothing a monitor its caller could create would not. */
const RUN_TOOL = { scope: 'manage_monitors', minimumRole: 'MEMBER' } as const;
const TOOL_TIMEOUT_MS = 10_000;

const periodQuery = (query: Record<string, unknown>) => decode(PeriodQuery, queryFields(query, PeriodQuery), 'query').period_hours ?? 24;


export function uptimeRoutes(router: Router<VigilState>, deps: ApiDependencies): void {
  const { readModels, commands } = deps;
  const tools = deps.config.checks;
  // The tools are checks: under VIGIL_PRIVATE_TARGETS=deny they reach no private address, as the checker.
  const guard = guardFor(deps.config.privateTargets, 'check');
  const runs = new ToolRunLimit(commands.clock);

  /** The body of a tool run its caller may start: gated as creating a monitor in the project it names, and counted. */
  async function toolRun<A extends { project_id?: string }>(state: VigilState, codec: t.Decoder<unknown, A>, raw: unknown): Promise<A> {
    await gate(readModels, state.caller, { scope: RUN_TOOL.scope }, null);
    const body = decode(codec, raw);
    await gate(readModels, state.caller, RUN_TOOL, targetProject(state, body.project_id));
    runs.take(state.caller.userId);
    return body;
  }

  router.get('/monitors/:monitorId/check-results/latest', async (ctx) => {
    const monitor = await gatedMonitor(readModels, ctx.state, ctx.params['monitorId'], READ);
    const latest = (await readModels.get<CheckResultDocument>('check_results_latest', monitor.id))?.doc;
    if (!latest) throw new HttpError(404, 'no check results yet');
    ctx.body = latest;
  });

  router.get('/monitors/:monitorId/response-time-stats', async (ctx) => {
    const monitor = await gatedMonitor(readModels, ctx.state, ctx.params['monitorId'], READ);
    const period = periodQuery(ctx.query);
    ctx.body = summarize(await checkHours(readModels, { monitor_id: monitor.id }, periodStart(commands.clock(), period)));
  });

  router.get('/projects/:projectId/uptime-summary', async (ctx) => {
    const projectId = pathId(ctx.params['projectId'], 'project');
    await gate(readModels, ctx.state.caller, READ, projectId);
    const period = periodQuery(ctx.query);
    const hours = await checkHours(readModels, { project_id: projectId }, periodStart(commands.clock(), period));
    const monitors = (await listMonitors(readModels, projectId)).filter((m) => isUptimeType(m.type));
    const overall = summarize(hours);
    ctx.body = {
      period_hours: period,
      monitors: monitors.map((m) => {
        const stats = summarize(hours.filter((h) => h.monitor_id === m.id));
        return {
          monitor_id: m.id, name: m.name, uptime_percentage: stats.uptime_percentage, total_checks: stats.total_checks,
          up_count: stats.up_count, down_count: stats.down_count, avg_ms: stats.avg_ms, p95_ms: stats.p95_ms,
        };
      }),
      overall: { uptime_percentage: overall.uptime_percentage, total_checks: overall.total_checks, up_count: overall.up_count, down_count: overall.down_count },
    };
  });

  router.post('/tools/check-http', async (ctx) => {
    const body = await toolRun(ctx.state, CheckHttpBody, ctx.request.body);
    const outcome = await runHttpCheck(
      { url: body.url, method: body.method ?? 'GET', headers: {}, body: null, timeoutMs: TOOL_TIMEOUT_MS, followRedirects: body.follow_redirects ?? true, verifySsl: true, expectedStatus: [], keyword: null, keywordAbsent: false },
      { extraCaPem: tools.extraCaPem, privateTargets: deps.config.privateTargets, userAgent: 'Vigil-Uptime/0.1 (tools)' },
      guard,
    );
    ctx.body = {
      ok: true, status: outcome.is_up ? 'up' : 'down', status_code: outcome.status_code, method_used: outcome.method_used,
      response_time_ms: outcome.response_time_ms, timing: outcome.timing, final_url: outcome.final_url, redirect_chain: outcome.redirect_chain,
      tls_error: outcome.tls_error, error: outcome.error, checked_at: commands.clock().toISOString(), check_region: tools.region,
    };
  });

  router.post('/tools/check-ssl', async (ctx) => {
    const body = await toolRun(ctx.state, CheckSslBody, ctx.request.body);
    const port = body.port ?? 443;
    const inspection = await inspectTls(body.hostname, port, { extraCaPem: tools.extraCaPem, guard, timeoutMs: TOOL_TIMEOUT_MS, now: commands.clock() });
    ctx.body = { ok: true, ...inspection, hostname_checked: body.hostname, port_checked: port, checked_at: commands.clock().toISOString(), check_region: tools.region };
  });

  router.post('/tools/check-dns', async (ctx) => {
    const body = await toolRun(ctx.state, CheckDnsBody, ctx.request.body);
    const inspection = await inspectDns(body.hostname, tools.dnsServers, 3000);
    ctx.body = { ok: true, hostname_checked: body.hostname, ...inspection, checked_at: commands.clock().toISOString(), check_region: tools.region };
  });
}
