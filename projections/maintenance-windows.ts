import type { Projection } from '../src/projector/projection.js';

/** A project's maintenance window as scheduled; whether it covers anything now is worked out when read. */
export interface MaintenanceWindowDocument {
  [key: string]: unknown;
  id: string;
  project_id: string;
  name: string;
  monitor_ids: string[] | null;
  starts_at: string | null;
  ends_at: string | null;
  rrule: string | null;
  timezone: string | null;
  duration_seconds: number | null;
  /** When it was ended early; null while it runs its course. */
  ended_at: string | null;
  scheduled_at: string;
  updated_at: string;
}

export const maintenanceWindowsProjection: Projection<MaintenanceWindowDocument> = {
  name: 'maintenance_windows',
  version: 1,
  collection: { name: 'maintenance_windows', indexes: [{ fields: ['project_id', 'scheduled_at'] }] },
  handles: ['MaintenanceWindowScheduled', 'MaintenanceWindowUpdated', 'MaintenanceWindowEnded', 'ProjectDeleted'],
  targets(event) {
    switch (event.type) {
      case 'MaintenanceWindowScheduled':
      case 'MaintenanceWindowUpdated':
      case 'MaintenanceWindowEnded':
        return { ids: [event.data.window_id] };
      case 'ProjectDeleted':
        return { where: { project_id: event.data.project_id } };
      default:
        return { ids: [] };
    }
  },
  apply(doc, event) {
    switch (event.type) {
      case 'MaintenanceWindowScheduled': {
        const { window_id, project_id, name, monitor_ids, starts_at, ends_at, rrule, timezone, duration_seconds, scheduled_at } = event.data;
        return { id: window_id, project_id, name, monitor_ids, starts_at, ends_at, rrule, timezone, duration_seconds, ended_at: null, scheduled_at, updated_at: scheduled_at };
      }
      case 'MaintenanceWindowUpdated': {
        const { name, monitor_ids, starts_at, ends_at, rrule, timezone, duration_seconds, updated_at } = event.data;
        return doc && { ...doc, name, monitor_ids, starts_at, ends_at, rrule, timezone, duration_seconds, updated_at };
      }
      case 'MaintenanceWindowEnded':
        // Cancelled: withdrawn, off the list (the log keeps it). Ended early: listed, over.
        if (event.data.reason === 'CANCELLED') return null;
        return doc && { ...doc, ended_at: doc.ended_at ?? event.data.ended_at, updated_at: event.data.ended_at };
      case 'ProjectDeleted':
        return null;
      default:
        return doc;
    }
  },
};
