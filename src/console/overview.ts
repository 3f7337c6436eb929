import type { AuditEventDocument } from '../../projections/audit-events.js';
import type { IncidentDocument } from '../../projections/incidents.js';
import type { MonitorDocument } from '../../projections/monitors.js';
import type { EventStore } from '../eventstore/event-store.js';
import { type PingRecord, keptPings } from '../queries/pings.js';
import { RUNS_SHOWN, type RecentRuns, type Run } from '../queries/recent-runs.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';
import { isUptimeType } from '../domain/monitors/schedule.js';

/** What the console shows as a monitor's status: the read model's, told apart from a monitor that has heard nothing yet. */
export type DisplayStatus = 'UP' | 'DOWN' | 'PAUSED' | 'WAITING';
export const DISPLAY_STATUSES: readonly DisplayStatus[] = ['UP', 'DOWN', 'PAUSED', 'WAITING'];

export type { Run } from '../queries/recent-runs.js';

export interface MonitorOverview {
  monitor: MonitorDocument;
  status: DisplayStatus;
  /** The newest ping, or for an uptime monitor the newest check. */
  lastSeenAt: string | null;
  /** Oldest first. */
  runs: Run[];
  openIncidents: number;
}

export { RUNS_SHOWN };

export function displayStatus(monitor: MonitorDocument): DisplayStatus {
  if (monitor.status === 'PAUSED' || monitor.status === 'DOWN') return monitor.status;
  return monitor.is_new ? 'WAITING' : 'UP';
}

/** The newest `limit` uptime checks of a monitor, newest first, from its history. */
export async function recentChecks(readModels: ReadModelStore, monitorId: string, limit: number): Promise<AuditEventDocument[]> {
  return (await readModels.find<AuditEventDocument>('audit_events', { monitor_id: monitorId, type: 'CheckCompleted' }, { sort: [['position', -1]], limit })).map((s) => s.doc);
}

export function runOfCheck(check: AuditEventDocument): Run {
  const ms = check.data['response_time_ms'];
  return { at: String(check.data['checked_at'] ?? check.time), ok: check.data['is_up'] === true, durationMs: typeof ms === 'number' ? ms : null };
}

export interface Activity {
  /** Oldest first. */
  runs: Run[];
  lastSeenAt: string | null;
}

function runOfPing(ping: PingRecord): Run {
  return { at: ping.created_at, ok: ping.event === 'SUCCESS', durationMs: ping.duration_ms };
}

/** The last runs (oldest first) and when the monitor last heard anything. */
export async function monitorActivity(readModels: ReadModelStore, events: EventStore, monitor: MonitorDocument, limit = RUNS_SHOWN): Promise<Activity> {
  if (isUptimeType(monitor.type)) {
    const checks = await recentChecks(readModels, monitor.id, limit);
    return { runs: checks.map(runOfCheck).reverse(), lastSeenAt: checks[0] ? runOfCheck(checks[0]).at : null };
  }
  const pings = await keptPings(events, monitor.id);
  const completions = pings.filter((ping) => ping.event === 'SUCCESS' || ping.event === 'FAILURE').slice(0, limit);
  return { runs: completions.map(runOfPing).reverse(), lastSeenAt: pings[0] ? runOfPing(pings[0]).at : null };
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
