import type { Projection } from '../src/projector/projection.js';

/** One uptime monitor's checks over one UTC day: what a status page's daily bar shows. */
export interface CheckDayDocument {
  [key: string]: string | number;
  id: string;
  monitor_id: string;
  project_id: string;
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  total: number;
  up: number;
}

/**
 * Days kept: the status pages' 90 days and a margin. The hourly figures (check_hours) reach back
 * only 30 days and carry every response time, too much to keep three times as long for a count.
 */
export const CHECK_DAYS_KEPT = 92;
const DAY_MS = 86_400_000;
const bucketId = (monitorId: string, day: string) => `${monitorId}:${day}`;

/** Up and total checks per monitor per UTC day; each new day drops the one CHECK_DAYS_KEPT days behind it. */
export const checkDaysProjection: Projection<CheckDayDocument> = {
  name: 'check_days',
  version: 1,
  collection: { name: 'check_days', indexes: [{ fields: ['monitor_id', 'day'] }] },
  handles: ['CheckCompleted', 'MonitorDeleted'],
  targets(event) {
    if (event.type === 'MonitorDeleted') return { where: { monitor_id: event.data.monitor_id } };
    // A probe that failed to run says nothing about the target (as in check_hours).
    if (event.type !== 'CheckCompleted' || event.data.check_status !== 'ok') return { ids: [] };
    const day = event.data.checked_at.slice(0, 10);
    const dropped = new Date(Date.parse(`${day}T00:00:00.000Z`) - CHECK_DAYS_KEPT * DAY_MS).toISOString().slice(0, 10);
    return { ids: [bucketId(event.data.monitor_id, day), bucketId(event.data.monitor_id, dropped)] };
  },
  apply(doc, event, id) {
    if (event.type !== 'CheckCompleted') return null;
    const d = event.data;
    const day = d.checked_at.slice(0, 10);
    if (id !== bucketId(d.monitor_id, day)) return null;
    const base = doc ?? { id, monitor_id: d.monitor_id, project_id: d.project_id, day, total: 0, up: 0 };
    return { ...base, total: base.total + 1, up: base.up + (d.is_up ? 1 : 0) };
  },
};
