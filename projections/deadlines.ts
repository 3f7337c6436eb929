import { OPEN_RUNS_KEPT } from '../src/domain/monitors/pings.js';
import { addSeconds } from '../src/domain/monitors/schedule.js';
import type { Projection } from '../src/projector/projection.js';

export interface DeadlineDocument {
  id: string;
  monitor_id: string;
  /** `checkin`: the timer's (jobs checking in); `check`: the checker's (uptime checks to run). */
  kind: 'checkin' | 'check';
  paused: boolean;
  next_expected_at: string | null;
  grace_period_seconds: number;
  max_duration_seconds: number | null;
  /** STARTs not yet completed nor reported overdue, oldest first. */
  open_runs: { ping_id: string; started_at: string }[];
  /** When the timer should look at the monitor: the next slot's deadline or the first run's, whichever is earlier. */
  due_at: string | null;
}

function withDue(doc: Omit<DeadlineDocument, 'due_at'>): DeadlineDocument {
  const candidates: string[] = [];
  const grace = doc.kind === 'check' ? 0 : doc.grace_period_seconds;
  if (!doc.paused && doc.next_expected_at !== null) candidates.push(addSeconds(doc.next_expected_at, grace));
  if (!doc.paused && doc.max_duration_seconds !== null) {
    for (const run of doc.open_runs) candidates.push(addSeconds(run.started_at, doc.max_duration_seconds));
  }
  return { ...doc, due_at: candidates.length > 0 ? candidates.reduce((a, b) => (a < b ? a : b)) : null };
}

/**
 * What the timer works from: one document per monitor, indexed by when it next falls due, so each
 * tick reads only what is due. Paused and JOB_BASIC monitors without running jobs have nothing due.
 */
export const deadlinesProjection: Projection<DeadlineDocument> = {
  name: 'deadlines',
  version: 3,
  collection: { name: 'deadlines', indexes: [{ fields: ['kind', 'due_at'] }] },
  handles: ['MonitorCreated', 'MonitorUpdated', 'MonitorPaused', 'MonitorResumed', 'PingReceived', 'CheckCompleted', 'CheckInMissed', 'RunOverdue', 'MonitorDeleted'],
  targets: (event) => ({ ids: 'monitor_id' in event.data ? [event.data.monitor_id] : [] }),
  apply(doc, event) {
    if (event.type === 'MonitorCreated') {
      const { monitor_id, next_expected_at, config } = event.data;
      return withDue({
        id: monitor_id, monitor_id, kind: config.type === 'UPTIME_HTTP' ? 'check' : 'checkin', paused: false, next_expected_at, grace_period_seconds: config.grace_period_seconds,
        max_duration_seconds: config.max_duration_seconds, open_runs: [],
      });
    }
    if (!doc) return null;
    switch (event.type) {
      case 'MonitorUpdated': {
        const { next_expected_at, config } = event.data;
        return withDue({ ...doc, next_expected_at, grace_period_seconds: config.grace_period_seconds, max_duration_seconds: config.max_duration_seconds });
      }
      case 'MonitorPaused':
        return withDue({ ...doc, paused: true });
      case 'MonitorResumed':
        return withDue({ ...doc, paused: false, next_expected_at: event.data.next_expected_at });
      case 'PingReceived': {
        const d = event.data;
        let runs = doc.open_runs.filter((run) => run.ping_id !== d.closed_start_ping_id);
        if (d.evaluated && d.event === 'START') runs = [...runs, { ping_id: d.ping_id, started_at: d.received_at }].slice(-OPEN_RUNS_KEPT);
        return withDue({ ...doc, next_expected_at: d.next_expected_at, open_runs: runs });
      }
      case 'CheckCompleted':
      case 'CheckInMissed':
        return withDue({ ...doc, next_expected_at: event.data.next_expected_at });
      case 'RunOverdue':
        return withDue({ ...doc, open_runs: doc.open_runs.filter((run) => run.ping_id !== event.data.start_ping_id) });
      case 'MonitorDeleted':
        return null;
      default:
        return doc;
    }
  },
};
