import type { Projection } from '../src/projector/projection.js';

export interface CheckResultDocument {
  id: string;
  monitor_id: string;
  status_code: number | null;
  response_time_ms: number;
  is_up: boolean;
  error: string | null;
  ssl_expires_at: string | null;
  ssl_issuer: string | null;
  check_region: string;
  check_status: 'ok' | 'probe_error';
  cycle_id: string | null;
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
}

/** Hours kept: the longest period the stats answer for (720 h) and the hour in progress. */
export const CHECK_HOURS_KEPT = 721;
const hourOf = (iso: string) => `${iso.slice(0, 13)}:00:00.000Z`;
const bucketId = (monitorId: string, hour: string) => `${monitorId}:${hour}`;

/**
 * Response times and up/down counts per monitor per hour: what response-time-stats and the
 * project uptime summary add up. Each new hour drops the one CHECK_HOURS_KEPT hours behind it.
 */
export const checkHoursProjection: Projection<CheckHourDocument> = {
  name: 'check_hours',
  version: 1,
  collection: { name: 'check_hours', indexes: [{ fields: ['monitor_id', 'hour'] }, { fields: ['project_id', 'hour'] }] },
  handles: ['CheckCompleted', 'MonitorDeleted'],
  targets(event) {
    if (event.type === 'MonitorDeleted') return { where: { monitor_id: event.data.monitor_id } };
    if (event.type !== 'CheckCompleted' || event.data.check_status !== 'ok') return { ids: [] };
    const hour = hourOf(event.data.checked_at);
    const dropped = new Date(Date.parse(hour) - CHECK_HOURS_KEPT * 3_600_000).toISOString();
    return { ids: [bucketId(event.data.monitor_id, hour), bucketId(event.data.monitor_id, dropped)] };
  },
  apply(doc, event, id) {
    if (event.type !== 'CheckCompleted') return null;
    const d = event.data;
    const hour = hourOf(d.checked_at);
    if (id !== bucketId(d.monitor_id, hour)) return null;
    const base = doc ?? { id, monitor_id: d.monitor_id, project_id: d.project_id, hour, total: 0, up: 0, down: 0, times: [] };
    return { ...base, total: base.total + 1, up: base.up + (d.is_up ? 1 : 0), down: base.down + (d.is_up ? 0 : 1), times: [...base.times, d.response_time_ms] };
  },
};
