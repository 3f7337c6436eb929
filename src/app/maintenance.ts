import {
  type MaintenanceWindowCommand,
  type MaintenanceWindowSettings,
  maintenanceDecider,
  maintenanceStream,
} from '../domain/maintenance/window.js';
import { type Actor, handleCommand } from './command-handler.js';
import { type CommandContext, nowIso } from './context.js';

/**
 * A project's maintenance windows, one stream per project. What a window held back is looked at
 * again by the timer when the window ends, changes or is ended early (see the deadlines read
 * model): the change is one event here, and the rest follows from it, after a crash too.
 */
async function run(context: CommandContext, projectId: string, command: MaintenanceWindowCommand, actor: Actor) {
  return handleCommand(context, maintenanceStream(projectId), maintenanceDecider, command, actor);
}

export async function scheduleMaintenanceWindow(
  context: CommandContext,
  input: { project_id: string; settings: MaintenanceWindowSettings; window_id?: string },
  actor: Actor,
): Promise<{ windowId: string; position: number | null }> {
  const windowId = input.window_id ?? context.newId();
  const outcome = await run(context, input.project_id, { type: 'ScheduleMaintenanceWindow', project_id: input.project_id, window_id: windowId, settings: input.settings, now: nowIso(context) }, actor);
  return { windowId, position: outcome.position };
}

export async function updateMaintenanceWindow(context: CommandContext, projectId: string, windowId: string, patch: Partial<MaintenanceWindowSettings>, actor: Actor): Promise<number | null> {
  return (await run(context, projectId, { type: 'UpdateMaintenanceWindow', window_id: windowId, patch, now: nowIso(context) }, actor)).position;
}

/** `ENDED`: ends it now, early; `CANCELLED`: withdraws it. What it held back opens at once if still failing. */
export async function endMaintenanceWindow(context: CommandContext, projectId: string, windowId: string, reason: 'ENDED' | 'CANCELLED', actor: Actor): Promise<number | null> {
  return (await run(context, projectId, { type: 'EndMaintenanceWindow', window_id: windowId, reason, now: nowIso(context) }, actor)).position;
}
