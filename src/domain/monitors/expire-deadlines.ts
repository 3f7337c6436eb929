import { reviewSuppressed } from './maintenance-suppression.js';
import { hungRunCause, missedCause } from './causes.js';
import type { MonitorCommandOf } from './monitor-commands.js';
import type { MonitorConfig } from './monitor-config.js';
import type { MonitorEvent } from './monitor-events.js';
import { type MonitorState, awaitsFirstPing, openIncidentOf } from './monitor-state.js';
import { addSeconds, isUptimeType, nextExpectedAfter } from './schedule.js';

/** Slots accounted for in one command; a longer backlog is worked off by the timer's next fires. */
export const MAX_SLOTS_PER_EXPIRY = 1000;

/**
 * Every slot whose deadline (expected time + grace) has passed counts as one miss, stamped at its
 * own deadline: after downtime each missed slot is accounted for once, in order. Reaching
 * schedule_tolerance makes the monitor DOWN and opens one MISSED incident; later misses only
 * count. A repeated or stale fire finds nothing due and records nothing.
 */
export function expireDeadlines(state: MonitorState, config: MonitorConfig, command: MonitorCommandOf<'ExpireDeadlines'>): MonitorEvent[] {
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
  command: MonitorCommandOf<'ExpireDeadlines'>,
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
