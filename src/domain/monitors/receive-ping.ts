import { failureCause, tooFastCause, tooSlowCause } from './causes.js';
import type { IncidentKind } from './incidents.js';
import type { MonitorCommandOf } from './monitor-commands.js';
import type { MonitorConfig } from './monitor-config.js';
import type { MonitorEvent, PingReceivedData } from './monitor-events.js';
import { type MonitorState, openIncidentOf } from './monitor-state.js';
import { resolveOpen } from './incident-decisions.js';
import { assessDuration, effectiveKind, matchingStart, sameRun } from './pings.js';
import { nextExpectedAfter, nextExpectedAfterCheckIn } from './schedule.js';

/**
 * Records the ping and, unless the monitor is paused, evaluates it. Decisions are level-triggered
 * (failures at or past tolerance with no FAILED incident open → open one), so a transition lost
 * to a crash between the two appends is made on the next ping.
 */
export function receivePing(state: MonitorState, config: MonitorConfig, command: MonitorCommandOf<'ReceivePing'>): MonitorEvent[] {
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
 * The ping as received with what evaluating it found, named field by field rather than spread, as
 * it is made for every ping.
 * why: see bench/NOTES.md#a-pings-event-data-field-by-field
 */
function pingReceived(state: MonitorState, config: MonitorConfig, command: MonitorCommandOf<'ReceivePing'>, found: PingEvaluation): PingReceivedData {
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
