import type { Router } from '@koa/router';
import type { MaintenanceWindowDocument } from '../../../projections/maintenance-windows.js';
import type { MonitorDocument } from '../../../projections/monitors.js';
import { endMaintenanceWindow, scheduleMaintenanceWindow, updateMaintenanceWindow } from '../../app/maintenance.js';
import type { MaintenanceWindowSettings } from '../../domain/maintenance/window.js';
import { getProject } from '../../queries/projects.js';
import { getMaintenanceWindow, listMaintenanceWindows } from '../../queries/maintenance.js';
import { actorOf } from '../../web/actor.js';
import { CreateMaintenanceWindowBody, UpdateMaintenanceWindowBody } from '../../web/codecs/maintenance.js';
import { type ApiDependencies, settled } from '../../web/dependencies.js';
import { HttpError, badRequest } from '../../web/errors.js';
import { gate } from '../../app/gate.js';
import { gatedDocument } from '../../web/monitor-access.js';
import { maintenanceWindowBody } from '../../web/representations/maintenance.js';
import type { VigilState } from '../../web/state.js';
import { decode, pathId } from '../../web/validation.js';
import { MANAGE } from './monitors.js';

const READ = { scope: 'read' } as const;

type Body = { name?: string; monitor_ids?: string[] | null; starts_at?: string; ends_at?: string; duration_seconds?: number; rrule?: string; timezone?: string };

/**
 * The settings a new window's body asks for. With `rrule`, a recurring window: each occurrence
 * lasts `duration_seconds`, in `timezone` (UTC unless given). Without, a one-off: from
 * `starts_at` (now unless given) to `ends_at`, or for `duration_seconds` ("start now for 30m").
 */
export function settingsOf(body: Body & { name: string }, now: string): MaintenanceWindowSettings {
  const base = { name: body.name, monitor_ids: body.monitor_ids ?? null };
  if (body.rrule !== undefined) {
    if (body.starts_at !== undefined || body.ends_at !== undefined) throw badRequest('starts_at: a recurring window (rrule) takes no starts_at or ends_at');
    if (body.duration_seconds === undefined) throw badRequest('duration_seconds: a recurring window needs how long each occurrence lasts');
    return { ...base, starts_at: null, ends_at: null, rrule: body.rrule, timezone: body.timezone ?? 'UTC', duration_seconds: body.duration_seconds };
  }
  if (body.timezone !== undefined) throw badRequest('timezone: only a recurring window (rrule) takes a timezone');
  const startsAt = body.starts_at ?? now;
  if (body.ends_at !== undefined && body.duration_seconds !== undefined) throw badRequest('ends_at: give ends_at or duration_seconds, not both');
  if (body.ends_at === undefined && body.duration_seconds === undefined) throw badRequest('ends_at: a one-off window needs ends_at or duration_seconds');
  const endsAt = body.ends_at ?? new Date(Date.parse(startsAt) + body.duration_seconds! * 1000).toISOString();
  return { ...base, starts_at: startsAt, ends_at: endsAt, rrule: null, timezone: null, duration_seconds: null };
}

/** A patch: the fields sent. `duration_seconds` on a one-off window moves its end to that long after its start. */
function patchOf(body: Body, current: MaintenanceWindowDocument): Partial<MaintenanceWindowSettings> {
  const patch: Partial<MaintenanceWindowSettings> = {};
  if (body.name !== undefined) patch.name = body.name;
  if (body.monitor_ids !== undefined) patch.monitor_ids = body.monitor_ids;
  if (body.starts_at !== undefined) patch.starts_at = body.starts_at;
  if (body.ends_at !== undefined) patch.ends_at = body.ends_at;
  if (body.rrule !== undefined) patch.rrule = body.rrule;
  if (body.timezone !== undefined) patch.timezone = body.timezone;
  if (body.duration_seconds !== undefined) {
    const oneOff = body.rrule === undefined && current.rrule === null;
    if (oneOff && body.ends_at !== undefined) throw badRequest('ends_at: give ends_at or duration_seconds, not both');
    if (oneOff) patch.ends_at = new Date(Date.parse(body.starts_at ?? current.starts_at!) + body.duration_seconds * 1000).toISOString();
    else patch.duration_seconds = body.duration_seconds;
  }
  return patch;
}

/**
 * Maintenance windows: while one covers a monitor, what would open an incident is recorded as
 * suppressed and nothing pages; what is still failing when it ends opens then. Scheduling,
 * changing and ending them needs `manage_monitors` with MANAGER, as pausing a monitor does;
 * reading them needs `read`.
 */
export function maintenanceRoutes(router: Router<VigilState>, deps: ApiDependencies): void {
  const { readModels, commands } = deps;
  const now = () => commands.clock().toISOString();

  const fresh = async (windowId: string) => {
    const window = await getMaintenanceWindow(readModels, windowId);
    if (!window) throw new HttpError(404, 'maintenance window not found');
    return maintenanceWindowBody(window, now());
  };
  const gatedWindow = (state: VigilState, rawId: string | undefined, requirement: typeof READ | typeof MANAGE) =>
    gatedDocument<MaintenanceWindowDocument>(readModels, state, 'maintenance_windows', rawId, 'maintenance window', requirement);
  /** A window covers monitors of its own project only; each other one is named by its index. */
  const monitorsInProject = async (projectId: string, monitorIds: readonly string[] | null | undefined) => {
    if (!monitorIds) return;
    const found = await readModels.find<MonitorDocument>('monitors', { $id: { $in: [...monitorIds] } });
    const ours = new Set(found.filter((s) => s.doc.project_id === projectId).map((s) => s.doc.id));
    const stranger = monitorIds.findIndex((id) => !ours.has(id));
    if (stranger >= 0) throw badRequest(`monitor_ids[${stranger}]: monitor ${monitorIds[stranger]!} does not exist in this project`);
  };

  router.get('/projects/:projectId/maintenance-windows', async (ctx) => {
    const projectId = pathId(ctx.params['projectId'], 'project');
    await gate(readModels, ctx.state.caller, READ, projectId);
    const at = now();
    ctx.body = { maintenance_windows: (await listMaintenanceWindows(readModels, projectId)).map((w) => maintenanceWindowBody(w, at)) };
  });

  router.post('/projects/:projectId/maintenance-windows', async (ctx) => {
    const projectId = pathId(ctx.params['projectId'], 'project');
    await gate(readModels, ctx.state.caller, MANAGE, projectId);
    if (!(await getProject(readModels, projectId))) throw new HttpError(404, 'project not found');
    const body = decode(CreateMaintenanceWindowBody, ctx.request.body);
    await monitorsInProject(projectId, body.monitor_ids);
    const { windowId, position } = await scheduleMaintenanceWindow(commands, { project_id: projectId, settings: settingsOf(body, now()) }, actorOf(ctx.state));
    await settled(deps, position, ctx.state);
    ctx.status = 201;
    ctx.body = { maintenance_window: await fresh(windowId) };
  });

  router.get('/maintenance-windows/:windowId', async (ctx) => {
    const window = await gatedWindow(ctx.state, ctx.params['windowId'], READ);
    ctx.body = { maintenance_window: maintenanceWindowBody(window, now()) };
  });

  router.patch('/maintenance-windows/:windowId', async (ctx) => {
    const window = await gatedWindow(ctx.state, ctx.params['windowId'], MANAGE);
    const body = decode(UpdateMaintenanceWindowBody, ctx.request.body);
    await monitorsInProject(window.project_id, body.monitor_ids);
    await settled(deps, await updateMaintenanceWindow(commands, window.project_id, window.id, patchOf(body, window), actorOf(ctx.state)), ctx.state);
    ctx.body = { maintenance_window: await fresh(window.id) };
  });

  router.post('/maintenance-windows/:windowId/end', async (ctx) => {
    const window = await gatedWindow(ctx.state, ctx.params['windowId'], MANAGE);
    await settled(deps, await endMaintenanceWindow(commands, window.project_id, window.id, 'ENDED', actorOf(ctx.state)), ctx.state);
    ctx.body = { maintenance_window: await fresh(window.id) };
  });

  router.delete('/maintenance-windows/:windowId', async (ctx) => {
    const window = await gatedWindow(ctx.state, ctx.params['windowId'], MANAGE);
    await settled(deps, await endMaintenanceWindow(commands, window.project_id, window.id, 'CANCELLED', actorOf(ctx.state)), ctx.state);
    ctx.status = 204;
  });
}
