import type { Router } from '@koa/router';
import type { MaintenanceWindowDocument } from '../../../projections/maintenance-windows.js';
import type { MonitorDocument } from '../../../projections/monitors.js';
import { endMaintenanceWindow, scheduleMaintenanceWindow, updateMaintenanceWindow } from '../../app/maintenance.js';
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
import { MANAGE } from '../../app/monitor-rules.js';
import { settingsOf, patchOf } from '../../app/maintenance-settings.js';

const READ = { scope: 'read' } as const;

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
