import { type MonitorConfig, type UptimeConfig, shownUptime } from '../src/domain/monitors/monitor-config.js';
import type { PingCounters } from '../src/domain/monitors/monitor-events.js';
import { pingStream } from '../src/domain/monitors/monitor-streams.js';
import type { ProjectedEvent, Projection } from '../src/projector/projection.js';

export interface MonitorDocument extends Omit<MonitorConfig, 'uptime'> {
  [key: string]: unknown;
  id: string;
  project_id: string;
  /** Header values masked: the checker reads them from the monitor's stream. */
  uptime: UptimeConfig | null;
  status: 'UP' | 'DOWN' | 'PAUSED';
  health: 'UP' | 'DOWN';
  paused: boolean;
  consecutive_failures: number;
  consecutive_misses: number;
  consecutive_alerts: number;
  alerts_paused_until: string | null;
  last_success_at: string | null;
  /** As the domain decided it; shown as null while paused. */
  next_expected_at: string | null;
  total_pings_received: number;
  /**
   * Waiting for its first ping (a job that has never checked in) or first check (UPTIME_HTTP):
   * not reported healthy, its deadlines not counted. Apart from `status`, which stays UP/DOWN/PAUSED.
   */
  is_new: boolean;
  /**
   * For the dashboard's row, kept on the document every ping and check already rewrites: when the
   * monitor last heard anything (a ping of any kind, or a check), and how many events its pings
   * stream had then (its newest revision + 1), up to which the row's last runs are read from the
   * log (src/queries/recent-runs.ts). Not part of the API's representation.
   */
  last_seen_at: string | null;
  pings_stream_length: number;
  created_at: string;
  updated_at: string;
}

/** The place of an event in the pings stream (revision + 1); null for one in the monitor's own stream. */
function observationNumber(event: ProjectedEvent): number | null {
  return 'monitor_id' in event.data && event.streamName === pingStream(event.data.monitor_id) ? event.revision + 1 : null;
}

/** What a deadline carries of the pings before it (for a rebuild that finds none of them any more). */
function carried(counters: PingCounters | null): Partial<MonitorDocument> {
  if (counters === null) return {};
  return {
    consecutive_failures: counters.consecutive_failures,
    consecutive_misses: counters.consecutive_misses,
    total_pings_received: counters.total_pings_received,
    is_new: counters.last_checkin_at === null,
    last_success_at: counters.last_success_at,
    next_expected_at: counters.next_expected_at,
    last_seen_at: counters.last_ping_at,
  };
}

/** Status follows from health and pause; kept here so every write agrees. */
function derive(doc: MonitorDocument): MonitorDocument {
  return { ...doc, status: doc.paused ? 'PAUSED' : doc.health };
}

export const monitorsProjection: Projection<MonitorDocument> = {
  name: 'monitors',
  version: 10,
  collection: { name: 'monitors', indexes: [{ fields: ['project_id', 'created_at'] }, { fields: ['project_id', 'slug'] }] },
  handles: [
    'MonitorCreated', 'MonitorUpdated', 'MonitorPaused', 'MonitorResumed', 'MonitorCountersReset',
    'MonitorWentDown', 'MonitorWentUp', 'PingReceived', 'CheckCompleted', 'CheckInMissed', 'RunOverdue', 'PageScheduled', 'AlertsPaused', 'MonitorDeleted',
    'CheckInUnheard', 'RunUnheard',
  ],
  targets: (event) => ({ ids: 'monitor_id' in event.data ? [event.data.monitor_id] : [] }),
  apply(doc, event) {
    if (event.type === 'MonitorCreated') {
      const { monitor_id, project_id, config, created_at, next_expected_at } = event.data;
      return derive({
        ...config, uptime: config.uptime && shownUptime(config.uptime), id: monitor_id, project_id, status: 'UP', health: 'UP', paused: false,
        consecutive_failures: 0, consecutive_misses: 0, consecutive_alerts: 0, alerts_paused_until: null,
        last_success_at: null, next_expected_at, total_pings_received: 0, is_new: true, last_seen_at: null, pings_stream_length: 0,
        created_at, updated_at: created_at,
      });
    }
    if (!doc) return null;
    const number = observationNumber(event);
    switch (event.type) {
      case 'MonitorUpdated':
        return derive({
          ...doc, ...event.data.config, uptime: event.data.config.uptime && shownUptime(event.data.config.uptime), updated_at: event.data.updated_at, next_expected_at: event.data.next_expected_at,
        });
      case 'MonitorPaused':
        return derive({ ...doc, paused: true });
      case 'MonitorResumed':
        return derive({ ...doc, paused: false, next_expected_at: event.data.next_expected_at });
      case 'MonitorCountersReset':
        return derive({ ...doc, consecutive_failures: 0, consecutive_misses: 0, consecutive_alerts: 0 });
      case 'MonitorWentDown':
        return derive({ ...doc, health: 'DOWN' });
      case 'MonitorWentUp':
        return derive({ ...doc, health: 'UP', consecutive_alerts: 0, alerts_paused_until: null });
      case 'PageScheduled':
        return event.data.reason === 'opened' || event.data.reason === 'repage' ? derive({ ...doc, consecutive_alerts: doc.consecutive_alerts + 1 }) : doc;
      case 'AlertsPaused':
        return derive({ ...doc, alerts_paused_until: event.data.until, consecutive_alerts: event.data.consecutive_alerts });
      case 'PingReceived': {
        const d = event.data;
        return derive({
          ...doc,
          consecutive_failures: d.consecutive_failures,
          consecutive_misses: d.consecutive_misses,
          total_pings_received: d.total_pings_received,
          // Carried by every ping, so a rebuild after retention finds the same.
          is_new: d.last_checkin_at === null,
          last_success_at: d.last_success_at,
          next_expected_at: d.next_expected_at,
          last_seen_at: d.received_at,
          pings_stream_length: number ?? doc.pings_stream_length,
        });
      }
      case 'CheckInMissed':
        return derive({
          ...doc, ...carried(event.data.counters), consecutive_misses: event.data.consecutive_misses, next_expected_at: event.data.next_expected_at,
          pings_stream_length: number ?? doc.pings_stream_length,
        });
      case 'CheckCompleted': {
        const { consecutive_failures, last_success_at, next_expected_at, checked_at } = event.data;
        return derive({
          ...doc, consecutive_failures, last_success_at, next_expected_at, is_new: false, last_seen_at: checked_at,
          pings_stream_length: number ?? doc.pings_stream_length,
        });
      }
      case 'RunOverdue':
        return derive({
          ...doc, ...carried(event.data.counters), consecutive_failures: event.data.consecutive_failures,
          pings_stream_length: number ?? doc.pings_stream_length,
        });
      case 'CheckInUnheard':
      case 'RunUnheard':
        return derive({ ...doc, ...carried(event.data.counters), pings_stream_length: number ?? doc.pings_stream_length });
      case 'MonitorDeleted':
        return null;
      default:
        return doc;
    }
  },
};
