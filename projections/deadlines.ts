import { addSeconds } from '../src/domain/monitors/schedule.js';
import type { Projection } from '../src/projector/projection.js';

export interface DeadlineDocument {
  id: string;
  monitor_id: string;
  paused: boolean;
  next_expected_at: string | null;
  grace_period_seconds: number;
  /** When the timer should look at the monitor: next expected check-in plus grace; null when nothing is due. */
  due_at: string | null;
}

function withDue(doc: Omit<DeadlineDocument, 'due_at'>): DeadlineDocument {
  const due = doc.paused || doc.next_expected_at === null ? null : addSeconds(doc.next_expected_at, doc.grace_period_seconds);
  return { ...doc, due_at: due };
}

/**
 * What the timer works from: one document per monitor, indexed by when it falls due, so each
 * tick reads only what is due. Paused and JOB_BASIC monitors have nothing due.
 */
export const deadlinesProjection: Projection<DeadlineDocument> = {
  name: 'deadlines',
  version: 1,
  collection: { name: 'deadlines', indexes: [{ fields: ['due_at'] }] },
  handles: ['MonitorCreated', 'MonitorUpdated', 'MonitorPaused', 'MonitorResumed', 'PingReceived', 'CheckInMissed', 'MonitorDeleted'],
  targets: (event) => ({ ids: 'monitor_id' in event.data ? [event.data.monitor_id] : [] }),
  apply(doc, event) {
    if (event.type === 'MonitorCreated') {
      const { monitor_id, next_expected_at, config } = event.data;
      return withDue({ id: monitor_id, monitor_id, paused: false, next_expected_at, grace_period_seconds: config.grace_period_seconds });
    }
    if (!doc) return null;
    switch (event.type) {
      case 'MonitorUpdated':
        return withDue({ ...doc, next_expected_at: event.data.next_expected_at, grace_period_seconds: event.data.config.grace_period_seconds });
      case 'MonitorPaused':
        return withDue({ ...doc, paused: true });
      case 'MonitorResumed':
        return withDue({ ...doc, paused: false, next_expected_at: event.data.next_expected_at });
      case 'PingReceived':
      case 'CheckInMissed':
        return withDue({ ...doc, next_expected_at: event.data.next_expected_at });
      case 'MonitorDeleted':
        return null;
      default:
        return doc;
    }
  },
};
