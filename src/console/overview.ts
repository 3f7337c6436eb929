import type { IncidentDocument } from '../../projections/incidents.js';
import type { MonitorDocument } from '../../projections/monitors.js';
import type { EventStore } from '../eventstore/event-store.js';
import { type RecentRuns, type Run, newestRuns } from '../queries/recent-runs.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';

/** What the console shows as a monitor's status: the read model's, told apart from a monitor that has heard nothing yet. */
export type DisplayStatus = 'UP' | 'DOWN' | 'PAUSED' | 'WAITING';
export const DISPLAY_STATUSES: readonly DisplayStatus[] = ['UP', 'DOWN', 'PAUSED', 'WAITING'];

export interface MonitorOverview {
  monitor: MonitorDocument;
  status: DisplayStatus;
  /** The newest ping, or for an uptime monitor the newest check. */
  lastSeenAt: string | null;
  /** Oldest first. */
  runs: Run[];
  openIncidents: number;
}

export function displayStatus(monitor: MonitorDocument): DisplayStatus {
  if (monitor.status === 'PAUSED' || monitor.status === 'DOWN') return monitor.status;
  return monitor.is_new ? 'WAITING' : 'UP';
}

export interface Activity {
  /** Oldest first. */
  runs: Run[];
  lastSeenAt: string | null;
}

/** The last runs (oldest first) and when the monitor last heard anything (a ping of any kind, or a check). */
export async function monitorActivity(events: EventStore, monitor: MonitorDocument, limit: number): Promise<Activity> {
  return { runs: await newestRuns(events, monitor, limit), lastSeenAt: monitor.last_seen_at };
}

export async function openIncidentCounts(readModels: ReadModelStore, projectId: string): Promise<Map<string, number>> {
  const open = await readModels.find<IncidentDocument>('incidents', { project_id: projectId, status: { $in: ['OPEN', 'ACKNOWLEDGED'] } });
  const counts = new Map<string, number>();
  for (const { doc } of open) counts.set(doc.monitor_id, (counts.get(doc.monitor_id) ?? 0) + 1);
  return counts;
}

/**
 * Every monitor's row: two read-model queries for the project, however many monitors it has, and
 * each monitor's runs from the log, which `recentRuns` reads only as far as it has not already.
 */
export async function monitorOverviews(readModels: ReadModelStore, recentRuns: RecentRuns, projectId: string, monitors: readonly MonitorDocument[]): Promise<MonitorOverview[]> {
  const [counts, runs] = await Promise.all([openIncidentCounts(readModels, projectId), recentRuns.of(monitors)]);
  return monitors.map((monitor) => ({
    monitor, status: displayStatus(monitor), lastSeenAt: monitor.last_seen_at, runs: runs.get(monitor.id) ?? [], openIncidents: counts.get(monitor.id) ?? 0,
  }));
}
