import { invalid } from '../errors.js';
import { checkFailureCause, sslExpiringCause } from './causes.js';
import { type UnsummarizedHour, hoursToSummarize, summaryWindow, withCheck } from './check-hours.js';
import type { MonitorCommandOf } from './monitor-commands.js';
import type { MonitorConfig } from './monitor-config.js';
import type { CheckCompletedData, MonitorEvent } from './monitor-events.js';
import { type MonitorState, openIncidentOf } from './monitor-state.js';
import { resolveOpen } from './incident-decisions.js';
import { isUptimeType, nextExpectedAfter } from './schedule.js';

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
  const { check, now } = command;
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
