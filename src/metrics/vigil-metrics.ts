import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { INCIDENT_KINDS } from '../domain/monitors/incidents.js';
import { PING_KINDS } from '../domain/monitors/pings.js';
import { CHANNEL_TYPES } from '../domain/notifications/channel.js';
import type { ReadModelLag } from '../projector/read-model-lag.js';

export const MONITOR_STATUSES = ['UP', 'DOWN', 'PAUSED'] as const;
export type MonitorStatus = (typeof MONITOR_STATUSES)[number];

/** What the gauges read when Prometheus scrapes: the shared stores, so every process agrees. */
export interface ScrapeSources {
  monitorsByStatus(): Promise<Record<MonitorStatus, number>>;
  /** How far the read models trail the log. */
  projectorLag(): Promise<ReadModelLag>;
}

/** The handles each role records into; one set per RunningVigil, registered on its own registry. */
export interface VigilMetrics {
  registry: Registry;
  pingsReceived: Counter<'event'>;
  incidentsOpened: Counter<'kind'>;
  timerLateness: Histogram<never>;
  notificationDeliveries: Counter<'type'>;
  notificationFailures: Counter<'type'>;
  httpRequestDuration: Histogram<'method' | 'route' | 'status_code'>;
  authFailures: Counter<'outcome'>;
  consoleLiveStreams: Gauge<never>;
  consoleLiveRenders: Counter<never>;
}

export function createVigilMetrics(registry: Registry, sources: ScrapeSources): VigilMetrics {
  const registers = [registry];
  new Gauge({
    name: 'vigil_monitors',
    help: 'Monitors by status, as the monitors read model has them at scrape time.',
    labelNames: ['status'],
    registers,
    async collect() {
      // A store that does not answer drops the series rather than repeating stale numbers; /readyz says why.
      const counts = await sources.monitorsByStatus().catch(() => null);
      this.reset();
      if (counts) for (const status of MONITOR_STATUSES) this.set({ status }, counts[status]);
    },
  });
  // Both gauges from one reading of the lag: a scrape collects them together.
  let lagReading: Promise<ReadModelLag | null> | null = null;
  const lag = () =>
    (lagReading ??= sources
      .projectorLag()
      .catch(() => null)
      .finally(() => {
        lagReading = null;
      }));
  new Gauge({
    name: 'vigil_projector_lag_events',
    help: 'Events in the log the read models have yet to take up, counted up to 100,000; absent where the event store cannot count them (EventStoreDB).',
    registers,
    async collect() {
      const events = (await lag())?.events ?? null;
      this.reset();
      if (events !== null) this.set(events);
    },
  });
  new Gauge({
    name: 'vigil_projector_lag_seconds',
    help: 'How long ago the oldest event the read models have yet to take up was recorded; 0 when they hold the whole log.',
    registers,
    async collect() {
      const seconds = (await lag())?.seconds ?? null;
      this.reset();
      if (seconds !== null) this.set(seconds);
    },
  });
  const metrics: VigilMetrics = {
    registry,
    pingsReceived: new Counter({
      name: 'vigil_pings_received_total',
      help: 'Pings this process accepted and recorded, by kind.',
      labelNames: ['event'],
      registers,
    }),
    incidentsOpened: new Counter({
      name: 'vigil_incidents_opened_total',
      help: 'IncidentOpened events this process\'s projector committed to the read models for the first time, by kind.',
      labelNames: ['kind'],
      registers,
    }),
    timerLateness: new Histogram({
      name: 'vigil_timer_lateness_seconds',
      help: 'How long after its due time the timer fired each deadline.',
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
      registers,
    }),
    notificationDeliveries: new Counter({
      name: 'vigil_notification_deliveries_total',
      help: 'Notifications this process delivered, by channel type.',
      labelNames: ['type'],
      registers,
    }),
    notificationFailures: new Counter({
      name: 'vigil_notification_failures_total',
      help: 'Delivery attempts that failed (each retry counts), by channel type.',
      labelNames: ['type'],
      registers,
    }),
    httpRequestDuration: new Histogram({
      name: 'vigil_http_request_duration_seconds',
      help: 'HTTP requests by method, matched route pattern and status code.',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    authFailures: new Counter({
      name: 'vigil_auth_failures_total',
      help: 'Failed authentications (an API key malformed, unknown, revoked or expired, at the REST API or the console sign-in; a ping to a monitor id or ping key that does not exist, a badge URL that names nothing): refused (401, 404), or throttled with 429 once their address was past VIGIL_AUTH_FAILURE_LIMIT.',
      labelNames: ['outcome'],
      registers,
    }),
    consoleLiveStreams: new Gauge({
      name: 'vigil_console_live_streams',
      help: 'The console\'s live dashboard streams (text/event-stream) open in this process.',
      registers,
    }),
    consoleLiveRenders: new Counter({
      name: 'vigil_console_live_renders_total',
      help: 'Renders of a project\'s dashboard rows for its live streams.',
      registers,
    }),
  };
  // Known label values start at zero, so rate() and increase() see the first event.
  for (const event of PING_KINDS) metrics.pingsReceived.inc({ event }, 0);
  for (const kind of INCIDENT_KINDS) metrics.incidentsOpened.inc({ kind }, 0);
  for (const outcome of ['refused', 'throttled']) metrics.authFailures.inc({ outcome }, 0);
  for (const type of CHANNEL_TYPES) {
    metrics.notificationDeliveries.inc({ type }, 0);
    metrics.notificationFailures.inc({ type }, 0);
  }
  return metrics;
}
