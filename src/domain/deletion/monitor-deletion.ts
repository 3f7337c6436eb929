import type { Decider, DomainEvent } from '../decider.js';
import { invalid } from '../errors.js';

/**
 * What follows a monitor's `MonitorDeleted`, in this order (src/app/monitor-deletion.ts does each):
 *
 * 1. `hand_over_pages`: its pages not yet fanned out go to their own streams, which outlive it.
 * 2. `record_removal`: its project records its removal (name and slug), and its slug is freed.
 * 3. `delete_streams`: once the read models hold every event of its streams, they are hard-deleted.
 * 4. `record_streams_deletion`: its project records that its streams are gone.
 *
 * The order is the point: a page is handed over while the monitor's stream still says where it
 * goes, the removal is recorded while the name and slug can still be read, and the streams go last.
 */
export const MONITOR_DELETION_STEPS = ['hand_over_pages', 'record_removal', 'delete_streams', 'record_streams_deletion'] as const;
export type MonitorDeletionStep = (typeof MONITOR_DELETION_STEPS)[number];

type Ids = { monitor_id: string; project_id: string };

/** The deletion workflow's own record, in `monitor-deletion-<monitor id>`: which steps are done. */
export type MonitorDeletionEvent =
  | DomainEvent<'MonitorDeletionStarted', Ids & { at: string }>
  | DomainEvent<'MonitorDeletionStepCompleted', Ids & { step: MonitorDeletionStep; at: string }>
  | DomainEvent<'MonitorDeletionFinished', Ids & { at: string }>;

export type MonitorDeletionCommand =
  /** The input: the monitor's `MonitorDeleted` (or a deletion an older Vigil recorded in the project's stream). */
  | { type: 'StartMonitorDeletion'; monitor_id: string; project_id: string; now: string }
  /** A step's work is done; anything but the step next due is no decision (a resumed run repeats one). */
  | { type: 'CompleteMonitorDeletionStep'; monitor_id: string; step: MonitorDeletionStep; now: string };

export interface MonitorDeletionState {
  status: 'absent' | 'running' | 'finished';
  ids: Ids | null;
  completed: readonly MonitorDeletionStep[];
}

export const monitorDeletionStream = (monitorId: string) => `monitor-deletion-${monitorId}`;

/** The workflow's output: the step to do next, or null when there is none (not started, or finished). */
export function nextDeletionStep(state: MonitorDeletionState): MonitorDeletionStep | null {
  if (state.status !== 'running') return null;
  return MONITOR_DELETION_STEPS.find((step) => !state.completed.includes(step)) ?? null;
}

export const monitorDeletionDecider: Decider<MonitorDeletionCommand, MonitorDeletionState, MonitorDeletionEvent> = {
  initialState: () => ({ status: 'absent', ids: null, completed: [] }),
  evolve(state, event) {
    switch (event.type) {
      case 'MonitorDeletionStarted':
        return { ...state, status: 'running', ids: { monitor_id: event.data.monitor_id, project_id: event.data.project_id } };
      case 'MonitorDeletionStepCompleted':
        return { ...state, completed: [...state.completed, event.data.step] };
      case 'MonitorDeletionFinished':
        return { ...state, status: 'finished' };
      default: {
        const exhaustive: never = event;
        return exhaustive;
      }
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'StartMonitorDeletion': {
        if (state.status !== 'absent') return [];
        const { monitor_id, project_id, now } = command;
        return [{ type: 'MonitorDeletionStarted', data: { monitor_id, project_id, at: now } }];
      }
      case 'CompleteMonitorDeletionStep': {
        if (state.status === 'absent' || !state.ids) throw invalid(`no deletion of monitor ${command.monitor_id} has started`);
        if (nextDeletionStep(state) !== command.step) return [];
        const completed: MonitorDeletionEvent = { type: 'MonitorDeletionStepCompleted', data: { ...state.ids, step: command.step, at: command.now } };
        const last = command.step === MONITOR_DELETION_STEPS.at(-1);
        return last ? [completed, { type: 'MonitorDeletionFinished', data: { ...state.ids, at: command.now } }] : [completed];
      }
      default: {
        const exhaustive: never = command;
        return exhaustive;
      }
    }
  },
};
