import { hourOf } from '../src/domain/monitors/check-hours.js';
import type { CheckObservation } from '../src/domain/monitors/monitor-events.js';
import type { Projection } from '../src/projector/projection.js';

/** The check as the checker saw it, keyed by its id (`check_id`). */
export interface CheckResultDocument extends Omit<CheckObservation, 'check_id' | 'attempts'> {
  id: string;
  monitor_id: string;
  created_at: string;
}

/** The latest check of each uptime monitor, keyed by the monitor. */
export const latestCheckResultsProjection: Projection<CheckResultDocument> = {
  name: 'check_results_latest',
  version: 1,
  collection: { name: 'check_results_latest', indexes: [] },
  handles: ['CheckCompleted', 'MonitorDeleted'],
  targets: (event) => ({ ids: 'monitor_id' in event.data ? [event.data.monitor_id] : [] }),
  apply(_doc, event) {
    if (event.type !== 'CheckCompleted') return null;
    const d = event.data;
    return {
      id: d.check_id, monitor_id: d.monitor_id, status_code: d.status_code, response_time_ms: d.response_time_ms, is_up: d.is_up, error: d.error,
      ssl_expires_at: d.ssl_expires_at, ssl_issuer: d.ssl_issuer, check_region: d.check_region, check_status: d.check_status, cycle_id: d.cycle_id,
      created_at: d.checked_at,
    };
  },
};

export interface CheckHourDocument {
  id: string;
  monitor_id: string;
  project_id: string;
  /** Start of the hour, ISO. */
  hour: string;
  total: number;
  up: number;
  down: number;
  /** Every response time of the hour, for exact percentiles. */
  times: number[];
  /**
   * Of those, the newest checks no ChecksSummarized covers yet (the last `unsummarized.total` of
   * `times`): retention may take them from the log, and the hour's summary then takes their place.
   */
  unsummarized: { total: number; up: number; down: number };
}

/** Hours kept: the longest period the stats answer for (720 h) and the hour in progress. */
export const CHECK_HOURS_KEPT = 721;
const bucketId = (monitorId: string, hour: string) => `${monitorId}:${hour}`;
const NONE = { total: 0, up: 0, down: 0 };

const HOUR_MS = 3_600_000;

/**
 * The hours dropped with an event of `hour`: the one CHECK_HOURS_KEPT hours behind it. A summary
 * naming the hour of the one before it (`previous`) drops every hour that one left which is now as
 * far behind: after a pause in the checks, the hours before it leave as they would have, had the
 * checks gone on. Their summaries leave the log (their stream is kept to a window), so a rebuild
 * would not make them again.
 */
function droppedHours(hour: string, previous: string | null): string[] {
  const at = Date.parse(hour);
  const until = at - CHECK_HOURS_KEPT * HOUR_MS;
  if (previous === null || previous >= hour) return [new Date(until).toISOString()];
  const before = Date.parse(previous);
  const dropped: string[] = [];
  // Hours after `previous` have no checks (they would have a summary in between) and hold nothing.
  for (let t = before - CHECK_HOURS_KEPT * HOUR_MS + HOUR_MS; t <= Math.min(until, before); t += HOUR_MS) dropped.push(new Date(t).toISOString());
  return dropped;
}

/**
 * Response times and up/down counts per monitor per hour: what response-time-stats and the
 * project uptime summary add up. Each new hour drops the one CHECK_HOURS_KEPT hours behind it.
 * A check counts as it comes; the hour's summary (written before retention can take its checks)
 * replaces those it covers, so a rebuild that no longer finds them makes the same hour.
 */
export const checkHoursProjection: Projection<CheckHourDocument> = {
  name: 'check_hours',
  version: 2,
  collection: { name: 'check_hours', indexes: [{ fields: ['monitor_id', 'hour'] }, { fields: ['project_id', 'hour'] }] },
  handles: ['CheckCompleted', 'ChecksSummarized', 'MonitorDeleted'],
  targets(event) {
    if (event.type === 'MonitorDeleted') return { where: { monitor_id: event.data.monitor_id } };
    const counted = event.type === 'ChecksSummarized' ? { monitorId: event.data.monitor_id, hour: event.data.hour }
      : event.type === 'CheckCompleted' && event.data.check_status === 'ok' ? { monitorId: event.data.monitor_id, hour: hourOf(event.data.checked_at) }
      : null;
    if (counted === null) return { ids: [] };
    const previous = event.type === 'ChecksSummarized' ? event.data.previous_hour : null;
    return { ids: [bucketId(counted.monitorId, counted.hour), ...droppedHours(counted.hour, previous).map((hour) => bucketId(counted.monitorId, hour))] };
  },
  apply(doc, event, id) {
    if (event.type !== 'CheckCompleted' && event.type !== 'ChecksSummarized') return null;
    const d = event.data;
    const hour = event.type === 'ChecksSummarized' ? event.data.hour : hourOf(event.data.checked_at);
    if (id !== bucketId(d.monitor_id, hour)) return null;
    const base: CheckHourDocument = doc ?? { id, monitor_id: d.monitor_id, project_id: d.project_id, hour, total: 0, up: 0, down: 0, times: [], unsummarized: NONE };
    const u = base.unsummarized;
    if (event.type === 'ChecksSummarized') {
      const s = event.data;
      return {
        ...base, total: base.total - u.total + s.total, up: base.up - u.up + s.up, down: base.down - u.down + s.down,
        times: [...base.times.slice(0, base.times.length - u.total), ...s.times], unsummarized: NONE,
      };
    }
    const up = event.data.is_up ? 1 : 0;
    const counted = { ...base, total: base.total + 1, up: base.up + up, down: base.down + 1 - up };
    // One recorded before checks were summarized stays in the log: it counts as summarized already.
    if (event.data.check_number === null) {
      const at = base.times.length - u.total;
      return { ...counted, times: [...base.times.slice(0, at), event.data.response_time_ms, ...base.times.slice(at)] };
    }
    return { ...counted, times: [...base.times, event.data.response_time_ms], unsummarized: { total: u.total + 1, up: u.up + up, down: u.down + 1 - up } };
  },
};
