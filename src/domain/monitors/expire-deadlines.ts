import { reviewSuppressed } from './maintenance-suppression.js';
import { hungRunCause, missedCause } from './causes.js';
import { resolveOpen } from './incident-decisions.js';
import type { MonitorCommandOf } from './monitor-commands.js';
import type { MonitorConfig } from './monitor-config.js';
import type { CheckInUnheardData, DeadlineObservation, MonitorEvent, PingCounters, RunOverdueData, UnheardObservation } from './monitor-events.js';
import { type MonitorState, awaitsFirstPing, openIncidentOf } from './monitor-state.js';
import { EARLY_CHECKIN_MS, addSeconds, isUptimeType, nextExpectedAfter, parseInterval } from './schedule.js';
import { NOTHING_KNOWN, type Outage, overlapping, unheardStretches } from '../listening/listening.js';

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
 *
 * A deadline Vigil could not have heard met is not Vigil's word against the job's: a slot whose
 * check-in could have arrived while Vigil was not listening (`command.listening`: its outages,
 * and the silence since its last confirmation when that is overdue) is recorded unheard, counting
 * toward nothing; a run under way then is forgotten unheard instead of reported hung.
 */
export function expireDeadlines(state: MonitorState, config: MonitorConfig, command: MonitorCommandOf<'ExpireDeadlines'>): MonitorEvent[] {
  if (state.paused) return [];
  const stretches = unheardStretches(command.listening ?? NOTHING_KNOWN, command.now);
  const slots = passedSlots(state, config, command.now, stretches);
  const runs = passedRuns(state, config, command.now, stretches, countersAfter(slots) ?? countersOf(state, config, {}));
  const observed = [...slots, ...runs];
  const counted = observed.filter((e): e is DeadlineObservation => e.type === 'CheckInMissed' || e.type === 'RunOverdue');
  return [...observed, ...followUpDeadlines(state, config, counted, command.incident_ids), ...reviewSuppressed(state, command.now, command.review_suppressed === true, config)];
}

/** Whether a fire's observations need Vigil's outages to be decided: only a miss or an overdue run does. */
export function needsListening(events: readonly MonitorEvent[]): boolean {
  return events.some((e) => e.type === 'CheckInMissed' || e.type === 'RunOverdue');
}

const countersAfter = (events: readonly (DeadlineObservation | UnheardObservation)[]): PingCounters | null => events.at(-1)?.data.counters ?? null;

/**
 * When the check-in meeting the slot expected at `expected` could have arrived: for an interval,
 * from one interval before it (the last check-in); for a calendar, from the early check-in
 * allowance before it. Until its deadline.
 */
function slotOpensAt(config: MonitorConfig, expected: string): string {
  const interval = config.type === 'JOB_HEARTBEAT' ? parseInterval(config.schedule) : null;
  return new Date(Date.parse(expected) - (interval ?? EARLY_CHECKIN_MS)).toISOString();
}

function passedSlots(state: MonitorState, config: MonitorConfig, now: string, stretches: readonly Outage[]): (DeadlineObservation | UnheardObservation)[] {
  const ids = { monitor_id: state.monitorId, project_id: state.projectId };
  const events: (DeadlineObservation | UnheardObservation)[] = [];
  // Uptime monitors are checked by Vigil itself: a late check is the checker's business, not a miss.
  // A job that has never checked in is waiting for its first ping: nothing is overdue yet.
  let expected = isUptimeType(config.type) || awaitsFirstPing(state) ? null : state.nextExpectedAt;
  let misses = state.consecutiveMisses;
  let unheard: CheckInUnheardData | null = null;
  for (let slot = 0; slot < MAX_SLOTS_PER_EXPIRY && expected !== null; slot += 1) {
    const deadline = addSeconds(expected, config.grace_period_seconds);
    if (Date.parse(deadline) > Date.parse(now)) break;
    const following = nextExpectedAfter(config.type, config.schedule, config.timezone, expected);
    const outage = overlapping(stretches, slotOpensAt(config, expected), deadline);
    if (outage) {
      const counters = countersOf(state, config, { consecutive_misses: misses, next_expected_at: following });
      const sameOutage = unheard !== null && unheard.outage_from === outage.from && unheard.outage_to === outage.to;
      // Slots in a row unheard in the same outage are one observation: an outage of a day must not flood the history.
      if (sameOutage) Object.assign(unheard!, { last_expected_at: expected, deadline_at: deadline, slots: unheard!.slots + 1, next_expected_at: following, counters });
      else {
        unheard = { ...ids, expected_at: expected, last_expected_at: expected, deadline_at: deadline, slots: 1, outage_from: outage.from, outage_to: outage.to, next_expected_at: following, counters };
        events.push({ type: 'CheckInUnheard', data: unheard });
      }
    } else {
      unheard = null;
      misses += 1;
      const counters = countersOf(state, config, { consecutive_misses: misses, next_expected_at: following });
      events.push({ type: 'CheckInMissed', data: { ...ids, expected_at: expected, deadline_at: deadline, consecutive_misses: misses, next_expected_at: following, counters } });
    }
    expected = following;
  }
  return events;
}

/**
 * Runs past max_duration_seconds; on JOB_BASIC the watchdog also fails them. A run under way while
 * Vigil could not hear may have sent its completion then: it is forgotten, unheard. `after`: the
 * counters after this fire's slots.
 */
function passedRuns(state: MonitorState, config: MonitorConfig, now: string, stretches: readonly Outage[], after: PingCounters): (DeadlineObservation | UnheardObservation)[] {
  const max = config.max_duration_seconds;
  if (max === null) return [];
  const ids = { monitor_id: state.monitorId, project_id: state.projectId };
  const watchdog = config.type === 'JOB_BASIC';
  let failures = state.consecutiveFailures;
  return state.openRuns
    .filter((run) => !run.overdue && Date.parse(addSeconds(run.started_at, max)) <= Date.parse(now))
    .map((run) => {
      const deadline_at = addSeconds(run.started_at, max);
      const run_ = { start_ping_id: run.ping_id, run_id: run.run_id, started_at: run.started_at, deadline_at };
      const outage = overlapping(stretches, run.started_at, deadline_at);
      if (outage) return { type: 'RunUnheard' as const, data: { ...ids, ...run_, outage_from: outage.from, outage_to: outage.to, counters: { ...after, consecutive_failures: failures } } };
      if (watchdog) failures += 1;
      const data: RunOverdueData = { ...ids, ...run_, closed_as_failure: watchdog, consecutive_failures: failures, counters: { ...after, consecutive_failures: failures } };
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
    if (!slowOpen) {
      // The job's runs cannot both take too long and too little: the newest run out of range says
      // which, as a SUCCESS too slow resolves "finished sooner" (receive-ping.ts).
      events.push(...resolveOpen(state, ['DURATION_LOW'], data.deadline_at, { by_kind: 'system', reason: 'RUN_TOO_SLOW' }));
      open(incidentIds.overdue, 'DURATION_HIGH', hungRunCause(data.started_at, max, false), data.deadline_at, data.start_ping_id);
    }
    slowOpen = true;
    if (data.closed_as_failure && data.consecutive_failures >= config.failure_tolerance) {
      down('FAILURES', data.deadline_at);
      if (!failedOpen) open(incidentIds.failed, 'FAILED', hungRunCause(data.started_at, max, true), data.deadline_at, data.start_ping_id);
      failedOpen = true;
    }
  }
  return events;
}
