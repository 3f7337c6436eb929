import type { Decider, DomainEvent } from '../decider.js';
import { invalid, notFound } from '../errors.js';
import type { ProjectEvent } from '../projects/project.js';
import { type OnCallRotation, rotationProblem } from './rotation.js';

/** A schedule as recorded: its name and rotation. */
export interface OnCallScheduleSettings extends OnCallRotation {
  name: string;
}

type Ids = { schedule_id: string; project_id: string };

/** Stream `on-call-schedule-<id>`; Created and Updated carry the whole schedule as it then is. */
export type OnCallScheduleEvent =
  | DomainEvent<'OnCallScheduleCreated', Ids & OnCallScheduleSettings & { at: string }>
  | DomainEvent<'OnCallScheduleUpdated', Ids & OnCallScheduleSettings & { at: string }>
  | DomainEvent<'OnCallScheduleDeleted', Ids & { at: string }>;

export type OnCallScheduleCommand =
  | { type: 'CreateOnCallSchedule'; schedule_id: string; project_id: string; settings: OnCallScheduleSettings; now: string }
  | { type: 'UpdateOnCallSchedule'; schedule_id: string; changes: Partial<OnCallScheduleSettings>; now: string }
  | { type: 'DeleteOnCallSchedule'; schedule_id: string; now: string };

/**
 * Folded from the schedule's stream and its project's: who may be in the rotation is decided on
 * the project's members as they are when the append is made (the append checks both streams).
 */
export interface OnCallScheduleState {
  status: 'absent' | 'active' | 'deleted';
  projectId: string;
  settings: OnCallScheduleSettings | null;
  members: ReadonlySet<string>;
}

export const onCallScheduleStream = (scheduleId: string) => `on-call-schedule-${scheduleId}`;

export const MAX_SCHEDULE_NAME = 100;

/** The first person in the rotation or its overrides who is not a member of the project, as the field that names them. */
function strangerField(settings: OnCallScheduleSettings, members: ReadonlySet<string>): string | null {
  const participant = settings.participants.findIndex((id) => !members.has(id));
  if (participant >= 0) return `participants[${participant}]`;
  const override = settings.overrides.findIndex((o) => !members.has(o.user_id));
  return override >= 0 ? `overrides[${override}].user_id` : null;
}

function checked(settings: OnCallScheduleSettings, members: ReadonlySet<string>): OnCallScheduleSettings {
  const name = settings.name.trim();
  if (name.length === 0 || name.length > MAX_SCHEDULE_NAME) throw invalid(`name: 1 to ${MAX_SCHEDULE_NAME} characters`);
  const problem = rotationProblem(settings);
  if (problem) throw invalid(problem);
  const stranger = strangerField(settings, members);
  if (stranger) throw invalid(`${stranger}: not a member of this project`);
  return { ...settings, name };
}

export const onCallScheduleDecider: Decider<OnCallScheduleCommand, OnCallScheduleState, OnCallScheduleEvent | ProjectEvent> = {
  initialState: () => ({ status: 'absent', projectId: '', settings: null, members: new Set() }),
  evolve(state, event) {
    switch (event.type) {
      case 'OnCallScheduleCreated':
      case 'OnCallScheduleUpdated': {
        const { schedule_id: _id, project_id, at: _at, ...settings } = event.data;
        return { ...state, status: 'active', projectId: project_id, settings };
      }
      case 'OnCallScheduleDeleted':
        return { ...state, status: 'deleted' };
      case 'ProjectMemberAdded':
        return { ...state, members: new Set(state.members).add(event.data.user_id) };
      case 'ProjectMemberRemoved': {
        const members = new Set(state.members);
        members.delete(event.data.user_id);
        return { ...state, members };
      }
      default:
        return state;
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateOnCallSchedule': {
        if (state.status !== 'absent') return [];
        const settings = checked(command.settings, state.members);
        return [{ type: 'OnCallScheduleCreated', data: { schedule_id: command.schedule_id, project_id: command.project_id, ...settings, at: command.now } }];
      }
      case 'UpdateOnCallSchedule': {
        if (state.status !== 'active' || !state.settings) throw notFound('on-call schedule not found');
        const settings = checked({ ...state.settings, ...command.changes }, state.members);
        if (JSON.stringify(settings) === JSON.stringify(state.settings)) return [];
        return [{ type: 'OnCallScheduleUpdated', data: { schedule_id: command.schedule_id, project_id: state.projectId, ...settings, at: command.now } }];
      }
      case 'DeleteOnCallSchedule':
        if (state.status === 'deleted') return [];
        if (state.status !== 'active') throw notFound('on-call schedule not found');
        return [{ type: 'OnCallScheduleDeleted', data: { schedule_id: command.schedule_id, project_id: state.projectId, at: command.now } }];
      default: {
        const exhaustive: never = command;
        return exhaustive;
      }
    }
  },
};
