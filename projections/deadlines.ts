import { openRunsAfterPing } from '../src/domain/monitors/pings.js';
import { addSeconds, isUptimeType } from '../src/domain/monitors/schedule.js';
import type { Projection } from '../src/projector/projection.js';
import { slotOf } from '../src/coordination/partitions.js';

export interface DeadlineDocument {
  id: string;
  monitor_id: string;
  /** The monitor's work slot: which timer and checker instance handles it (see src/coordination). */
  slot: number;
  /** `checkin`: jobs report to Vigil; `check`: Vigil checks the monitor itself (the UPTIME_* types). */
  kind: 'checkin' | 'check';
  paused: boolean;
  /** A job that has not checked in yet: its slot deadlines are not counted (see awaitsFirstPing). */
  waiting: boolean;
  next_expected_at: string | null;
  grace_period_seconds: number;
  max_duration_seconds: number | null;
  /** STARTs not yet completed nor reported overdue, oldest first. */
  open_runs: { ping_id: string; started_at: string }[];
  /** Open, unacknowledged incidents and when they are paged again. */
  repages: Record<string, string>;
  project_id: string;
  /**
   * Problems a maintenance window held back, by incident kind: looked at again when the window
   * ends, or at once when it changes or is ended early (the window's event moves `due_at`).
   */
  suppressed: Record<string, { window_id: string; due_at: string }>;
  /** The timer's: the earliest of the slot deadline, an overrunning run and a re-page. */
  due_at: string | null;
  /** The checker's: when the next uptime check is due. */
  check_due_at: string | null;
}

/**
 * `doc` with its due times worked out again from the rest. Given the whole document (the due times
 * it had are replaced), so that the result is built from keys `doc` already has: V8 in Node 20
 * adds keys after a spread on a slow path, a few µs a document, and one is made for every ping.
 */
function withDue(doc: Omit<DeadlineDocument, 'due_at' | 'check_due_at'> & Partial<DeadlineDocument>): DeadlineDocument {
  const candidates: string[] = [];
  if (!doc.paused) {
    if (doc.kind === 'checkin' && !doc.waiting && doc.next_expected_at !== null) candidates.push(addSeconds(doc.next_expected_at, doc.grace_period_seconds));
    if (doc.max_duration_seconds !== null) for (const run of doc.open_runs) candidates.push(addSeconds(run.started_at, doc.max_duration_seconds));
    candidates.push(...Object.values(doc.repages));
    candidates.push(...Object.values(doc.suppressed).map((held) => held.due_at));
  }
  return {
    ...doc,
    due_at: candidates.length > 0 ? candidates.reduce((a, b) => (a < b ? a : b)) : null,
    check_due_at: doc.kind === 'check' && !doc.paused ? doc.next_expected_at : null,
  };
}

/**
 * What the timer and the checker work from: one document per monitor with the moment each of them
 * next has something to do, both indexed, so a tick reads only what is due.
 */
export const deadlinesProjection: Projection<DeadlineDocument> = {
  name: 'deadlines',
  version: 8,
  collection: { name: 'deadlines', indexes: [{ fields: ['due_at'] }, { fields: ['check_due_at'] }, { fields: ['project_id'] }] },
  handles: [
    'MonitorCreated', 'MonitorUpdated', 'MonitorPaused', 'MonitorResumed', 'PingReceived', 'CheckCompleted', 'CheckInMissed', 'RunOverdue',
    'CheckInUnheard', 'RunUnheard', 'PageScheduled', 'IncidentAcknowledged', 'IncidentResolved', 'MonitorDeleted',
    'IncidentOpened', 'IncidentSuppressed', 'SuppressedIncidentCleared', 'RepageHeld', 'MaintenanceWindowUpdated', 'MaintenanceWindowEnded',
  ],
  targets: (event) => {
    // A window that changed or ended: the project's monitors it held something back for.
    if (event.type === 'MaintenanceWindowUpdated' || event.type === 'MaintenanceWindowEnded') return { where: { project_id: event.data.project_id } };
    return { ids: 'monitor_id' in event.data ? [event.data.monitor_id] : [] };
  },
  apply(doc, event) {
    if (event.type === 'MonitorCreated') {
      const { monitor_id, next_expected_at, config } = event.data;
      return withDue({
        id: monitor_id, monitor_id, slot: slotOf(monitor_id), kind: isUptimeType(config.type) ? 'check' : 'checkin', paused: false,
        waiting: !isUptimeType(config.type), next_expected_at,
        grace_period_seconds: config.grace_period_seconds, max_duration_seconds: config.max_duration_seconds, open_runs: [], repages: {},
        project_id: event.data.project_id, suppressed: {},
      });
    }
    if (!doc) return null;
    switch (event.type) {
      case 'MonitorUpdated': {
        const { next_expected_at, config } = event.data;
        return withDue({ ...doc, next_expected_at, grace_period_seconds: config.grace_period_seconds, max_duration_seconds: config.max_duration_seconds });
      }
      case 'MonitorPaused':
        // As the monitor's own fold: a pause forgets the runs under way.
        return withDue({ ...doc, paused: true, open_runs: [] });
      case 'MonitorResumed':
        return withDue({ ...doc, paused: false, next_expected_at: event.data.next_expected_at });
      case 'PingReceived': {
        const d = event.data;
        const runs = openRunsAfterPing(doc.open_runs, d, (start) => ({ ping_id: start.ping_id, started_at: start.started_at }));
        return withDue({ ...doc, waiting: doc.waiting && d.last_checkin_at === null, next_expected_at: d.next_expected_at, open_runs: runs });
      }
      case 'CheckCompleted':
        return withDue({ ...doc, next_expected_at: event.data.next_expected_at });
      case 'CheckInMissed': {
        // Carried for a rebuild that no longer finds the pings before it.
        const { counters } = event.data;
        return withDue({ ...doc, waiting: doc.waiting && (counters === null || counters.last_checkin_at === null), next_expected_at: event.data.next_expected_at });
      }
      case 'CheckInUnheard':
        return withDue({ ...doc, waiting: doc.waiting && event.data.counters.last_checkin_at === null, next_expected_at: event.data.next_expected_at });
      case 'RunOverdue':
      case 'RunUnheard':
        return withDue({ ...doc, open_runs: doc.open_runs.filter((run) => run.ping_id !== event.data.start_ping_id) });
      case 'PageScheduled':
        return event.data.repage_at === null ? doc : withDue({ ...doc, repages: { ...doc.repages, [event.data.incident_id]: event.data.repage_at } });
      case 'IncidentAcknowledged':
      case 'IncidentResolved': {
        const { [event.data.incident_id]: _gone, ...repages } = doc.repages;
        return withDue({ ...doc, repages });
      }
      case 'MonitorDeleted':
        return null;
      case 'IncidentSuppressed':
        return withDue({ ...doc, suppressed: { ...doc.suppressed, [event.data.event]: { window_id: event.data.window_id, due_at: event.data.window_ends_at } } });
      case 'IncidentOpened':
      case 'SuppressedIncidentCleared': {
        if (!(event.data.event in doc.suppressed)) return doc;
        const { [event.data.event]: _gone, ...suppressed } = doc.suppressed;
        return withDue({ ...doc, suppressed });
      }
      case 'RepageHeld':
        return withDue({ ...doc, repages: { ...doc.repages, [event.data.incident_id]: event.data.until } });
      case 'MaintenanceWindowUpdated':
      case 'MaintenanceWindowEnded': {
        const at = event.type === 'MaintenanceWindowEnded' ? event.data.ended_at : event.data.updated_at;
        const changed = Object.entries(doc.suppressed).filter(([, held]) => held.window_id === event.data.window_id && held.due_at > at);
        if (changed.length === 0) return doc;
        return withDue({ ...doc, suppressed: { ...doc.suppressed, ...Object.fromEntries(changed.map(([kind, held]) => [kind, { ...held, due_at: at }])) } });
      }
      default:
        return doc;
    }
  },
};
