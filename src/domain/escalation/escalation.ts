import type { Decider, DomainEvent } from '../decider.js';
import type { MonitorEvent } from '../monitors/monitor-events.js';
import { type MaintenanceState, type MaintenanceWindowEvent, activeWindowFor, maintenanceDecider } from '../maintenance/window.js';
import { type EscalationStep, stepDueAt } from './steps.js';

type Ids = { incident_id: string; monitor_id: string; project_id: string };

/** The policy as it stood when the escalation started: a later edit changes no running escalation. */
export interface PolicySnapshot {
  policy_id: string;
  policy_name: string;
  steps: EscalationStep[];
  repeat: number;
}

export type EscalationStopReason = 'acknowledged' | 'resolved' | 'exhausted';

export type EscalationEvent =
  /** `page_id`: the monitor's opening page, which the escalation's steps replace. */
  | DomainEvent<'EscalationStarted', Ids & PolicySnapshot & { page_id: string; started_at: string; at: string }>
  | DomainEvent<'EscalationStepReached', Ids & { step: number; round: number; page_id: string; channel_ids: string[]; urgent: boolean; due_at: string; at: string }>
  | DomainEvent<'EscalationStopped', Ids & { reason: EscalationStopReason; at: string }>
  /** A step fell due inside a maintenance window over the monitor: it is paged when the window ends (as a repage is held). */
  | DomainEvent<'EscalationStepHeld', Ids & { step: number; round: number; window_id: string; window_name: string; until: string; at: string }>;

export type EscalationCommand =
  | { type: 'StartEscalation'; incident_id: string; monitor_id: string; project_id: string; page_id: string; policy: PolicySnapshot; started_at: string; now: string }
  /**
   * Pages step `step` of round `round` to `channel_ids` (resolved by the application when it read
   * the step). Anything but the step next due, or before its time, is no decision: a timer firing
   * twice, or again after a restart, pages each step once.
   */
  | { type: 'ReachEscalationStep'; incident_id: string; round: number; step: number; channel_ids: string[]; now: string }
  | { type: 'StopEscalation'; incident_id: string; now: string };

export interface EscalationState {
  status: 'absent' | 'active' | 'stopped';
  ids: Ids | null;
  policy: PolicySnapshot | null;
  startedAt: string;
  next: { round: number; step: number } | null;
  /** Incidents of the monitor acknowledged or resolved, from the monitor's stream read beside this one. */
  closed: ReadonlyMap<string, 'acknowledged' | 'resolved'>;
  /** The project's maintenance windows, from its stream read beside this one. */
  maintenance: MaintenanceState;
  /** Until when the monitor's surge protection pauses problem pages (from the monitor's stream). */
  alertsPausedUntil: string | null;
  /** The step held, and by which window: held once per window, not at every fire. */
  held: { round: number; step: number; window_id: string } | null;
}

export const escalationStream = (incidentId: string) => `escalation-${incidentId}`;
export const escalationPageId = (incidentId: string, round: number, step: number) => `${incidentId}.escalation.${round}.${step}`;

/** The step after `at`, or null after the last step of the last round. */
export function stepAfter(policy: PolicySnapshot, at: { round: number; step: number }): { round: number; step: number } | null {
  if (at.step + 1 < policy.steps.length) return { round: at.round, step: at.step + 1 };
  if (at.round < policy.repeat) return { round: at.round + 1, step: 0 };
  return null;
}

/** When the next step is due, or null when none is left. */
export function nextStepDueAt(state: Pick<EscalationState, 'status' | 'policy' | 'startedAt' | 'next'>): string | null {
  if (state.status !== 'active' || !state.policy || !state.next) return null;
  return stepDueAt(state.startedAt, state.policy.steps, state.next.round, state.next.step);
}

type Folded = EscalationEvent | MonitorEvent | MaintenanceWindowEvent;

export const escalationDecider: Decider<EscalationCommand, EscalationState, Folded> = {
  initialState: () => ({ status: 'absent', ids: null, policy: null, startedAt: '', next: null, closed: new Map(), maintenance: maintenanceDecider.initialState(), alertsPausedUntil: null, held: null }),
  evolve(state, event) {
    switch (event.type) {
      case 'EscalationStarted': {
        const { incident_id, monitor_id, project_id, policy_id, policy_name, steps, repeat, started_at } = event.data;
        return { ...state, status: 'active', ids: { incident_id, monitor_id, project_id }, policy: { policy_id, policy_name, steps, repeat }, startedAt: started_at, next: { round: 0, step: 0 } };
      }
      case 'EscalationStepReached':
        return { ...state, next: state.policy ? stepAfter(state.policy, event.data) : null };
      case 'EscalationStopped':
        return { ...state, status: 'stopped', next: null };
      case 'EscalationStepHeld':
        return { ...state, held: { round: event.data.round, step: event.data.step, window_id: event.data.window_id } };
      case 'AlertsPaused':
        return { ...state, alertsPausedUntil: event.data.until };
      case 'MonitorWentUp':
        return { ...state, alertsPausedUntil: null };
      case 'MaintenanceWindowScheduled':
      case 'MaintenanceWindowUpdated':
      case 'MaintenanceWindowEnded':
        return { ...state, maintenance: maintenanceDecider.evolve(state.maintenance, event) };
      case 'IncidentAcknowledged':
      case 'IncidentResolved': {
        const closed = new Map(state.closed);
        // A resolution after an acknowledgement is still the acknowledgement that stopped the climb.
        if (!closed.has(event.data.incident_id)) closed.set(event.data.incident_id, event.type === 'IncidentAcknowledged' ? 'acknowledged' : 'resolved');
        return { ...state, closed };
      }
      default:
        return state;
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'StartEscalation': {
        if (state.status !== 'absent' || state.closed.has(command.incident_id) || command.policy.steps.length === 0) return [];
        const { incident_id, monitor_id, project_id, page_id, policy, started_at, now } = command;
        return [{ type: 'EscalationStarted', data: { incident_id, monitor_id, project_id, ...policy, page_id, started_at, at: now } }];
      }
      case 'StopEscalation': {
        const reason = state.closed.get(command.incident_id);
        if (state.status !== 'active' || !state.ids || !reason) return [];
        return [{ type: 'EscalationStopped', data: { ...state.ids, reason, at: command.now } }];
      }
      case 'ReachEscalationStep': {
        const { ids, policy, next } = state;
        if (state.status !== 'active' || !ids || !policy || !next) return [];
        const reason = state.closed.get(command.incident_id);
        if (reason) return [{ type: 'EscalationStopped', data: { ...ids, reason, at: command.now } }];
        if (next.round !== command.round || next.step !== command.step) return [];
        const dueAt = stepDueAt(state.startedAt, policy.steps, next.round, next.step);
        if (Date.parse(command.now) < Date.parse(dueAt)) return [];
        // Surge protection pauses every problem page of the monitor: a step due meanwhile waits for the pause's end.
        if (state.alertsPausedUntil !== null && Date.parse(state.alertsPausedUntil) > Date.parse(command.now)) return [];
        const cover = activeWindowFor(state.maintenance.windows.values(), ids.monitor_id, command.now);
        if (cover) {
          const already = state.held && state.held.round === next.round && state.held.step === next.step && state.held.window_id === cover.window_id;
          if (already) return [];
          return [{ type: 'EscalationStepHeld', data: { ...ids, step: next.step, round: next.round, window_id: cover.window_id, window_name: cover.name, until: cover.ends_at, at: command.now } }];
        }
        const step = policy.steps[next.step]!;
        const reached: EscalationEvent = {
          type: 'EscalationStepReached',
          data: {
            ...ids, step: next.step, round: next.round, page_id: escalationPageId(ids.incident_id, next.round, next.step),
            channel_ids: [...new Set(command.channel_ids)], urgent: step.urgent, due_at: dueAt, at: command.now,
          },
        };
        return stepAfter(policy, next) ? [reached] : [reached, { type: 'EscalationStopped', data: { ...ids, reason: 'exhausted', at: command.now } }];
      }
      default: {
        const exhaustive: never = command;
        return exhaustive;
      }
    }
  },
};
