import type { Filter, ReadModelStore } from '../readstore/read-model-store.js';
import type { IncidentDocument } from '../../projections/incidents.js';
import type { DeletedMonitorDocument } from '../../projections/deleted-monitors.js';
import type { MonitorDocument } from '../../projections/monitors.js';
import type { MonitorDependenciesDocument } from '../../projections/monitor-dependencies.js';
import type { ProjectDocument } from '../../projections/projects.js';

export async function getMonitor(readModels: ReadModelStore, monitorId: string): Promise<MonitorDocument | null> {
  return (await readModels.get<MonitorDocument>('monitors', monitorId))?.doc ?? null;
}

export async function listMonitors(readModels: ReadModelStore, projectId: string): Promise<MonitorDocument[]> {
  return (await readModels.find<MonitorDocument>('monitors', { project_id: projectId }, { sort: [['created_at', 1]] })).map((s) => s.doc);
}

/** The monitors of its project that depend on `monitor`, by name. */
export async function dependentsOf(readModels: ReadModelStore, monitor: { id: string; project_id: string }): Promise<MonitorDocument[]> {
  const edges = (await readModels.get<MonitorDependenciesDocument>('monitor_dependencies', monitor.project_id))?.doc.edges ?? {};
  const ids = Object.keys(edges).filter((id) => edges[id]!.includes(monitor.id));
  return byName(await monitorsOf(readModels, ids));
}

/** The monitors with these ids that exist, in the order given. */
export async function monitorsOf(readModels: ReadModelStore, ids: readonly string[]): Promise<MonitorDocument[]> {
  const found = await Promise.all(ids.map((id) => getMonitor(readModels, id)));
  return found.filter((doc): doc is MonitorDocument => doc !== null);
}

const byName = (docs: MonitorDocument[]) => docs.sort((a, b) => a.name.localeCompare(b.name));

/** The monitor a slug ping names: the project by its ping key, then the slug within it. */
export async function findMonitorBySlug(readModels: ReadModelStore, pingKey: string, slug: string): Promise<MonitorDocument | null> {
  return (await findSlugTarget(readModels, pingKey, slug)).monitor;
}

/** The project of a ping key and its monitor of that slug, each null when there is none. */
export async function findSlugTarget(readModels: ReadModelStore, pingKey: string, slug: string): Promise<{ project: ProjectDocument | null; monitor: MonitorDocument | null }> {
  const [project] = await readModels.find<ProjectDocument>('projects', { ping_key: pingKey }, { limit: 1 });
  if (!project) return { project: null, monitor: null };
  const [monitor] = await readModels.find<MonitorDocument>('monitors', { project_id: project.doc.id, slug }, { limit: 1 });
  return { project: project.doc, monitor: monitor?.doc ?? null };
}

export async function pagedFind<D>(readModels: ReadModelStore, collection: string, filter: Filter, sort: [string, 1 | -1][], page: { page: number; limit: number }) {
  const [found, total] = await Promise.all([
    readModels.find<D>(collection, filter, { sort, skip: (page.page - 1) * page.limit, limit: page.limit }),
    readModels.count(collection, filter),
  ]);
  return { docs: found.map((s) => s.doc), total };
}

export async function getIncident(readModels: ReadModelStore, incidentId: string): Promise<IncidentDocument | null> {
  return (await readModels.get<IncidentDocument>('incidents', incidentId))?.doc ?? null;
}

/** A monitor deleted from this project, as the project recorded it; null if none was. */
export async function getDeletedMonitor(readModels: ReadModelStore, projectId: string, monitorId: string): Promise<DeletedMonitorDocument | null> {
  const found = (await readModels.get<DeletedMonitorDocument>('deleted_monitors', monitorId))?.doc;
  return found?.project_id === projectId ? found : null;
}

/**
 * The project's monitors deleted since `asOf` that existed then, oldest first; one whose creation
 * was not recorded is taken to have existed then.
 */
export async function monitorsDeletedSince(readModels: ReadModelStore, projectId: string, asOf: string): Promise<DeletedMonitorDocument[]> {
  const found = await readModels.find<DeletedMonitorDocument>('deleted_monitors', { project_id: projectId, removed_from: { $gt: asOf } }, { sort: [['removed_from', 1]] });
  return found.map((s) => s.doc).filter((m) => m.created_from === null || m.created_from <= asOf);
}
