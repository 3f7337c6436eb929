import { reviewSuppressed } from './maintenance-suppression.js';
import { hungRunCause, missedCause } from './causes.js';
import type { MonitorCommandOf } from './monitor-commands.js';
import type { MonitorConfig } from './monitor-config.js';
import type { DeadlineObservation, MonitorEvent, PingCounters, RunOverdueData } from './monitor-events.js';
import { type MonitorState, awaitsFirstPing, openIncidentOf } from './monitor-state.js';
import { addSeconds, isUptimeType, nextExpectedAfter } from './schedule.js';

/** Slots accounted for in one command; a longer backlog is worked off by the timer's next fires. */
export const MAX_SLOTS_PER_EXPIRY = 1000;

type IncidentIds = MonitorCommandOf<'ExpireDeadlines'>['incident_ids'];

/**
 * Every slot whose deadline (expected time + grace) has passed counts as one miss, stamped at its
 * own deadline: after downtime each missed slot is accounted for once, in order. Reaching
 * schedule_tolerance makes the monitor DOWN and opens one MISSED incident; later misses only
 * count. A repeated or stale fire finds nothing due and records nothing.
 *
 * The misses and overdue runs are observations, recorded with the pings (a check-in racing the
 * fire contends for that stream); what follows from them is decided by `followUpDeadlines`, which
 * a fire whose second append lost a race decides again on the newer state.
 */
export function expireDeadlines(state: MonitorState, config: MonitorConfig, command: MonitorCommandOf<'ExpireDeadlines'>): MonitorEvent[] {
  if (state.paused) return [];
  const missed = missedSlots(state, config, command.now);
  const observed = [...missed, ...overdueRuns(state, config, command.now, missed.at(-1)?.data.counters ?? countersOf(state, config, {}))];
  return [...observed, ...followUpDeadlines(state, config, observed, command.incident_ids), ...reviewSuppressed(state, command.now, command.review_suppressed === true, config)];
}

function missedSlots(state: MonitorState, config: MonitorConfig, now: string): DeadlineObservation[] {
  const ids = { monitor_id: state.monitorId, project_id: state.projectId };
  const events: DeadlineObservation[] = [];
  // Uptime monitors are checked by Vigil itself: a late check is the checker's business, not a miss.
  // A job that has never checked in is waiting for its first ping: nothing is overdue yet.
  let expected = isUptimeType(config.type) || awaitsFirstPing(state) ? null : state.nextExpectedAt;
  let misses = state.consecutiveMisses;
  for (let slot = 0; slot < MAX_SLOTS_PER_EXPIRY && expected !== null; slot += 1) {
    const deadline = addSeconds(expected, config.grace_period_seconds);
    if (Date.parse(deadline) > Date.parse(now)) break;
    misses += 1;
    const following = nextExpectedAfter(config.type, config.schedule, config.timezone, expected);
    const counters = countersOf(state, config, { consecutive_misses: misses, next_expected_at: following });
    events.push({ type: 'CheckInMissed', data: { ...ids, expected_at: expected, deadline_at: deadline, consecutive_misses: misses, next_expected_at: following, counters } });
    expected = following;
  }
  return events;
}

/** Runs past max_duration_seconds; on JOB_BASIC the watchdog also fails them. `after`: the counters after this fire's misses. */
function overdueRuns(state: MonitorState, config: MonitorConfig, now: string, after: PingCounters): DeadlineObservation[] {
  const max = config.max_duration_seconds;
  if (max === null) return [];
  const ids = { monitor_id: state.monitorId, project_id: state.projectId };
  const watchdog = config.type === 'JOB_BASIC';
  let failures = state.consecutiveFailures;
  return state.openRuns
    .filter((run) => !run.overdue && Date.parse(addSeconds(run.started_at, max)) <= Date.parse(now))
    .map((run) => {
      if (watchdog) failures += 1;
      const data: RunOverdueData = {
        ...ids, start_ping_id: run.ping_id, run_id: run.run_id, started_at: run.started_at, deadline_at: addSeconds(run.started_at, max), closed_as_failure: watchdog,
        consecutive_failures: failures, counters: { ...after, consecutive_failures: failures },
      };
      return { type: 'RunOverdue' as const, data };
    });
}

/** The counters after a deadline, from the state before it and what the deadline changed. */
function countersOf(state: MonitorState, config: MonitorConfig, changed: Partial<PingCounters>): PingCounters {
  return {
    consecutive_failures: state.consecutiveFailures,
    consecutive_misses: state.consecutiveMisses,
    next_expected_at: state.nextExpectedAt,
    total_pings_received: state.totalPings,
    last_success_at: state.lastSuccessAt,
    last_checkin_at: state.lastCheckinAt,
    last_ping_at: state.lastPingAt,
    retention_count: config.retention_count,
    ...changed,
  };
}

/**
 * What follows from recorded deadlines: at schedule_tolerance misses the monitor goes DOWN with one
 * MISSED incident; an overdue run opens DURATION_HIGH once, and on JOB_BASIC counts as a failure
 * toward failure_tolerance (DOWN and one FAILED incident). Decided on the state's health and open
 * incidents, so deciding it again after a lost race opens nothing twice.
 */
export function followUpDeadlines(state: MonitorState, config: MonitorConfig, observed: readonly DeadlineObservation[], incidentIds: IncidentIds): MonitorEvent[] {
  const ids = { monitor_id: state.monitorId, project_id: state.projectId };
  const events: MonitorEvent[] = [];
  let health = state.health;
  let missedOpen = openIncidentOf(state, 'MISSED') !== null;
  let slowOpen = openIncidentOf(state, 'DURATION_HIGH') !== null;
  let failedOpen = openIncidentOf(state, 'FAILED') !== null;
  const down = (reason: 'MISSES' | 'FAILURES', at: string) => {
    if (health === 'UP') events.push({ type: 'MonitorWentDown', data: { ...ids, reason, at } });
    health = 'DOWN';
  };
  const open = (incident_id: string, event: 'MISSED' | 'DURATION_HIGH' | 'FAILED', cause: string, started_at: string, ping_id: string | null) =>
    events.push({ type: 'IncidentOpened', data: { ...ids, incident_id, event, cause, started_at, monitor_name: config.name, monitor_slug: config.slug, ping_id } });
  for (const { type, data } of observed) {
    if (type === 'CheckInMissed') {
      if (data.consecutive_misses < config.schedule_tolerance) continue;
      down('MISSES', data.deadline_at);
      if (!missedOpen) open(incidentIds.missed, 'MISSED', missedCause(data.expected_at, config.timezone, config.grace_period_seconds, data.consecutive_misses), data.deadline_at, null);
      missedOpen = true;
      continue;
    }
    // The maximum the run was judged by, whatever the settings are by now.
    const max = (Date.parse(data.deadline_at) - Date.parse(data.started_at)) / 1000;
    if (!slowOpen) open(incidentIds.overdue, 'DURATION_HIGH', hungRunCause(data.started_at, max, false), data.deadline_at, data.start_ping_id);
    slowOpen = true;
    if (data.closed_as_failure && data.consecutive_failures >= config.failure_tolerance) {
      down('FAILURES', data.deadline_at);
      if (!failedOpen) open(incidentIds.failed, 'FAILED', hungRunCause(data.started_at, max, true), data.deadline_at, data.start_ping_id);
      failedOpen = true;
    }
  }
  return events;
}
