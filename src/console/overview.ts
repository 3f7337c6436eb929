import type { MonitorDocument } from '../../projections/monitors.js';
import type { EventStore } from '../eventstore/event-store.js';
import { type RecentRuns, type Run, newestRuns } from '../queries/recent-runs.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';
import { type MonitorState, NO_FACTS, type StateFacts, monitorState, stateFacts } from '../queries/monitor-state.js';

/**
 * What the console shows as a monitor's status: the one state every screen tells
 * (src/queries/monitor-state.ts), in the console's words; `WAITING` is a monitor that has heard nothing yet.
 */
export type DisplayStatus = 'UP' | 'DEGRADED' | 'LATE' | 'DOWN' | 'MAINTENANCE' | 'PAUSED' | 'WAITING';
export const DISPLAY_STATUSES: readonly DisplayStatus[] = ['UP', 'DEGRADED', 'LATE', 'DOWN', 'MAINTENANCE', 'PAUSED', 'WAITING'];

const DISPLAYED: Record<MonitorState, DisplayStatus> = {
  up: 'UP', degraded: 'DEGRADED', late: 'LATE', down: 'DOWN', maintenance: 'MAINTENANCE', paused: 'PAUSED', new: 'WAITING',
};

export interface MonitorOverview {
  monitor: MonitorDocument;
  status: DisplayStatus;
  /** The newest ping, or for an uptime monitor the newest check. */
  lastSeenAt: string | null;
  /** Oldest first. */
  runs: Run[];
  openIncidents: number;
}

export function displayStatus(monitor: MonitorDocument, facts: StateFacts, now: Date): DisplayStatus {
  return DISPLAYED[monitorState(monitor, facts, now)];
}

/** The status of each of `monitors`, by id, as displayStatus tells it. */
export async function displayStatuses(readModels: ReadModelStore, monitors: readonly MonitorDocument[], now: Date): Promise<Map<string, DisplayStatus>> {
  const facts = await stateFacts(readModels, monitors, now);
  return new Map(monitors.map((m) => [m.id, displayStatus(m, facts.get(m.id) ?? NO_FACTS, now)]));
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

/**
 * Every monitor's row: a few read-model queries for the project (its open incidents, its
 * maintenance windows), however many monitors it has, and each monitor's runs from the log, which
 * `recentRuns` reads only as far as it has not already.
 */
export async function monitorOverviews(readModels: ReadModelStore, recentRuns: RecentRuns, monitors: readonly MonitorDocument[], now: Date): Promise<MonitorOverview[]> {
  const [facts, runs] = await Promise.all([stateFacts(readModels, monitors, now), recentRuns.of(monitors)]);
  return monitors.map((monitor) => {
    const known = facts.get(monitor.id) ?? NO_FACTS;
    return { monitor, status: displayStatus(monitor, known, now), lastSeenAt: monitor.last_seen_at, runs: runs.get(monitor.id) ?? [], openIncidents: known.openIncidents };
  });
}
