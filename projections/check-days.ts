import { hourOf } from '../src/domain/monitors/check-hours.js';
import type { Projection } from '../src/projector/projection.js';

/** One uptime monitor's checks over one UTC day: what a status page's daily bar shows. */
export interface CheckDayDocument {
  id: string;
  monitor_id: string;
  project_id: string;
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  total: number;
  up: number;
  /**
   * Of those, by hour of the day (`HH:00`), the checks no ChecksSummarized covers yet: retention may take
   * them from the log, and their hour's summary then takes their place.
   */
  unsummarized: Record<string, { total: number; up: number }>;
}

/**
 * Days kept: the status pages' 90 days and a margin. The hourly figures (check_hours) reach back
 * only 30 days and carry every response time, too much to keep three times as long for a count.
 */
export const CHECK_DAYS_KEPT = 92;
const DAY_MS = 86_400_000;
const bucketId = (monitorId: string, day: string) => `${monitorId}:${day}`;

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The days dropped with an event of `day`: the one CHECK_DAYS_KEPT days behind it, or, with a
 * summary naming the hour of the one before it (on `previous`), every day that one left which is
 * now as far behind (as in check_hours): the days before a pause in the checks leave as they would
 * have, had the checks gone on, as their summaries leave the log.
 */
function droppedDays(day: string, previous: string | null): string[] {
  const at = Date.parse(`${day}T00:00:00.000Z`);
  const until = at - CHECK_DAYS_KEPT * DAY_MS;
  if (previous === null || previous >= day) return [dayOf(until)];
  const before = Date.parse(`${previous}T00:00:00.000Z`);
  const dropped: string[] = [];
  for (let t = before - CHECK_DAYS_KEPT * DAY_MS + DAY_MS; t <= Math.min(until, before); t += DAY_MS) dropped.push(dayOf(t));
  return dropped;
}

/**
 * Up and total checks per monitor per UTC day; each new day drops the one CHECK_DAYS_KEPT days
 * behind it. An hour's summary replaces the checks of it that it covers (as in check_hours).
 */
export const checkDaysProjection: Projection<CheckDayDocument> = {
  name: 'check_days',
  version: 2,
  collection: { name: 'check_days', indexes: [{ fields: ['monitor_id', 'day'] }] },
  handles: ['CheckCompleted', 'ChecksSummarized', 'MonitorDeleted'],
  targets(event) {
    if (event.type === 'MonitorDeleted') return { where: { monitor_id: event.data.monitor_id } };
    // A probe that failed to run says nothing about the target (as in check_hours).
    const counted = event.type === 'ChecksSummarized' ? { monitorId: event.data.monitor_id, day: event.data.hour.slice(0, 10) }
      : event.type === 'CheckCompleted' && event.data.check_status === 'ok' ? { monitorId: event.data.monitor_id, day: event.data.checked_at.slice(0, 10) }
      : null;
    if (counted === null) return { ids: [] };
    const previous = event.type === 'ChecksSummarized' ? event.data.previous_hour?.slice(0, 10) ?? null : null;
    return { ids: [bucketId(counted.monitorId, counted.day), ...droppedDays(counted.day, previous).map((day) => bucketId(counted.monitorId, day))] };
  },
  apply(doc, event, id) {
    if (event.type !== 'CheckCompleted' && event.type !== 'ChecksSummarized') return null;
    const d = event.data;
    const hour = event.type === 'ChecksSummarized' ? event.data.hour : hourOf(event.data.checked_at);
    const day = hour.slice(0, 10);
    if (id !== bucketId(d.monitor_id, day)) return null;
    const base: CheckDayDocument = doc ?? { id, monitor_id: d.monitor_id, project_id: d.project_id, day, total: 0, up: 0, unsummarized: {} };
    const hh = hour.slice(11, 16);
    const { [hh]: covered = { total: 0, up: 0 }, ...others } = base.unsummarized;
    if (event.type === 'ChecksSummarized') {
      return { ...base, total: base.total - covered.total + event.data.total, up: base.up - covered.up + event.data.up, unsummarized: others };
    }
    const up = event.data.is_up ? 1 : 0;
    const counted = { ...base, total: base.total + 1, up: base.up + up };
    // One recorded before checks were summarized stays in the log: it counts as summarized already.
    if (event.data.check_number === null) return counted;
    // In order of the hour, however the checks came: a rebuild finds fewer of them.
    const unsummarized = Object.fromEntries(Object.entries({ ...others, [hh]: { total: covered.total + 1, up: covered.up + up } }).sort(([a], [b]) => (a < b ? -1 : 1)));
    return { ...counted, unsummarized };
  },
};
