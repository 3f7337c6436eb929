import { Refusal } from '../../app/refusal.js';
import * as t from 'io-ts';
import type { Context } from 'koa';
import { actorOf } from '../../web/actor.js';
import { CreateMaintenanceWindowBody } from '../../web/codecs/maintenance.js';
import { settled } from '../../web/dependencies.js';
import { HttpError, badRequest, errorResponse } from '../../web/errors.js';
import { gate } from '../../app/gate.js';
import { maintenanceWindowBody } from '../../web/representations/maintenance.js';
import { settingsOf } from '../../app/maintenance-settings.js';
import { MANAGE as MANAGE_MONITORS } from '../../app/monitor-rules.js';
import { decode, pathId } from '../../web/validation.js';
import { endMaintenanceWindow, scheduleMaintenanceWindow } from '../../app/maintenance.js';
import { DomainError } from '../../domain/errors.js';
import { parseInterval } from '../../domain/monitors/schedule.js';
import { getMaintenanceWindow, listMaintenanceWindows, maintenanceOf } from '../../queries/maintenance.js';
import type { ReadModelStore } from '../../readstore/read-model-store.js';
import type { MonitorDocument } from '../../../projections/monitors.js';
import type { AuditEventDocument } from '../../../projections/audit-events.js';
import { listMonitors } from '../../queries/monitors.js';
import { getProject } from '../../queries/projects.js';
import { type MaintenanceDraft, type MonitorMaintenance, maintenancePage } from '../pages/maintenance.js';
import type { ConsoleKit, ConsoleRoutes, ConsoleState } from '../kit.js';
import { doneNotice } from '../done-notice.js';
import { render } from '../signed-in.js';

const READ = { scope: 'read' } as const;

const DONE = {
  scheduled: 'Maintenance window scheduled.',
  ended: 'Maintenance window ended. What it held back that is still failing opens now.',
  cancelled: 'Maintenance window cancelled. What it held back that is still failing opens now.',
} as const;

/** The schedule form as the browser sends it (`monitor` once per ticked box). */
const MaintenanceForm = t.partial({
  name: t.string,
  kind: t.string,
  starts_at: t.string,
  lasts: t.string,
  rrule: t.string,
  timezone: t.string,
  monitor: t.union([t.string, t.array(t.string)]),
});

function draftOf(form: t.TypeOf<typeof MaintenanceForm>): MaintenanceDraft {
  const chosen = form.monitor === undefined ? [] : typeof form.monitor === 'string' ? [form.monitor] : form.monitor;
  return {
    name: form.name ?? '',
    kind: form.kind === 'recurring' ? 'recurring' : 'one_off',
    starts_at: form.starts_at?.trim() ?? '',
    lasts: form.lasts?.trim() ?? '',
    rrule: form.rrule?.trim() ?? '',
    timezone: form.timezone?.trim() || 'UTC',
    monitors: new Set(chosen),
  };
}

/** The REST API's body for the form, so both refuse the same things with the same words. */
function bodyOf(draft: MaintenanceDraft): Record<string, unknown> {
  const lasts = parseInterval(draft.lasts);
  if (lasts === null) throw badRequest(`lasts: how long, such as 30m, 2h or 1d, not "${draft.lasts}"`);
  const monitors = draft.monitors.size > 0 ? { monitor_ids: [...draft.monitors] } : {};
  if (draft.kind === 'recurring') return { name: draft.name, rrule: draft.rrule, timezone: draft.timezone, duration_seconds: lasts / 1000, ...monitors };
  // A datetime-local field holds no zone: the form says it is UTC.
  const startsAt = draft.starts_at === '' ? {} : { starts_at: /Z$|[+-]\d\d:\d\d$/.test(draft.starts_at) ? draft.starts_at : `${draft.starts_at}Z` };
  return { name: draft.name, ...startsAt, duration_seconds: lasts / 1000, ...monitors };
}

/** The project's "Maintenance" page (`/projects/<id>/maintenance`): its windows, schedule one, end one now. */
export const maintenanceRoutes: ConsoleRoutes = (kit: ConsoleKit) => {
  const { router, deps, signedIn, may, clock } = kit;
  const { readModels, commands } = deps;

  async function show(ctx: Context & { state: ConsoleState }, projectId: string, refused: { error: string; draft: MaintenanceDraft; status: number } | null) {
    ctx.set('Cache-Control', 'no-store');
    const project = await getProject(readModels, projectId);
    if (!project) throw new HttpError(404, 'project not found');
    const now = clock().toISOString();
    const [monitors, windows, canManage] = await Promise.all([
      listMonitors(readModels, projectId).then((all) => all.sort((a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) || a.id.localeCompare(b.id))),
      listMaintenanceWindows(readModels, projectId),
      may(ctx.state.caller, MANAGE_MONITORS, projectId),
    ]);
    render(ctx, maintenancePage({
      viewer: ctx.state.viewer, notice: refused ? null : doneNotice(ctx, DONE), project, monitors, canManage, refused,
      windows: windows.map((doc) => ({ doc, shown: maintenanceWindowBody(doc, now) })),
    }), refused?.status ?? 200);
  }

  const back = (ctx: Context, projectId: string, done: keyof typeof DONE) => {
    ctx.status = 303;
    ctx.redirect(`/projects/${projectId}/maintenance?done=${done}`);
  };

  router.get('/projects/:projectId/maintenance', signedIn, async (ctx) => {
    const projectId = pathId(ctx.params['projectId'], 'project');
    await gate(readModels, ctx.state.caller, READ, projectId);
    await show(ctx, projectId, null);
  });

  router.post('/projects/:projectId/maintenance', signedIn, async (ctx) => {
    const projectId = pathId(ctx.params['projectId'], 'project');
    await gate(readModels, ctx.state.caller, MANAGE_MONITORS, projectId);
    const draft = draftOf(decode(MaintenanceForm, ctx.request.body, 'form'));
    try {
      const body = decode(CreateMaintenanceWindowBody, bodyOf(draft));
      const monitors = await listMonitors(readModels, projectId);
      const stranger = (body.monitor_ids ?? []).find((id) => !monitors.some((m) => m.id === id));
      if (stranger !== undefined) throw badRequest(`monitor_ids: monitor ${stranger} does not exist in this project`);
      const { position } = await scheduleMaintenanceWindow(commands, { project_id: projectId, settings: settingsOf(body, clock().toISOString()) }, actorOf(ctx.state));
      await settled(deps, position);
      back(ctx, projectId, 'scheduled');
    } catch (error) {
      const refusal = error instanceof Refusal || error instanceof DomainError ? errorResponse(error) : null;
      if (!refusal || refusal.status !== 400) throw error;
      const message = refusal.body.error;
      await show(ctx, projectId, { error: message.charAt(0).toUpperCase() + message.slice(1), draft, status: 400 });
    }
  });

  for (const [action, reason, done] of [['end', 'ENDED', 'ended'], ['cancel', 'CANCELLED', 'cancelled']] as const) {
    router.post(`/projects/:projectId/maintenance/:windowId/${action}`, signedIn, async (ctx) => {
      const projectId = pathId(ctx.params['projectId'], 'project');
      await gate(readModels, ctx.state.caller, MANAGE_MONITORS, projectId);
      const window = await getMaintenanceWindow(readModels, pathId(ctx.params['windowId'], 'maintenance window'));
      if (!window || window.project_id !== projectId) throw new HttpError(404, 'maintenance window not found');
      await settled(deps, await endMaintenanceWindow(commands, projectId, window.id, reason, actorOf(ctx.state)));
      back(ctx, projectId, done);
    });
  }
};

const HELD_SHOWN = 5;

/** For the monitor page: the window covering the monitor now, and the latest problems windows held back. */
export async function monitorMaintenance(readModels: ReadModelStore, monitor: MonitorDocument, now: string): Promise<MonitorMaintenance> {
  const [covering, held] = await Promise.all([
    maintenanceOf(readModels, monitor.project_id, now),
    readModels.find<AuditEventDocument>('audit_events', { monitor_id: monitor.id, type: 'IncidentSuppressed' }, { sort: [['position', -1]], limit: HELD_SHOWN }),
  ]);
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return {
    current: covering(monitor.id),
    timezone: monitor.timezone,
    held: held.map(({ doc }) => ({ at: text(doc.data['at']), event: text(doc.data['event']), window_name: text(doc.data['window_name']), window_ends_at: text(doc.data['window_ends_at']), cause: text(doc.data['cause']) })),
  };
}
