import { evolveSuppression, withoutSuppressed } from './maintenance-suppression.js';
import { withCheck } from './check-hours.js';
import type { IncidentKind } from './incidents.js';
import type { MonitorEvent, PingCounters } from './monitor-events.js';
import type { IncidentState, MonitorState } from './monitor-state-shape.js';
import { openRunsAfterPing } from './pings.js';

export type { IncidentState, MonitorState } from './monitor-state-shape.js';

export function initialMonitorState(): MonitorState {
  return {
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
    lastPingAt: null,
    openRuns: [],
    incidents: new Map(),
    consecutiveAlerts: 0,
    alertsPausedUntil: null,
    suppressed: new Map(),
    totalChecks: 0,
    unsummarizedHours: [],
    lastSummary: null,
  };
}

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

/** The counters a deadline event carries (none on one from before they were carried). */
function withCounters(state: MonitorState, counters: PingCounters | null): MonitorState {
  if (counters === null) return state;
  return {
    ...state,
    consecutiveFailures: counters.consecutive_failures,
    consecutiveMisses: counters.consecutive_misses,
    nextExpectedAt: counters.next_expected_at,
    totalPings: counters.total_pings_received,
    lastSuccessAt: counters.last_success_at,
    lastCheckinAt: counters.last_checkin_at,
    lastPingAt: counters.last_ping_at,
  };
}

/**
 * The monitor's state after one of its events, from either of its streams (merged by log
 * position). Never throws: past events cannot be refused.
 */
export function evolveMonitor(state: MonitorState, event: MonitorEvent): MonitorState {
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
      return { ...withCounters(state, event.data.counters), consecutiveMisses: event.data.consecutive_misses, nextExpectedAt: event.data.next_expected_at };
    case 'RunOverdue': {
      // The run stays open, marked: its completion may still arrive, and is measured from its START.
      const { start_ping_id, closed_as_failure, consecutive_failures } = event.data;
      const openRuns = state.openRuns.map((run) => (run.ping_id === start_ping_id ? { ...run, overdue: true, counted_as_failure: closed_as_failure } : run));
      return { ...withCounters(state, event.data.counters), openRuns, consecutiveFailures: consecutive_failures };
    }
    case 'CheckInUnheard':
      return { ...withCounters(state, event.data.counters), nextExpectedAt: event.data.next_expected_at };
    case 'RunUnheard':
      // Forgotten, as a pause forgets runs: its completion may have been sent while Vigil was deaf.
      return { ...withCounters(state, event.data.counters), openRuns: state.openRuns.filter((run) => run.ping_id !== event.data.start_ping_id) };
    case 'MonitorWentDown':
      return { ...state, health: 'DOWN' };
    case 'MonitorWentUp':
      // Recovery ends a surge: paging starts counting afresh.
      return { ...state, health: 'UP', consecutiveAlerts: 0, alertsPausedUntil: null };
    case 'PingReceived': {
      const d = event.data;
      const openRuns = openRunsAfterPing(state.openRuns, d, (start) => ({ ...start, overdue: false, counted_as_failure: false }));
      return {
        ...state,
        consecutiveFailures: d.consecutive_failures,
        consecutiveMisses: d.consecutive_misses,
        nextExpectedAt: d.next_expected_at,
        totalPings: d.total_pings_received,
        lastSuccessAt: d.last_success_at,
        lastCheckinAt: d.last_checkin_at,
        lastPingAt: d.received_at,
        openRuns,
      };
    }
    case 'CheckCompleted': {
      const d = event.data;
      const counters = { consecutiveFailures: d.consecutive_failures, lastSuccessAt: d.last_success_at, nextExpectedAt: d.next_expected_at };
      // One recorded before checks were numbered stays in the log for good: nothing to summarize.
      if (d.check_number === null) return { ...state, ...counters };
      return { ...state, ...counters, totalChecks: d.check_number, unsummarizedHours: withCheck(state.unsummarizedHours, d) };
    }
    case 'ChecksSummarized':
      return {
        ...state,
        unsummarizedHours: state.unsummarizedHours.filter((h) => h.hour !== event.data.hour),
        lastSummary: { hour: event.data.hour, kept: event.data.summaries_kept },
      };
    case 'IncidentOpened':
      return withoutSuppressed(withIncident(state, event.data.incident_id, { kind: event.data.event, status: 'OPEN' }), event.data.event);
    case 'IncidentCausedUpstream':
      return state;
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
}
