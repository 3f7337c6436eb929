import type { Projection, Target } from '../src/projector/projection.js';
import { slotOf } from '../src/coordination/partitions.js';

/**
 * Monitor deletions under way: recorded (`MonitorDeleted`), not yet finished (the project's
 * `ProjectMonitorStreamsDeleted`). What the notifier resumes after a crash (src/app/monitor-deletion.ts).
 * The project's `ProjectMonitorRemoved`, recorded before the monitor's streams go, keeps the
 * document alive in a rebuild once `MonitorDeleted` has left the log with them; both make the same document.
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
  handles: ['MonitorDeleted', 'ProjectMonitorRemoved', 'ProjectMonitorStreamsDeleted'],
  targets(event): Target {
    return { ids: 'monitor_id' in event.data ? [event.data.monitor_id] : [] };
  },
  apply(_doc, event) {
    switch (event.type) {
      case 'MonitorDeleted':
      case 'ProjectMonitorRemoved':
        return { id: event.data.monitor_id, project_id: event.data.project_id, slot: slotOf(event.data.monitor_id) };
      default:
        return null;
    }
  },
};
