import type { Decider } from '../decider.js';
import { invalid, notFound } from '../errors.js';
import { withPagingPolicies } from './paging-policies.js';
import { assertDependencies, dependenciesOf } from './dependencies.js';
import { INCIDENT_KINDS } from './incidents.js';
import { DNS_DEFAULTS, type MonitorConfig, TCP_DEFAULTS, UPTIME_DEFAULTS, assertConsistent } from './monitor-config.js';
import type { MonitorCommand, MonitorCommandOf, MonitorPatch } from './monitor-commands.js';
import type { MonitorEvent } from './monitor-events.js';
import { type MonitorState, evolveMonitor, initialMonitorState } from './monitor-state.js';
import { acknowledgeIncident, resolveIncident, resolveOpen } from './incident-decisions.js';
import { receivePing } from './receive-ping.js';
import { expireDeadlines, followUpDeadlines } from './expire-deadlines.js';
import { checksSummarized, recordCheck } from './record-check.js';
import { isUptimeType, nextExpectedAfter } from './schedule.js';

/*
 * The monitor: one decider over two streams, `monitor-<id>` and `pings-<id>` (see
 * monitor-streams.ts), folded together by log position (monitor-state.ts). The decisions live
 * by concern: pings and runs in receive-ping.ts, deadlines in expire-deadlines.ts, uptime checks
 * in record-check.ts, incidents in incident-decisions.ts, and who is paged by the chain of paging
 * policies in paging-policies.ts, applied in order to every decision; the monitor's own
 * lifecycle (create, update, pause, resume, force up, delete) here.
 */
export type { CheckCompletedData, CheckInMissedData, CheckInUnheardData, RunUnheardData, UnheardObservation, CheckObservation, ChecksSummarizedData, DeadlineObservation, PingCounters, RunOverdueData, IncidentResolvedData, IncomingPing, MonitorEvent, MonitorIds, PingReceivedData } from './monitor-events.js';
export type { MonitorCommand, MonitorCommandOf, MonitorPatch, UptimePatch } from './monitor-commands.js';
export { type IncidentState, type MonitorState, awaitsFirstPing, openIncidentOf } from './monitor-state.js';
export { monitorStream, pingStream } from './monitor-streams.js';
export { MAX_SLOTS_PER_EXPIRY } from './expire-deadlines.js';

/** Only the fields sent change. Uptime fields sent to a monitor without them start from the defaults. */
export function mergeConfig(config: MonitorConfig, patch: MonitorPatch): MonitorConfig {
  const { uptime: uptimePatch, tcp: tcpPatch, dns: dnsPatch, ...rest } = patch;
  const changes = (part: object | undefined): part is object => part !== undefined && Object.keys(part).length > 0;
  const uptime = changes(uptimePatch) ? { ...(config.uptime ?? { ...UPTIME_DEFAULTS, uptime_url: '' }), ...uptimePatch } : config.uptime;
  const merged: MonitorConfig = { ...config, ...rest, uptime };
  // A monitor sent back as read (`depends_on: []`) is no change to one recorded without the field.
  if (merged.depends_on?.length === 0 && config.depends_on === undefined) delete merged.depends_on;
  if (merged.escalation_policy_id === null && config.escalation_policy_id === undefined) delete merged.escalation_policy_id;
  if (changes(tcpPatch)) merged.tcp = { ...(config.tcp ?? { ...TCP_DEFAULTS, tcp_host: '', tcp_port: 0 }), ...tcpPatch };
  if (changes(dnsPatch)) merged.dns = { ...(config.dns ?? { ...DNS_DEFAULTS, dns_hostname: '' }), ...dnsPatch };
  return merged;
}

export const monitorDecider: Decider<MonitorCommand, MonitorState, MonitorEvent> = {
  initialState: initialMonitorState,
  evolve: evolveMonitor,

  /** What the command decides, then the paging policies in their order (paging-policies.ts). */
  decide(command, state) {
    return withPagingPolicies(decideWithoutPaging(command, state), {
      state,
      now: command.now,
      circumstances: 'circumstances' in command ? command.circumstances : undefined,
      repageDue: command.type === 'ExpireDeadlines' && !state.paused,
      repageAfterSeconds: 'repage_after_seconds' in command ? command.repage_after_seconds : 0,
    });
  },
};

function decideWithoutPaging(command: MonitorCommand, state: MonitorState): MonitorEvent[] {
  if (command.type === 'CreateMonitor') {
    if (state.lifecycle !== 'absent') return [];
    assertConsistent(command.config, command.now);
    const { monitor_id, project_id, config, now } = command;
    assertDependencies({ id: monitor_id, project_id, name: config.name }, dependenciesOf(config), [], command.dependencies);
    return [{ type: 'MonitorCreated', data: { monitor_id, project_id, config, created_at: now, next_expected_at: firstExpected(config, now) } }];
  }
  if (state.lifecycle !== 'active' || state.config === null) throw notFound('monitor not found');
  const ids = { monitor_id: state.monitorId, project_id: state.projectId };
  const config = state.config;
  switch (command.type) {
    case 'UpdateMonitor': {
      const next = mergeConfig(config, command.patch);
      assertConsistent(next, command.now, config);
      assertDependencies({ id: state.monitorId, project_id: state.projectId, name: next.name }, dependenciesOf(next), dependenciesOf(config), command.dependencies);
      if (JSON.stringify(next) === JSON.stringify(config)) return [];
      // A new schedule counts from now, as a new monitor would.
      const rescheduled = next.schedule !== config.schedule || next.timezone !== config.timezone;
      const nextExpected = rescheduled ? firstExpected(next, command.now) : state.nextExpectedAt;
      // A smaller retention must not take checks no summary covers yet.
      const leaving = state.unsummarizedHours.filter((h) => h.depth > next.retention_count);
      return [...checksSummarized(state, next, leaving, command.now), { type: 'MonitorUpdated', data: { ...ids, config: next, updated_at: command.now, last_ping_seq: command.last_ping_seq, next_expected_at: nextExpected } }];
    }
    case 'ChangeMonitor':
      return changeMonitor(state, command);
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
      // Refused as not found, so that the sender's door looks the slug up again.
      if (command.addressed_as_slug !== undefined && command.addressed_as_slug !== config.slug) throw notFound(`monitor ${state.monitorId} no longer has the slug ${command.addressed_as_slug}`);
      return receivePing(state, config, command);
    case 'AcknowledgeIncident':
      return acknowledgeIncident(state, command);
    case 'ResolveIncident':
      return resolveIncident(state, command);
    case 'DeleteMonitor':
      // Its incidents outlive it, archived; one still open (the API resolves them first, but a
      // ping may have opened one since) would stay open with nothing left to resolve it.
      return [
        ...resolveOpen(state, INCIDENT_KINDS, command.now, { by_kind: 'system', reason: 'MONITOR_DELETED' }),
        { type: 'MonitorDeleted', data: { ...ids, deleted_at: command.now } },
      ];
    case 'ExpireDeadlines':
      return expireDeadlines(state, config, command);
    case 'FollowUpDeadlines':
      return state.paused ? [] : followUpDeadlines(state, config, command.observed, command.incident_ids);
    case 'RecordCheck':
      return recordCheck(state, config, command);
    default: {
      const exhaustive: never = command;
      return exhaustive;
    }
  }
}

/** Each part of a PATCH decided on the state the part before it leaves. */
function changeMonitor(state: MonitorState, command: MonitorCommandOf<'ChangeMonitor'>): MonitorEvent[] {
  const { monitor_id, patch, status, by, last_ping_seq, now, dependencies } = command;
  const parts: MonitorCommand[] = [];
  if (Object.keys(patch).length > 0) parts.push({ type: 'UpdateMonitor', monitor_id, patch, last_ping_seq, now, ...(dependencies ? { dependencies } : {}) });
  if (status === 'PAUSED') parts.push({ type: 'PauseMonitor', monitor_id, now });
  if (status === 'UP') {
    if (by === null) throw invalid('forcing a monitor UP records who did it: it needs a user');
    parts.push({ type: 'ResumeMonitor', monitor_id, now }, { type: 'ForceMonitorUp', monitor_id, by, now });
  }
  const decided: MonitorEvent[] = [];
  let current = state;
  for (const part of parts) {
    const events = decideWithoutPaging(part, current);
    decided.push(...events);
    current = events.reduce(evolveMonitor, current);
  }
  return decided;
}

/** Uptime monitors are checked at once; jobs are expected one interval or slot later. */
function firstExpected(config: MonitorConfig, from: string): string | null {
  return isUptimeType(config.type) ? from : nextExpectedAfter(config.type, config.schedule, config.timezone, from);
}
