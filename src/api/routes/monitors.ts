import type { Router } from '@koa/router';
import { changeMonitor, createMonitor, pauseMonitor, resumeMonitor } from '../../app/monitors.js';
import { deleteMonitor } from '../../app/monitor-deletion.js';
import { INCIDENT_KINDS, INCIDENT_STATUSES } from '../../domain/monitors/incidents.js';
import { PING_KINDS } from '../../domain/monitors/pings.js';
import { EARLY_CHECKIN_MS, upcomingSlots } from '../../domain/monitors/schedule.js';
import { dependentsOf, getMonitor, listMonitors, pagedFind } from '../../queries/monitors.js';
import { getPing, pingPage, recentPings } from '../../queries/pings.js';
import { WARNING_MAX_PINGS, WARNING_WINDOW_DAYS, monitorWarnings } from '../../queries/warnings.js';
import type { Filter } from '../../readstore/read-model-store.js';
import type { IncidentDocument } from '../../../projections/incidents.js';
import { inlineAsOfReader } from '../../audit/as-of-reader.js';
import { actorOf } from '../../web/actor.js';
import { CreateMonitorBody, UpdateMonitorBody } from '../../web/codecs/monitors.js';
import { type ApiDependencies, deletion, settled } from '../../web/dependencies.js';
import { HttpError } from '../../web/errors.js';
import { gate } from '../../app/gate.js';
import { gatedMonitor, targetProject, userActor } from '../../web/monitor-access.js';
import { configFromCreate, patchFromUpdate } from '../../web/monitor-input.js';
import { envelope, pageOf } from '../pagination.js';
import { incidentBody } from '../../web/representations/incidents.js';
import { monitorBody, shownNextExpected } from '../../web/representations/monitors.js';
import { pingBody } from '../../web/representations/pings.js';
import type { VigilState } from '../../web/state.js';
import { AsOfQuery, PingHistoryQuery, ProjectScopeQuery, queryFields } from '../../web/codecs/queries.js';
import { decode, pathId } from '../../web/validation.js';
import { assertEscalationPolicy } from '../../app/escalation-steps.js';
import { listFilter } from '../list-filters.js';
import { CREATE, MANAGE, assertNotificationTargets } from '../../app/monitor-rules.js';

const READ = { scope: 'read' } as const;
export function monitorRoutes(router: Router<VigilState>, deps: ApiDependencies): void {
  const { readModels, commands } = deps;
  const asOfReader = deps.asOf ?? inlineAsOfReader(readModels, commands.events);
  const fresh = async (monitorId: string) => {
    const monitor = await getMonitor(readModels, monitorId);
    if (!monitor) throw new HttpError(404, 'monitor not found');
    return monitorBody(monitor);
  };

  router.get('/monitors', async (ctx) => {
    const query = decode(ProjectScopeQuery, queryFields(ctx.query, ProjectScopeQuery), 'query');
    const projectId = targetProject(ctx.state, query.project_id);
    await gate(readModels, ctx.state.caller, READ, projectId);
    ctx.body = { monitors: (await listMonitors(readModels, projectId)).map(monitorBody) };
  });

  router.post('/monitors', async (ctx) => {
    await gate(readModels, ctx.state.caller, { scope: 'manage_monitors' }, null);
    const body = decode(CreateMonitorBody, ctx.request.body);
    const projectId = targetProject(ctx.state, body.project_id);
    await gate(readModels, ctx.state.caller, CREATE, projectId);
    const config = configFromCreate(body);
    await assertNotificationTargets(readModels, projectId, config.notification_group_ids, config.notification_channel_ids);
    await assertEscalationPolicy(readModels, projectId, config.escalation_policy_id);
    const { monitorId, position } = await createMonitor(commands, { project_id: projectId, config, slugGiven: body.slug !== undefined }, actorOf(ctx.state));
    await settled(deps, position, ctx.state);
    ctx.status = 201;
    ctx.body = { message: 'Monitor created', monitor: await fresh(monitorId) };
  });

  router.get('/monitors/:monitorId', async (ctx) => {
    const monitor = await gatedMonitor(readModels, ctx.state, ctx.params['monitorId'], READ);
    const { as_of: asOf } = decode(AsOfQuery, queryFields(ctx.query, AsOfQuery), 'query');
    if (asOf === undefined) {
      ctx.body = { monitor: monitorBody(monitor) };
      return;
    }
    // As it stood then: the monitor's own streams replayed up to that moment, not today's read model.
    const then = await asOfReader.monitor(monitor.id, asOf);
    if (!then) throw new HttpError(404, `monitor did not exist at ${asOf}`);
    ctx.body = { monitor: monitorBody(then), as_of: asOf };
  });

  router.patch('/monitors/:monitorId', async (ctx) => {
    const monitor = await gatedMonitor(readModels, ctx.state, ctx.params['monitorId'], MANAGE);
    const body = decode(UpdateMonitorBody, ctx.request.body);
    const patch = patchFromUpdate(body, monitor.type);
    await assertNotificationTargets(readModels, monitor.project_id, patch.notification_group_ids ?? [], patch.notification_channel_ids ?? []);
    await assertEscalationPolicy(readModels, monitor.project_id, patch.escalation_policy_id);
    const status = body.status === 'PAUSED' || body.status === 'UP' ? body.status : null;
    const by = status === 'UP' ? await userActor(readModels, ctx.state) : null;
    const outcome = await changeMonitor(commands, monitor.id, { patch, status, by }, actorOf(ctx.state));
    await settled(deps, outcome.position, ctx.state);
    ctx.body = { monitor: await fresh(monitor.id) };
  });

  router.delete('/monitors/:monitorId', async (ctx) => {
    const monitor = await gatedMonitor(readModels, ctx.state, ctx.params['monitorId'], MANAGE);
    // Deleting it would silently make its dependents page during its outages: that is the
    // caller's choice to make, by taking it out of their depends_on first.
    const dependents = await dependentsOf(readModels, monitor);
    if (dependents.length > 0) {
      throw new HttpError(409, `monitor is a dependency of ${dependents.map((d) => `"${d.name}" (${d.id})`).join(', ')}: remove it from their depends_on first`);
    }
    const position = await deleteMonitor(deletion(deps), monitor.id, await userActor(readModels, ctx.state), actorOf(ctx.state));
    await settled(deps, position, ctx.state);
    ctx.status = 204;
  });

  for (const [action, run] of [['pause', pauseMonitor], ['resume', resumeMonitor]] as const) {
    router.post(`/monitors/:monitorId/${action}`, async (ctx) => {
      const monitor = await gatedMonitor(readModels, ctx.state, ctx.params['monitorId'], MANAGE);
      const outcome = await run(commands, monitor.id, actorOf(ctx.state));
      await settled(deps, outcome.position, ctx.state);
      ctx.body = { monitor: await fresh(monitor.id) };
    });
  }

  router.get('/monitors/:monitorId/incidents', async (ctx) => {
    const monitor = await gatedMonitor(readModels, ctx.state, ctx.params['monitorId'], READ);
    const page = pageOf(ctx.query, 200);
    const filter: Filter = {
      monitor_id: monitor.id,
      ...listFilter(ctx.query['status'], 'status', INCIDENT_STATUSES),
      ...listFilter(ctx.query['event'], 'event', INCIDENT_KINDS),
    };
    const { docs, total } = await pagedFind<IncidentDocument>(readModels, 'incidents', filter, [['started_at', -1]], page);
    ctx.body = envelope(docs.map(incidentBody), page, total);
  });

  router.get('/monitors/:monitorId/pings', async (ctx) => {
    const monitor = await gatedMonitor(readModels, ctx.state, ctx.params['monitorId'], READ);
    const page = pageOf(ctx.query, 100);
    const query = decode(
      PingHistoryQuery,
      queryFields(ctx.query, PingHistoryQuery),
      'query',
    );
    const created = { ...(query.from_date ? { $gte: query.from_date } : {}), ...(query.to_date ? { $lte: query.to_date } : {}) };
    const { pings, total } = await pingPage(
      commands.events,
      monitor.id,
      {
        event: listFilter(ctx.query['event'], 'event', PING_KINDS)['event'],
        run_id: query.run_id,
        exit_code: query.exit_code,
        duration_assertion: query.duration_assertion,
        created_at: Object.keys(created).length > 0 ? created : undefined,
      },
      page,
    );
    ctx.body = envelope(pings.map((ping) => pingBody(ping)), page, total);
  });

  router.get('/monitors/:monitorId/pings/:pingId', async (ctx) => {
    const monitor = await gatedMonitor(readModels, ctx.state, ctx.params['monitorId'], READ);
    const ping = await getPing(commands.events, monitor.id, pathId(ctx.params['pingId'], 'ping'));
    if (!ping) throw new HttpError(404, 'ping not found');
    ctx.body = { ping: { ...pingBody(ping, { fullPayload: true }), truncated: ping.payload_truncated } };
  });

  router.get('/monitors/:monitorId/schedule', async (ctx) => {
    const monitor = await gatedMonitor(readModels, ctx.state, ctx.params['monitorId'], READ);
    const next = shownNextExpected(monitor);
    ctx.body = {
      type: monitor.type,
      schedule: monitor.schedule,
      timezone: monitor.timezone,
      grace_period_seconds: monitor.grace_period_seconds,
      early_checkin_window_seconds: monitor.type === 'JOB_CRON' ? EARLY_CHECKIN_MS / 1000 : 0,
      next_expected_at: next,
      upcoming: upcomingSlots(monitor.type, monitor.schedule, monitor.timezone, next, 5),
    };
  });

  router.get('/monitors/:monitorId/warnings', async (ctx) => {
    const monitor = await gatedMonitor(readModels, ctx.state, ctx.params['monitorId'], READ);
    const now = commands.clock();
    const from = new Date(now.getTime() - WARNING_WINDOW_DAYS * 86_400_000).toISOString();
    const pings = await recentPings(commands.events, monitor.id, from, WARNING_MAX_PINGS);
    ctx.body = {
      warnings: monitorWarnings(monitor, pings, now.toISOString()),
      analyzed_period: { from, to: now.toISOString(), total_pings: pings.length },
    };
  });
}
