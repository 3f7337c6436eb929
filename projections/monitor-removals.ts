import type { Projection, Target } from '../src/projector/projection.js';
import { slotOf } from '../src/coordination/partitions.js';

/**
 * Monitor deletions under way: recorded (`MonitorDeleted`, then the workflow's own
 * `MonitorDeletionStarted`), not yet finished (`MonitorDeletionFinished`, after the project's
 * `ProjectMonitorStreamsDeleted`). What the monitor deleter resumes after a crash
 * (src/app/monitor-deleter.ts). The project's `ProjectMonitorRemoved`, recorded before the
 * monitor's streams go, keeps the document alive in a rebuild once `MonitorDeleted` has left the
 * log with them; all three make the same document. A deletion an older Vigil recorded has no
 * workflow stream: its project's two events make and end its document, as they always did.
 */
export interface MonitorRemovalDocument {
  /** The monitor's id. */
  id: string;
  project_id: string;
  /** The monitor's work slot: which notifier instance finishes the deletion. */
  slot: number;
}

export const monitorRemovalsProjection: Projection<MonitorRemovalDocument> = {
  name: 'monitor_removals',
  version: 1,
  collection: { name: 'monitor_removals', indexes: [{ fields: ['slot'] }] },
  handles: ['MonitorDeleted', 'ProjectMonitorRemoved', 'ProjectMonitorStreamsDeleted', 'MonitorDeletionStarted', 'MonitorDeletionFinished'],
  targets(event): Target {
    return { ids: 'monitor_id' in event.data ? [event.data.monitor_id] : [] };
  },
  apply(_doc, event) {
    switch (event.type) {
      case 'MonitorDeleted':
      case 'ProjectMonitorRemoved':
      case 'MonitorDeletionStarted':
        return { id: event.data.monitor_id, project_id: event.data.project_id, slot: slotOf(event.data.monitor_id) };
      default:
        return null;
    }
  },
};
