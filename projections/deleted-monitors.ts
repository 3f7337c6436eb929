import type { MonitorType } from '../src/domain/monitors/schedule.js';
import type { Projection, Target } from '../src/projector/projection.js';

/**
 * A monitor deleted from its project, as the project recorded it (`ProjectMonitorRemoved`), which
 * outlives the monitor's own streams: what a look at the project's past shows of it, beside the
 * incidents archived with it. Kept until its project goes.
 */
export interface DeletedMonitorDocument {
  [key: string]: unknown;
  /** The monitor's id. */
  id: string;
  project_id: string;
  /** Its name and slug when it was deleted. */
  name: string;
  slug: string;
  /** Null when recorded by a Vigil that did not say (version 1 of the event). */
  type: MonitorType | null;
  /** When the log recorded its creation, and its removal: the times an `as_of` compares with. Null: not recorded. */
  created_from: string | null;
  removed_from: string;
}

export const deletedMonitorsProjection: Projection<DeletedMonitorDocument> = {
  name: 'deleted_monitors',
  version: 1,
  collection: { name: 'deleted_monitors', indexes: [{ fields: ['project_id', 'removed_from'] }] },
  handles: ['ProjectMonitorRemoved', 'ProjectDeleted'],
  targets(event): Target {
    switch (event.type) {
      case 'ProjectMonitorRemoved':
        return { ids: [event.data.monitor_id] };
      case 'ProjectDeleted':
        return { where: { project_id: event.data.project_id } };
      default:
        return { ids: [] };
    }
  },
  apply(_doc, event) {
    if (event.type !== 'ProjectMonitorRemoved') return null;
    const d = event.data;
    return { id: d.monitor_id, project_id: d.project_id, name: d.name, slug: d.slug, type: d.monitor_type, created_from: d.monitor_created_at, removed_from: event.created };
  },
};
