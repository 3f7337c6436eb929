import type { MaintenanceWindowDocument } from '../../projections/maintenance-windows.js';
import { type ActiveWindow, type MaintenanceWindow, activeWindowFor, isOver } from '../domain/maintenance/window.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';

export async function getMaintenanceWindow(readModels: ReadModelStore, windowId: string): Promise<MaintenanceWindowDocument | null> {
  return (await readModels.get<MaintenanceWindowDocument>('maintenance_windows', windowId))?.doc ?? null;
}

/**
 * A project's windows, oldest scheduled first; those scheduled at the same instant (a deploy
 * script's several windows) by when they start, then by id, so that a list never reorders itself.
 */
export async function listMaintenanceWindows(readModels: ReadModelStore, projectId: string): Promise<MaintenanceWindowDocument[]> {
  const found = await readModels.find<MaintenanceWindowDocument>('maintenance_windows', { project_id: projectId }, { sort: [['scheduled_at', 1]] });
  const key = (w: MaintenanceWindowDocument) => [w.scheduled_at, w.starts_at ?? '', w.id];
  return found.map((s) => s.doc).sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    for (let i = 0; i < x.length; i += 1) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
    return 0;
  });
}

/** The document as the domain reads a window (a listed one is never cancelled). */
export function windowOf(doc: MaintenanceWindowDocument): MaintenanceWindow {
  const { id, project_id, name, monitor_ids, starts_at, ends_at, rrule, timezone, duration_seconds, ended_at } = doc;
  return { window_id: id, project_id, name, monitor_ids, starts_at, ends_at, rrule, timezone, duration_seconds, ended_at, cancelled: false };
}

/** The project's windows that are not over at `now`: what the console and status pages show. */
export async function currentMaintenanceWindows(readModels: ReadModelStore, projectId: string, now: string): Promise<MaintenanceWindow[]> {
  return (await listMaintenanceWindows(readModels, projectId)).map(windowOf).filter((w) => !isOver(w, now));
}

/** Which of `monitorIds` a window covers at `now`, and which. */
export async function maintenanceOf(readModels: ReadModelStore, projectId: string, now: string): Promise<(monitorId: string) => ActiveWindow | null> {
  const windows = await currentMaintenanceWindows(readModels, projectId, now);
  return (monitorId) => (windows.length === 0 ? null : activeWindowFor(windows, monitorId, now));
}
