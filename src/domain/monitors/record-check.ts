import { invalid } from '../errors.js';
import { checkFailureCause, sslExpiringCause } from './causes.js';
import { type UnsummarizedHour, hoursToSummarize, summaryWindow, withCheck } from './check-hours.js';
import type { MonitorCommandOf } from './monitor-commands.js';
import type { MonitorConfig } from './monitor-config.js';
import type { CheckCompletedData, MonitorEvent } from './monitor-events.js';
import { type MonitorState, openIncidentOf } from './monitor-state.js';
import { resolveOpen } from './incident-decisions.js';
import { isUptimeType, nextExpectedAfter } from './schedule.js';
import type { CheckObservation } from './monitor-events.js';

const DAY_MS = 86_400_000;

/**
 * One check's outcome: failed checks count toward failure_tolerance (DOWN and one FAILED incident
 * saying what failed), a passing one makes the monitor UP and resolves it. The certificate's
 * expiry opens SSL_EXPIRING once when fewer than `ssl_warning_days` remain, and resolves it once
 * a renewed certificate is seen.
 */
export function recordCheck(state: MonitorState, config: MonitorConfig, command: MonitorCommandOf<'RecordCheck'>): MonitorEvent[] {
  if (!isUptimeType(config.type)) throw invalid('only uptime monitors are checked');
  if (state.paused) return [];
  const { now } = command;
  const check = unlessStalled(command.check, config);
  const ids = { monitor_id: state.monitorId, project_id: state.projectId };
  const counts = check.check_status === 'ok';
  const failures = !counts ? state.consecutiveFailures : check.is_up ? 0 : state.consecutiveFailures + 1;
  const completed: CheckCompletedData = {
    ...ids,
    ...check,
    checked_at: now,
    check_number: state.totalChecks + 1,
    consecutive_failures: failures,
    last_success_at: counts && check.is_up ? now : state.lastSuccessAt,
    next_expected_at: nextExpectedAfter(config.type, config.schedule, config.timezone, now),
    retention_count: config.retention_count,
  };
  const unsummarized = hoursToSummarize(withCheck(state.unsummarizedHours, completed), now, config.retention_count);
  const events: MonitorEvent[] = [{ type: 'CheckCompleted', data: completed }, ...checksSummarized(state, config, unsummarized, now)];
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

/**
 * A failed check that took far longer than its timeout allows was held up by Vigil itself, not by
 * the target: the process was paused or its machine suspended while the check was under way (its
 * timeout fires the moment it wakes), or its event loop stalled. It counts for nothing, as a probe
 * error, saying why. Checks that fell due while Vigil was stopped are simply run when it starts.
 */
function unlessStalled(check: CheckObservation, config: MonitorConfig): CheckObservation {
  if (check.is_up || check.check_status !== 'ok') return check;
  const timeoutMs = config.type === 'UPTIME_TCP' ? config.tcp?.tcp_timeout_ms : config.type === 'UPTIME_DNS' ? config.dns?.dns_timeout_ms : config.uptime?.uptime_timeout_ms;
  if (timeoutMs === undefined || check.response_time_ms <= STALLED_AFTER(timeoutMs)) return check;
  const took = Math.round(check.response_time_ms / 1000);
  return { ...check, check_status: 'probe_error', error: `${check.error ?? 'failed'}; the check took ${took} s though it times out after ${timeoutMs / 1000} s: Vigil itself was held up (paused, suspended or overloaded), so it counts for nothing` };
}

/** Beyond twice its timeout and 2 s more, a check was held up by Vigil, not by what it checked. */
const STALLED_AFTER = (timeoutMs: number) => 2 * timeoutMs + 2000;

/**
 * The summaries of `hours`, each naming the hour of the one before it. Their stream's window only
 * grows: it is the largest `config` needs and the one it already has, so that the days kept at a
 * faster pace of checks stay kept.
 */
export function checksSummarized(state: MonitorState, config: MonitorConfig, hours: readonly UnsummarizedHour[], now: string): MonitorEvent[] {
  const summaries_kept = Math.max(state.lastSummary?.kept ?? 0, summaryWindow(config.schedule, config.retention_count));
  return hours.map(({ hour, total, up, down, times }, i) => ({
    type: 'ChecksSummarized',
    data: {
      monitor_id: state.monitorId, project_id: state.projectId, hour, total, up, down, times: [...times], summarized_at: now,
      previous_hour: i === 0 ? (state.lastSummary?.hour ?? null) : hours[i - 1]!.hour, summaries_kept,
    },
  }));
}
