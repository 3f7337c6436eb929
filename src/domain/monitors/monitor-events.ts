import type { SuppressionEvent } from './suppression-events.js';
import type { DomainEvent } from '../decider.js';
import type { PageReason } from '../notifications/page.js';
import type { IncidentKind, UserActor } from './incidents.js';
import type { MonitorConfig } from './monitor-config.js';
import type { DurationAssertion, PingKind } from './pings.js';

export type MonitorIds = { monitor_id: string; project_id: string };
type Ids = MonitorIds;

export interface IncomingPing {
  ping_id: string;
  event: PingKind;
  run_id: string | null;
  exit_code: number | null;
  duration_ms: number | null;
  message: string | null;
  payload: string | null;
  payload_truncated: boolean;
  payload_bytes: number | null;
  request_ip: string | null;
  request_ua: string | null;
}

/** The ping as received, plus what evaluating it found and the counters after it. */
export interface PingReceivedData extends Ids, IncomingPing {
  duration_assertion: DurationAssertion | null;
  /** Start of the run this ping completes. */
  started_at: string | null;
  received_at: string;
  /** False while the monitor is paused: recorded, not evaluated. */
  evaluated: boolean;
  /**
   * The open START this ping ends: the one a SUCCESS or FAILURE completed, or, for a START, the
   * open one with the same run_id (a retried START, or a run that never reported) it replaces.
   */
  closed_start_ping_id: string | null;
  // The monitor's ping-derived counters after this ping. Carried on every ping so that they
  // survive the truncation of old pings (retention): the newest ping always knows them.
  consecutive_failures: number;
  consecutive_misses: number;
  total_pings_received: number;
  last_success_at: string | null;
  last_checkin_at: string | null;
  next_expected_at: string | null;
  /** Pings the monitor kept when this one arrived: older ones leave the history. */
  retention_count: number;
}

export interface IncidentResolvedData extends Ids {
  incident_id: string;
  resolved_at: string;
  by_kind: 'user' | 'system';
  user_id: string | null;
  email: string | null;
  api_key_id: string | null;
  reason: string | null;
}

/** What the checker saw on one check of an uptime monitor (UPTIME_HTTP, UPTIME_TCP or UPTIME_DNS). */
export interface CheckObservation {
  check_id: string;
  status_code: number | null;
  response_time_ms: number;
  is_up: boolean;
  /** What failed, as a person reads it ("HTTP 503, expected 2xx", "timed out after 10 s"); null when up. */
  error: string | null;
  ssl_expires_at: string | null;
  ssl_issuer: string | null;
  check_region: string;
  /** `probe_error`: the checker itself could not check (not the target's fault); such a result counts for nothing. */
  check_status: 'ok' | 'probe_error';
  cycle_id: string | null;
  attempts: number;
}

export interface CheckCompletedData extends Ids, CheckObservation {
  checked_at: string;
  /**
   * How many checks the monitor has recorded, this one included: its place in the checks' stream,
   * which retention truncates. Null on a check recorded before checks were numbered (version 1):
   * those are in the monitor's own stream and never leave the log.
   */
  check_number: number | null;
  consecutive_failures: number;
  last_success_at: string | null;
  next_expected_at: string | null;
  retention_count: number;
}

/**
 * The monitor's ping-derived counters after a deadline passed, carried by CheckInMissed and
 * RunOverdue as PingReceived carries them, so that whichever is newest in the pings stream knows
 * them once retention has taken the rest.
 */
export interface PingCounters {
  consecutive_failures: number;
  consecutive_misses: number;
  next_expected_at: string | null;
  total_pings_received: number;
  last_success_at: string | null;
  last_checkin_at: string | null;
  /** When the newest ping arrived, whatever it was (the dashboard's "last seen"). */
  last_ping_at: string | null;
  retention_count: number;
}

export interface CheckInMissedData extends Ids {
  expected_at: string;
  deadline_at: string;
  consecutive_misses: number;
  next_expected_at: string | null;
  /** Null on one recorded in the monitor's own stream, before deadlines were kept with the pings (version 1). */
  counters: PingCounters | null;
}

export interface RunOverdueData extends Ids {
  start_ping_id: string;
  run_id: string | null;
  started_at: string;
  deadline_at: string;
  closed_as_failure: boolean;
  consecutive_failures: number;
  /** Null on one recorded in the monitor's own stream, before deadlines were kept with the pings (version 1). */
  counters: PingCounters | null;
}

/** What a timer fire records with the pings: the slots missed and the runs overdue. */
export type DeadlineObservation = { type: 'CheckInMissed'; data: CheckInMissedData } | { type: 'RunOverdue'; data: RunOverdueData };

/**
 * Slots whose check-in could have come while Vigil was not listening (an outage of its own), in a
 * row: neither missed nor met. They count toward nothing; `next_expected_at` moves past them.
 */
export interface CheckInUnheardData extends Ids {
  /** The first slot's expected time, and the last's. */
  expected_at: string;
  last_expected_at: string;
  /** The last slot's deadline. */
  deadline_at: string;
  slots: number;
  /** The stretch Vigil could not hear in (recorded as ListeningInterrupted, or not yet confirmed again). */
  outage_from: string;
  outage_to: string;
  next_expected_at: string | null;
  counters: PingCounters;
}

/** A run under way while Vigil could not hear: its completion may have been sent then. Forgotten, as a pause forgets runs, not reported hung. */
export interface RunUnheardData extends Ids {
  start_ping_id: string;
  run_id: string | null;
  started_at: string;
  deadline_at: string;
  outage_from: string;
  outage_to: string;
  counters: PingCounters;
}

/** What a timer fire records with the pings instead of a miss or an overdue run when Vigil could not hear. */
export type UnheardObservation = { type: 'CheckInUnheard'; data: CheckInUnheardData } | { type: 'RunUnheard'; data: RunUnheardData };

/** The counted checks of one hour recorded before it that no earlier summary covers: what the hourly figures keep once they leave the log. */
export interface ChecksSummarizedData extends Ids {
  /** Start of the UTC hour, ISO. */
  hour: string;
  total: number;
  up: number;
  down: number;
  /** Their response times, in the order recorded. */
  times: number[];
  summarized_at: string;
  /**
   * The hour of the summary recorded before it; null for the first, and on one recorded before they
   * said so (version 1). The read models drop with it what a pause in the checks left behind.
   */
  previous_hour: string | null;
  /**
   * How many summaries its stream (`checkhours-<monitor id>`) keeps (check-hours.ts, summaryWindow);
   * null on one recorded in the monitor's own stream (version 1), which keeps them for good.
   */
  summaries_kept: number | null;
}

export type MonitorEvent =
  | DomainEvent<'MonitorCreated', Ids & { config: MonitorConfig; created_at: string; next_expected_at: string | null }>
  /** `last_ping_seq`: the newest ping's sequence when the update was made, so a smaller retention can be applied to the history. */
  | DomainEvent<'MonitorUpdated', Ids & { config: MonitorConfig; updated_at: string; last_ping_seq: number | null; next_expected_at: string | null }>
  | DomainEvent<'MonitorPaused', Ids & { paused_at: string }>
  | DomainEvent<'MonitorResumed', Ids & { resumed_at: string; next_expected_at: string | null }>
  | DomainEvent<'MonitorCountersReset', Ids & { reset_at: string }>
  | DomainEvent<'MonitorWentDown', Ids & { reason: 'FAILURES' | 'MISSES'; at: string }>
  /**
   * A START ran past max_duration_seconds without a completion. On JOB_BASIC monitors the watchdog
   * also closes it as a failure (`closed_as_failure`), counted in `consecutive_failures`.
   * Recorded with the pings (version 2), where a check-in racing it contends for the same stream.
   */
  | DomainEvent<'RunOverdue', RunOverdueData>
  /**
   * A slot passed its deadline (expected time + grace) without a check-in; stamped at the deadline.
   * Recorded with the pings (version 2), where a check-in racing it contends for the same stream.
   */
  | DomainEvent<'CheckInMissed', CheckInMissedData>
  /** Recorded with the pings: slots Vigil could not hear (see CheckInUnheardData). */
  | DomainEvent<'CheckInUnheard', CheckInUnheardData>
  /** Recorded with the pings: a run Vigil could not hear the end of (see RunUnheardData). */
  | DomainEvent<'RunUnheard', RunUnheardData>
  | DomainEvent<'MonitorWentUp', Ids & { reason: 'SUCCESS_PING' | 'FORCED'; at: string }>
  | DomainEvent<'PingReceived', PingReceivedData>
  /** Recorded with the pings (the monitor's observations), so retention applies to both alike. */
  | DomainEvent<'CheckCompleted', CheckCompletedData>
  /** In its own stream, kept to a window, before retention can take the checks it sums up (check-hours.ts). */
  | DomainEvent<'ChecksSummarized', ChecksSummarizedData>
  | DomainEvent<
      'IncidentOpened',
      Ids & { incident_id: string; event: IncidentKind; cause: string; started_at: string; monitor_name: string; monitor_slug: string; ping_id: string | null }
    >
  /** Right after its IncidentOpened: a monitor this one depends on was DOWN, so nobody is paged about it. */
  | DomainEvent<'IncidentCausedUpstream', Ids & { incident_id: string; upstream_monitor_id: string; upstream_monitor_name: string; at: string }>
  | DomainEvent<'IncidentAcknowledged', Ids & { incident_id: string; acknowledged_at: string } & UserActor>
  | DomainEvent<'IncidentResolved', IncidentResolvedData>
  | DomainEvent<'MonitorDeleted', Ids & { deleted_at: string }>
  /** A page to send about an incident; the notifier fans it out to the monitor's channels. */
  | DomainEvent<'PageScheduled', Ids & { page_id: string; incident_id: string; reason: PageReason; at: string; repage_at: string | null }>
  /** Surge protection: alert_surge_threshold consecutive pages; problem pages pause until `until`. */
  | DomainEvent<'AlertsPaused', Ids & { until: string; consecutive_alerts: number; at: string }>
  | SuppressionEvent;
