import type { Decider, DomainEvent } from '../decider.js';
import { invalid, notFound } from '../errors.js';
import { withPages } from './paging.js';
import { type PagingCircumstances, withCircumstances } from './circumstances.js';
import { type SuppressedProblem, type SuppressionEvent, clearSuppressed, evolveSuppression, reviewSuppressed, withRepagesHeld, withoutSuppressed } from './maintenance-suppression.js';
import { checkFailureCause, failureCause, hungRunCause, missedCause, sslExpiringCause, tooFastCause, tooSlowCause } from './causes.js';
import { addSeconds, isUptimeType, nextExpectedAfter, nextExpectedAfterCheckIn } from './schedule.js';
import type { PageReason } from '../notifications/page.js';
import { INCIDENT_KINDS, type IncidentKind, type IncidentStatus, type UserActor } from './incidents.js';
import { type DnsCheckConfig, type MonitorConfig, type TcpCheckConfig, type UptimeConfig, DNS_DEFAULTS, TCP_DEFAULTS, UPTIME_DEFAULTS, assertConsistent } from './monitor-config.js';
import { type DurationAssertion, type OpenRun, type PingKind, OPEN_RUNS_KEPT, assessDuration, effectiveKind, matchingStart, sameRun } from './pings.js';

type Ids = { monitor_id: string; project_id: string };

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
  message: string | null;
  payload: string | null;
  payload_truncated: boolean;
  payload_bytes: number | null;
  request_ip: string | null;
  request_ua: string | null;
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
  consecutive_failures: number;
  last_success_at: string | null;
  next_expected_at: string | null;
  retention_count: number;
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
   */
  | DomainEvent<
      'RunOverdue',
      Ids & { start_ping_id: string; run_id: string | null; started_at: string; deadline_at: string; closed_as_failure: boolean; consecutive_failures: number }
    >
  /** A slot passed its deadline (expected time + grace) without a check-in; stamped at the deadline. */
  | DomainEvent<'CheckInMissed', Ids & { expected_at: string; deadline_at: string; consecutive_misses: number; next_expected_at: string | null }>
  | DomainEvent<'MonitorWentUp', Ids & { reason: 'SUCCESS_PING' | 'FORCED'; at: string }>
  | DomainEvent<'PingReceived', PingReceivedData>
  /** Recorded with the pings (the monitor's observations), so retention applies to both alike. */
  | DomainEvent<'CheckCompleted', CheckCompletedData>
  | DomainEvent<
      'IncidentOpened',
      Ids & { incident_id: string; event: IncidentKind; cause: string; started_at: string; monitor_name: string; monitor_slug: string; ping_id: string | null }
    >
  | DomainEvent<'IncidentAcknowledged', Ids & { incident_id: string; acknowledged_at: string } & UserActor>
  | DomainEvent<'IncidentResolved', IncidentResolvedData>
  | DomainEvent<'MonitorDeleted', Ids & { deleted_at: string }>
  /** A page to send about an incident; the notifier fans it out to the monitor's channels. */
  | DomainEvent<'PageScheduled', Ids & { page_id: string; incident_id: string; reason: PageReason; at: string; repage_at: string | null }>
  /** Surge protection: alert_surge_threshold consecutive pages; problem pages pause until `until`. */
  | DomainEvent<'AlertsPaused', Ids & { until: string; consecutive_alerts: number; at: string }>
  | SuppressionEvent;

export type UptimePatch = Partial<UptimeConfig>;
export type MonitorPatch = Partial<Omit<MonitorConfig, 'uptime' | 'tcp' | 'dns' | 'type'>> & { uptime?: UptimePatch; tcp?: Partial<TcpCheckConfig>; dns?: Partial<DnsCheckConfig> };


export type MonitorCommand =
  | { type: 'CreateMonitor'; monitor_id: string; project_id: string; config: MonitorConfig; now: string }
  | { type: 'UpdateMonitor'; monitor_id: string; patch: MonitorPatch; last_ping_seq: number | null; now: string }
  | { type: 'PauseMonitor'; monitor_id: string; now: string }
  | { type: 'ResumeMonitor'; monitor_id: string; now: string }
  | { type: 'ForceMonitorUp'; monitor_id: string; by: UserActor; now: string }
  /** `incident_id` is used if the ping opens an incident. */
  | { type: 'ReceivePing'; monitor_id: string; ping: IncomingPing; incident_id: string; repage_after_seconds: number; now: string; circumstances?: PagingCircumstances }
  | { type: 'AcknowledgeIncident'; monitor_id: string; incident_id: string; by: UserActor; now: string }
  | { type: 'ResolveIncident'; monitor_id: string; incident_id: string; by: UserActor; now: string }
  | { type: 'DeleteMonitor'; monitor_id: string; now: string }
  /** From the checker: the outcome of one check, after its retries. */
  | {
      type: 'RecordCheck';
      monitor_id: string;
      check: CheckObservation;
      incident_ids: { failed: string; ssl: string };
      ssl_warning_days: number;
      repage_after_seconds: number;
      now: string;
      circumstances?: PagingCircumstances;
    }
  /** From the timer: account for every slot and every run whose deadline has passed by `now`. */
  | {
      type: 'ExpireDeadlines';
      monitor_id: string;
      incident_ids: { missed: string; overdue: string; failed: string };
      repage_after_seconds: number;
      now: string;
      circumstances?: PagingCircumstances;
      /** A maintenance window that held back one of its problems changed or ended: look at them all again. */
      review_suppressed?: boolean;
    };

export interface MonitorState {
  lifecycle: 'absent' | 'active' | 'deleted';
  monitorId: string;
  projectId: string;
  config: MonitorConfig | null;
  health: 'UP' | 'DOWN';
  paused: boolean;
  consecutiveFailures: number;
  consecutiveMisses: number;
  /** The next slot a check-in is expected for; null for JOB_BASIC. Kept while paused, recomputed on resume. */
  nextExpectedAt: string | null;
  totalPings: number;
  lastSuccessAt: string | null;
  lastCheckinAt: string | null;
  openRuns: readonly OpenRun[];
  incidents: ReadonlyMap<string, IncidentState>;
  consecutiveAlerts: number;
  alertsPausedUntil: string | null;
  /** Problems a maintenance window held back, by kind: opened when it ends if still there. */
  suppressed: ReadonlyMap<IncidentKind, SuppressedProblem>;
}

export interface IncidentState {
  kind: IncidentKind;
  status: IncidentStatus;
  /** Whether anyone was paged about it (so acknowledgement and recovery are told to the same people). */
  paged: boolean;
  /** When to page again while it stays OPEN; null when acknowledged, resolved or never paged. */
  repageAt: string | null;
}

export const monitorStream = (monitorId: string) => `monitor-${monitorId}`;
/** Pings live apart from the monitor so that retention can truncate them alone. */
export const pingStream = (monitorId: string) => `pings-${monitorId}`;

/**
 * Waiting for its first ping: a job that has never checked in (a START, SUCCESS or FAILURE while
 * not paused; a LOG only records output). Its deadlines are not counted until then.
 * `last_checkin_at` rides on every ping, so this survives the retention of old pings.
 */
export function awaitsFirstPing(state: MonitorState): boolean {
  return state.lastCheckinAt === null;
}

export function openIncidentOf(state: MonitorState, kind: IncidentKind): string | null {
  for (const [id, incident] of state.incidents) if (incident.kind === kind && incident.status !== 'RESOLVED') return id;
  return null;
}

function withIncident(state: MonitorState, id: string, changes: Partial<IncidentState> & Pick<IncidentState, 'kind'>): MonitorState {
  const current = state.incidents.get(id) ?? { status: 'OPEN' as const, paged: false, repageAt: null };
  return { ...state, incidents: new Map(state.incidents).set(id, { ...current, ...changes }) };
}

/** Only the fields sent change. Uptime fields sent to a monitor without them start from the defaults. */
export function mergeConfig(config: MonitorConfig, patch: MonitorPatch): MonitorConfig {
  const { uptime: uptimePatch, tcp: tcpPatch, dns: dnsPatch, ...rest } = patch;
  const changes = (part: object | undefined): part is object => part !== undefined && Object.keys(part).length > 0;
  const uptime = changes(uptimePatch) ? { ...(config.uptime ?? { ...UPTIME_DEFAULTS, uptime_url: '' }), ...uptimePatch } : config.uptime;
  const merged: MonitorConfig = { ...config, ...rest, uptime };
  if (changes(tcpPatch)) merged.tcp = { ...(config.tcp ?? { ...TCP_DEFAULTS, tcp_host: '', tcp_port: 0 }), ...tcpPatch };
  if (changes(dnsPatch)) merged.dns = { ...(config.dns ?? { ...DNS_DEFAULTS, dns_hostname: '' }), ...dnsPatch };
  return merged;
}

export const monitorDecider: Decider<MonitorCommand, MonitorState, MonitorEvent> = {
  initialState: () => ({
    lifecycle: 'absent',
    monitorId: '',
    projectId: '',
    config: null,
    health: 'UP',
    paused: false,
    consecutiveFailures: 0,
    consecutiveMisses: 0,
    nextExpectedAt: null,
    totalPings: 0,
    lastSuccessAt: null,
    lastCheckinAt: null,
    openRuns: [],
    incidents: new Map(),
    consecutiveAlerts: 0,
    alertsPausedUntil: null,
    suppressed: new Map(),
  }),

  evolve(state, event) {
    switch (event.type) {
      case 'MonitorCreated':
        return {
          ...state,
          lifecycle: 'active',
          monitorId: event.data.monitor_id,
          projectId: event.data.project_id,
          config: event.data.config,
          nextExpectedAt: event.data.next_expected_at,
        };
      case 'MonitorUpdated':
        return { ...state, config: event.data.config, nextExpectedAt: event.data.next_expected_at };
      case 'MonitorPaused':
        // A pause forgets the runs under way: none may be reported hung with a deadline inside it.
        return { ...state, paused: true, openRuns: [] };
      case 'MonitorResumed':
        return { ...state, paused: false, nextExpectedAt: event.data.next_expected_at };
      case 'MonitorCountersReset':
        return { ...state, consecutiveFailures: 0, consecutiveMisses: 0, consecutiveAlerts: 0 };
      case 'CheckInMissed':
        return { ...state, consecutiveMisses: event.data.consecutive_misses, nextExpectedAt: event.data.next_expected_at };
      case 'RunOverdue': {
        // The run stays open, marked: its completion may still arrive, and is measured from its START.
        const { start_ping_id, closed_as_failure, consecutive_failures } = event.data;
        const openRuns = state.openRuns.map((run) => (run.ping_id === start_ping_id ? { ...run, overdue: true, counted_as_failure: closed_as_failure } : run));
        return { ...state, openRuns, consecutiveFailures: consecutive_failures };
      }
      case 'MonitorWentDown':
        return { ...state, health: 'DOWN' };
      case 'MonitorWentUp':
        // Recovery ends a surge: paging starts counting afresh.
        return { ...state, health: 'UP', consecutiveAlerts: 0, alertsPausedUntil: null };
      case 'PingReceived': {
        const d = event.data;
        let openRuns = state.openRuns.filter((run) => run.ping_id !== d.closed_start_ping_id);
        if (d.evaluated && d.event === 'START') openRuns = [...openRuns, { ping_id: d.ping_id, run_id: d.run_id, started_at: d.received_at, overdue: false, counted_as_failure: false }].slice(-OPEN_RUNS_KEPT);
        return {
          ...state,
          consecutiveFailures: d.consecutive_failures,
          consecutiveMisses: d.consecutive_misses,
          nextExpectedAt: d.next_expected_at,
          totalPings: d.total_pings_received,
          lastSuccessAt: d.last_success_at,
          lastCheckinAt: d.last_checkin_at,
          openRuns,
        };
      }
      case 'CheckCompleted':
        return {
          ...state,
          consecutiveFailures: event.data.consecutive_failures,
          lastSuccessAt: event.data.last_success_at,
          nextExpectedAt: event.data.next_expected_at,
        };
      case 'IncidentOpened':
        return withoutSuppressed(withIncident(state, event.data.incident_id, { kind: event.data.event, status: 'OPEN' }), event.data.event);
      case 'IncidentAcknowledged': {
        const incident = state.incidents.get(event.data.incident_id);
        return incident ? withIncident(state, event.data.incident_id, { kind: incident.kind, status: 'ACKNOWLEDGED', repageAt: null }) : state;
      }
      case 'IncidentResolved': {
        const incident = state.incidents.get(event.data.incident_id);
        return incident ? withIncident(state, event.data.incident_id, { kind: incident.kind, status: 'RESOLVED', repageAt: null }) : state;
      }
      case 'PageScheduled': {
        const incident = state.incidents.get(event.data.incident_id);
        const problem = event.data.reason === 'opened' || event.data.reason === 'repage';
        const next = incident ? withIncident(state, event.data.incident_id, { kind: incident.kind, paged: true, repageAt: problem ? event.data.repage_at : incident.repageAt }) : state;
        return problem ? { ...next, consecutiveAlerts: state.consecutiveAlerts + 1 } : next;
      }
      case 'AlertsPaused':
        return { ...state, alertsPausedUntil: event.data.until, consecutiveAlerts: event.data.consecutive_alerts };
      case 'MonitorDeleted':
        return { ...state, lifecycle: 'deleted' };
      case 'IncidentSuppressed':
      case 'SuppressedIncidentCleared':
      case 'RepageHeld':
        return evolveSuppression(state, event);
      default: {
        const exhaustive: never = event;
        return exhaustive;
      }
    }
  },

  decide(command, state) {
    const circumstances = 'circumstances' in command ? command.circumstances : undefined;
    const repageDue = command.type === 'ExpireDeadlines' && !state.paused;
    const circumstantial = withCircumstances(state, decideWithoutPaging(command, state), circumstances);
    const decided = repageDue ? withRepagesHeld(state, circumstantial, circumstances?.maintenance ?? null, command.now) : circumstantial;
    if (state.config === null || decided.length === 0 && command.type !== 'ExpireDeadlines') return decided;
    const repageAfterSeconds = 'repage_after_seconds' in command ? command.repage_after_seconds : 0;
    return withPages(state, state.config, decided, { now: command.now, repageAfterSeconds, repageDue }, monitorDecider.evolve);
  },
};

function decideWithoutPaging(command: MonitorCommand, state: MonitorState): MonitorEvent[] {
  {
    if (command.type === 'CreateMonitor') {
      if (state.lifecycle !== 'absent') return [];
      assertConsistent(command.config, command.now);
      const { monitor_id, project_id, config, now } = command;
      return [{ type: 'MonitorCreated', data: { monitor_id, project_id, config, created_at: now, next_expected_at: firstExpected(config, now) } }];
    }
    if (state.lifecycle !== 'active' || state.config === null) throw notFound('monitor not found');
    const ids = { monitor_id: state.monitorId, project_id: state.projectId };
    const config = state.config;
    switch (command.type) {
      case 'UpdateMonitor': {
        const next = mergeConfig(config, command.patch);
        assertConsistent(next, command.now, config);
        if (JSON.stringify(next) === JSON.stringify(config)) return [];
        // A new schedule counts from now, as a new monitor would.
        const rescheduled = next.schedule !== config.schedule || next.timezone !== config.timezone;
        const nextExpected = rescheduled ? firstExpected(next, command.now) : state.nextExpectedAt;
        return [{ type: 'MonitorUpdated', data: { ...ids, config: next, updated_at: command.now, last_ping_seq: command.last_ping_seq, next_expected_at: nextExpected } }];
      }
      case 'PauseMonitor':
        return state.paused ? [] : [{ type: 'MonitorPaused', data: { ...ids, paused_at: command.now } }];
      case 'ResumeMonitor':
        return state.paused ? [{ type: 'MonitorResumed', data: { ...ids, resumed_at: command.now, next_expected_at: firstExpected(config, command.now) } }] : [];
      case 'ForceMonitorUp':
        return [
          { type: 'MonitorCountersReset', data: { ...ids, reset_at: command.now } },
          ...(state.health === 'DOWN' ? [{ type: 'MonitorWentUp' as const, data: { ...ids, reason: 'FORCED' as const, at: command.now } }] : []),
          ...resolveOpen(state, ['MISSED', 'FAILED'], command.now, { by_kind: 'user', ...command.by, reason: 'FORCED_UP' }),
        ];
      case 'ReceivePing':
        // Its state is what Vigil's own checks find: a ping (anyone with its URL) must not push the
        // next check back or close an outage the checks see.
        if (isUptimeType(config.type)) throw invalid(`monitor ${state.monitorId} is ${config.type}: Vigil checks it itself, so it takes no pings`);
        return receivePing(state, config, command);
      case 'AcknowledgeIncident': {
        const incident = state.incidents.get(command.incident_id);
        if (!incident) throw notFound('incident not found');
        if (incident.status !== 'OPEN') throw invalid(`only an OPEN incident can be acknowledged; this one is ${incident.status}`);
        return [{ type: 'IncidentAcknowledged', data: { ...ids, incident_id: command.incident_id, acknowledged_at: command.now, ...command.by } }];
      }
      case 'ResolveIncident': {
        const incident = state.incidents.get(command.incident_id);
        if (!incident) throw notFound('incident not found');
        if (incident.status === 'RESOLVED') throw invalid('the incident is already RESOLVED');
        return [
          {
            type: 'IncidentResolved',
            data: { ...ids, incident_id: command.incident_id, resolved_at: command.now, by_kind: 'user', ...command.by, reason: null },
          },
        ];
      }
      case 'DeleteMonitor':
        // Its incidents outlive it, archived; one still open (the API resolves them first, but a
        // ping may have opened one since) would stay open with nothing left to resolve it.
        return [
          ...resolveOpen(state, INCIDENT_KINDS, command.now, { by_kind: 'system', reason: 'MONITOR_DELETED' }),
          { type: 'MonitorDeleted', data: { ...ids, deleted_at: command.now } },
        ];
      case 'ExpireDeadlines':
        return expireDeadlines(state, config, command);
      case 'RecordCheck':
        return recordCheck(state, config, command);
      default: {
        const exhaustive: never = command;
        return exhaustive;
      }
    }
  }
}

function resolveOpen(
  state: MonitorState,
  kinds: readonly IncidentKind[],
  now: string,
  by: Pick<IncidentResolvedData, 'by_kind' | 'reason'> & Partial<UserActor>,
): MonitorEvent[] {
  return [...clearSuppressed(state, kinds, now, by.reason ?? by.by_kind), ...kinds.flatMap((kind) => {
    const incidentId = openIncidentOf(state, kind);
    if (!incidentId) return [];
    return [
      {
        type: 'IncidentResolved' as const,
        data: {
          monitor_id: state.monitorId,
          project_id: state.projectId,
          incident_id: incidentId,
          resolved_at: now,
          by_kind: by.by_kind,
          user_id: by.user_id ?? null,
          email: by.email ?? null,
          api_key_id: by.api_key_id ?? null,
          reason: by.reason,
        },
      },
    ];
  })];
}

/**
 * Records the ping and, unless the monitor is paused, evaluates it. Decisions are level-triggered
 * (failures at or past tolerance with no FAILED incident open → open one), so a transition lost
 * to a crash between the two appends is made on the next ping.
 */
function receivePing(state: MonitorState, config: MonitorConfig, command: Extract<MonitorCommand, { type: 'ReceivePing' }>): MonitorEvent[] {
  const { ping, now } = command;
  const ids = { monitor_id: state.monitorId, project_id: state.projectId };
  const kind = effectiveKind(ping.event, ping.exit_code);
  if (state.paused) {
    const recorded = pingReceived(state, config, command, {
      event: kind,
      duration_ms: ping.duration_ms,
      duration_assertion: null,
      started_at: null,
      evaluated: false,
      closed_start_ping_id: null,
      consecutive_failures: state.consecutiveFailures,
      consecutive_misses: state.consecutiveMisses,
      last_success_at: state.lastSuccessAt,
      last_checkin_at: state.lastCheckinAt,
      next_expected_at: state.nextExpectedAt,
    });
    return [{ type: 'PingReceived', data: recorded }];
  }

  const completes = kind === 'SUCCESS' || kind === 'FAILURE';
  const start = completes ? matchingStart(state.openRuns, ping.run_id) : null;
  // Left open, the START this one replaces would be reported hung after max_duration_seconds.
  const replaced = kind === 'START' ? sameRun(state.openRuns, ping.run_id) : null;
  const durationMs = ping.duration_ms ?? (start ? Math.max(0, Date.parse(now) - Date.parse(start.started_at)) : null);
  const assertion = completes ? assessDuration(durationMs, config.min_duration_seconds, config.max_duration_seconds) : null;
  // A FAILURE of a run the watchdog already failed is the same failure, counted once.
  const failureCounted = kind === 'FAILURE' && !start?.counted_as_failure;
  const failures = failureCounted ? state.consecutiveFailures + 1 : kind === 'SUCCESS' ? 0 : state.consecutiveFailures;
  // START, SUCCESS and FAILURE are check-ins: they satisfy the schedule. LOG only records output.
  const checkIn = kind !== 'LOG';
  const recorded = pingReceived(state, config, command, {
    event: kind,
    duration_ms: completes ? durationMs : ping.duration_ms,
    duration_assertion: assertion,
    started_at: start?.started_at ?? null,
    evaluated: true,
    closed_start_ping_id: (start ?? replaced)?.ping_id ?? null,
    consecutive_failures: failures,
    consecutive_misses: checkIn ? 0 : state.consecutiveMisses,
    last_success_at: kind === 'SUCCESS' ? now : state.lastSuccessAt,
    last_checkin_at: checkIn ? now : state.lastCheckinAt,
    // A completion of a run whose START was counted already is no early check-in for the next slot:
    // that would hide a run that never started (a job that started at 10:25 and ended at 10:29:20
    // would stand for the one due at 10:30).
    next_expected_at: checkIn
      ? start
        ? nextExpectedAfter(config.type, config.schedule, config.timezone, now)
        : nextExpectedAfterCheckIn(config.type, config.schedule, config.timezone, now)
      : state.nextExpectedAt,
  });
  const events: MonitorEvent[] = [{ type: 'PingReceived', data: recorded }];
  const open = (event: IncidentKind, cause: string): MonitorEvent => ({
    type: 'IncidentOpened',
    data: { ...ids, incident_id: command.incident_id, event, cause, started_at: now, monitor_name: config.name, monitor_slug: config.slug, ping_id: ping.ping_id },
  });

  if (kind === 'FAILURE' && failures >= config.failure_tolerance) {
    if (state.health === 'UP') events.push({ type: 'MonitorWentDown', data: { ...ids, reason: 'FAILURES', at: now } });
    if (!openIncidentOf(state, 'FAILED')) events.push(open('FAILED', failureCause(failures, ping.exit_code, ping.message)));
  }
  if (kind === 'SUCCESS') {
    if (state.health === 'DOWN') events.push({ type: 'MonitorWentUp', data: { ...ids, reason: 'SUCCESS_PING', at: now } });
    events.push(...resolveOpen(state, ['MISSED', 'FAILED'], now, { by_kind: 'system', reason: 'SUCCESS_PING' }));
    // A SUCCESS resolves the monitor's incidents (docs/api.md, incident states), but not a duration
    // incident that this very run is out of range for again.
    const stillOutOfRange = assertion === 'TOO_SLOW' ? 'DURATION_HIGH' : assertion === 'TOO_FAST' ? 'DURATION_LOW' : null;
    const durationIncidents = (['DURATION_HIGH', 'DURATION_LOW'] as const).filter((kind) => kind !== stillOutOfRange);
    events.push(...resolveOpen(state, durationIncidents, now, { by_kind: 'system', reason: assertion === 'PASS' ? 'DURATION_IN_RANGE' : 'SUCCESS_PING' }));
    if (assertion === 'TOO_SLOW' && durationMs !== null && config.max_duration_seconds !== null && !openIncidentOf(state, 'DURATION_HIGH')) {
      events.push(open('DURATION_HIGH', tooSlowCause(durationMs, config.max_duration_seconds)));
    }
    if (assertion === 'TOO_FAST' && durationMs !== null && config.min_duration_seconds !== null && !openIncidentOf(state, 'DURATION_LOW')) {
      events.push(open('DURATION_LOW', tooFastCause(durationMs, config.min_duration_seconds)));
    }
  }
  return events;
}

type PingEvaluation = Pick<
  PingReceivedData,
  | 'event'
  | 'duration_ms'
  | 'duration_assertion'
  | 'started_at'
  | 'evaluated'
  | 'closed_start_ping_id'
  | 'consecutive_failures'
  | 'consecutive_misses'
  | 'last_success_at'
  | 'last_checkin_at'
  | 'next_expected_at'
>;

/**
 * The ping as received with what evaluating it found, named field by field rather than spread:
 * V8 (Node 20) builds an object literal that adds keys after a spread on a slow path, ~10-20 µs
 * for this one, and it is made for every ping.
 */
function pingReceived(state: MonitorState, config: MonitorConfig, command: Extract<MonitorCommand, { type: 'ReceivePing' }>, found: PingEvaluation): PingReceivedData {
  const { ping } = command;
  return {
    monitor_id: state.monitorId,
    project_id: state.projectId,
    event: found.event,
    run_id: ping.run_id,
    exit_code: ping.exit_code,
    duration_ms: found.duration_ms,
    message: ping.message,
    payload: ping.payload,
    payload_truncated: ping.payload_truncated,
    payload_bytes: ping.payload_bytes,
    request_ip: ping.request_ip,
    request_ua: ping.request_ua,
    ping_id: ping.ping_id,
    received_at: command.now,
    total_pings_received: state.totalPings + 1,
    retention_count: config.retention_count,
    duration_assertion: found.duration_assertion,
    started_at: found.started_at,
    evaluated: found.evaluated,
    closed_start_ping_id: found.closed_start_ping_id,
    consecutive_failures: found.consecutive_failures,
    consecutive_misses: found.consecutive_misses,
    last_success_at: found.last_success_at,
    last_checkin_at: found.last_checkin_at,
    next_expected_at: found.next_expected_at,
  };
}

/** Uptime monitors are checked at once; jobs are expected one interval or slot later. */
function firstExpected(config: MonitorConfig, from: string): string | null {
  return isUptimeType(config.type) ? from : nextExpectedAfter(config.type, config.schedule, config.timezone, from);
}

/** Slots accounted for in one command; a longer backlog is worked off by the timer's next fires. */
export const MAX_SLOTS_PER_EXPIRY = 1000;

/**
 * Every slot whose deadline (expected time + grace) has passed counts as one miss, stamped at its
 * own deadline: after downtime each missed slot is accounted for once, in order. Reaching
 * schedule_tolerance makes the monitor DOWN and opens one MISSED incident; later misses only
 * count. A repeated or stale fire finds nothing due and records nothing.
 */
function expireDeadlines(state: MonitorState, config: MonitorConfig, command: Extract<MonitorCommand, { type: 'ExpireDeadlines' }>): MonitorEvent[] {
  if (state.paused) return [];
  const ids = { monitor_id: state.monitorId, project_id: state.projectId };
  const events: MonitorEvent[] = [];
  // Uptime monitors are checked by Vigil itself: a late check is the checker's business, not a miss.
  // A job that has never checked in is waiting for its first ping: nothing is overdue yet.
  let expected = isUptimeType(config.type) || awaitsFirstPing(state) ? null : state.nextExpectedAt;
  let misses = state.consecutiveMisses;
  let health = state.health;
  let missedOpen = openIncidentOf(state, 'MISSED') !== null;
  for (let slot = 0; slot < MAX_SLOTS_PER_EXPIRY && expected !== null; slot += 1) {
    const deadline = addSeconds(expected, config.grace_period_seconds);
    if (Date.parse(deadline) > Date.parse(command.now)) break;
    misses += 1;
    const following = nextExpectedAfter(config.type, config.schedule, config.timezone, expected);
    events.push({ type: 'CheckInMissed', data: { ...ids, expected_at: expected, deadline_at: deadline, consecutive_misses: misses, next_expected_at: following } });
    if (misses >= config.schedule_tolerance) {
      if (health === 'UP') events.push({ type: 'MonitorWentDown', data: { ...ids, reason: 'MISSES', at: deadline } });
      health = 'DOWN';
      if (!missedOpen) {
        events.push({
          type: 'IncidentOpened',
          data: {
            ...ids, incident_id: command.incident_ids.missed, event: 'MISSED', cause: missedCause(expected, config.timezone, config.grace_period_seconds, misses),
            started_at: deadline, monitor_name: config.name, monitor_slug: config.slug, ping_id: null,
          },
        });
        missedOpen = true;
      }
    }
    expected = following;
  }
  return [...events, ...expireRuns(state, config, command, health), ...reviewSuppressed(state, command.now, command.review_suppressed === true, config)];
}

/** Runs past max_duration_seconds: DURATION_HIGH once; on JOB_BASIC the watchdog also fails them. */
function expireRuns(
  state: MonitorState,
  config: MonitorConfig,
  command: Extract<MonitorCommand, { type: 'ExpireDeadlines' }>,
  healthAfterMisses: 'UP' | 'DOWN',
): MonitorEvent[] {
  const max = config.max_duration_seconds;
  if (max === null) return [];
  const ids = { monitor_id: state.monitorId, project_id: state.projectId };
  const watchdog = config.type === 'JOB_BASIC';
  const events: MonitorEvent[] = [];
  let failures = state.consecutiveFailures;
  let health = healthAfterMisses;
  let slowOpen = openIncidentOf(state, 'DURATION_HIGH') !== null;
  let failedOpen = openIncidentOf(state, 'FAILED') !== null;
  const overdue = state.openRuns.filter((run) => !run.overdue && Date.parse(addSeconds(run.started_at, max)) <= Date.parse(command.now));
  for (const run of overdue) {
    const deadline = addSeconds(run.started_at, max);
    if (watchdog) failures += 1;
    events.push({
      type: 'RunOverdue',
      data: { ...ids, start_ping_id: run.ping_id, run_id: run.run_id, started_at: run.started_at, deadline_at: deadline, closed_as_failure: watchdog, consecutive_failures: failures },
    });
    const incident = (incident_id: string, event: 'DURATION_HIGH' | 'FAILED'): MonitorEvent => ({
      type: 'IncidentOpened',
      data: { ...ids, incident_id, event, cause: hungRunCause(run.started_at, max, event === 'FAILED'), started_at: deadline, monitor_name: config.name, monitor_slug: config.slug, ping_id: run.ping_id },
    });
    if (!slowOpen) {
      events.push(incident(command.incident_ids.overdue, 'DURATION_HIGH'));
      slowOpen = true;
    }
    if (watchdog && failures >= config.failure_tolerance) {
      if (health === 'UP') events.push({ type: 'MonitorWentDown', data: { ...ids, reason: 'FAILURES', at: deadline } });
      health = 'DOWN';
      if (!failedOpen) {
        events.push(incident(command.incident_ids.failed, 'FAILED'));
        failedOpen = true;
      }
    }
  }
  return events;
}

const DAY_MS = 86_400_000;

/**
 * One check's outcome: failed checks count toward failure_tolerance (DOWN and one FAILED incident
 * saying what failed), a passing one makes the monitor UP and resolves it. The certificate's
 * expiry opens SSL_EXPIRING once when fewer than `ssl_warning_days` remain, and resolves it once
 * a renewed certificate is seen.
 */
function recordCheck(state: MonitorState, config: MonitorConfig, command: Extract<MonitorCommand, { type: 'RecordCheck' }>): MonitorEvent[] {
  if (!isUptimeType(config.type)) throw invalid('only uptime monitors are checked');
  if (state.paused) return [];
  const { check, now } = command;
  const ids = { monitor_id: state.monitorId, project_id: state.projectId };
  const counts = check.check_status === 'ok';
  const failures = !counts ? state.consecutiveFailures : check.is_up ? 0 : state.consecutiveFailures + 1;
  const events: MonitorEvent[] = [
    {
      type: 'CheckCompleted',
      data: {
        ...ids,
        ...check,
        checked_at: now,
        consecutive_failures: failures,
        last_success_at: counts && check.is_up ? now : state.lastSuccessAt,
        next_expected_at: nextExpectedAfter(config.type, config.schedule, config.timezone, now),
        retention_count: config.retention_count,
      },
    },
  ];
  if (!counts) return events;
  const open = (incident_id: string, event: 'FAILED' | 'SSL_EXPIRING', cause: string): MonitorEvent => ({
    type: 'IncidentOpened',
    data: { ...ids, incident_id, event, cause, started_at: now, monitor_name: config.name, monitor_slug: config.slug, ping_id: null },
  });
  if (!check.is_up && failures >= config.failure_tolerance) {
    if (state.health === 'UP') events.push({ type: 'MonitorWentDown', data: { ...ids, reason: 'FAILURES', at: now } });
    if (!openIncidentOf(state, 'FAILED')) events.push(open(command.incident_ids.failed, 'FAILED', checkFailureCause(failures, check.error)));
  }
  if (check.is_up) {
    if (state.health === 'DOWN') events.push({ type: 'MonitorWentUp', data: { ...ids, reason: 'SUCCESS_PING', at: now } });
    events.push(...resolveOpen(state, ['MISSED', 'FAILED'], now, { by_kind: 'system', reason: 'CHECK_PASSED' }));
  }
  if (check.ssl_expires_at !== null) {
    const daysLeft = (Date.parse(check.ssl_expires_at) - Date.parse(now)) / DAY_MS;
    const sslOpen = openIncidentOf(state, 'SSL_EXPIRING');
    if (daysLeft < command.ssl_warning_days && !sslOpen) {
      events.push(open(command.incident_ids.ssl, 'SSL_EXPIRING', sslExpiringCause(config.uptime?.uptime_url ?? '', check.ssl_expires_at, daysLeft, check.ssl_issuer)));
    }
    if (daysLeft >= command.ssl_warning_days && sslOpen) {
      events.push(...resolveOpen(state, ['SSL_EXPIRING'], now, { by_kind: 'system', reason: 'CERTIFICATE_RENEWED' }));
    }
  }
  return events;
}
