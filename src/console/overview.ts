import type { AuditEventDocument } from '../../projections/audit-events.js';
import type { IncidentDocument } from '../../projections/incidents.js';
import type { MonitorDocument } from '../../projections/monitors.js';
import type { EventStore } from '../eventstore/event-store.js';
import { type PingRecord, keptPings } from '../queries/pings.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';
import { isUptimeType } from '../domain/monitors/schedule.js';

/** What the console shows as a monitor's status: the read model's, told apart from a monitor that has heard nothing yet. */
export type DisplayStatus = 'UP' | 'DOWN' | 'PAUSED' | 'WAITING';
export const DISPLAY_STATUSES: readonly DisplayStatus[] = ['UP', 'DOWN', 'PAUSED', 'WAITING'];

/** One completed run (a SUCCESS or FAILURE ping) or one uptime check. */
export interface Run {
  at: string;
  ok: boolean;
  durationMs: number | null;
}

export interface MonitorOverview {
  monitor: MonitorDocument;
  status: DisplayStatus;
  /** The newest ping, or for an uptime monitor the newest check. */
  lastSeenAt: string | null;
  /** Oldest first. */
  runs: Run[];
  openIncidents: number;
}

export const RUNS_SHOWN = 30;

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

/** A dashboard row's activity, as the monitors read model keeps it (see `recent_runs`). */
export function rowActivity(monitor: MonitorDocument): Activity {
  return { runs: monitor.recent_runs.map((r) => ({ at: r.at, ok: r.ok, durationMs: r.duration_ms })), lastSeenAt: monitor.last_seen_at };
}

/** Every monitor's row: two queries for the project, however many monitors it has. */
export async function monitorOverviews(readModels: ReadModelStore, projectId: string, monitors: readonly MonitorDocument[]): Promise<MonitorOverview[]> {
  const counts = await openIncidentCounts(readModels, projectId);
  return monitors.map((monitor) => {
    const { runs, lastSeenAt } = rowActivity(monitor);
    return { monitor, status: displayStatus(monitor), lastSeenAt, runs, openIncidents: counts.get(monitor.id) ?? 0 };
  });
}
