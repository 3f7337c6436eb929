import type { Decider, DomainEvent } from '../decider.js';
import { invalid, notFound } from '../errors.js';

type Ids = { group_id: string; project_id: string };
export interface GroupSettings {
  name: string;
  description: string;
  is_default: boolean;
}

export type GroupEvent =
  | DomainEvent<'GroupCreated', Ids & GroupSettings & { created_at: string }>
  | DomainEvent<'GroupUpdated', Ids & GroupSettings & { updated_at: string }>
  | DomainEvent<'GroupChannelAttached', Ids & { channel_id: string; attached_at: string }>
  | DomainEvent<'GroupChannelDetached', Ids & { channel_id: string; detached_at: string }>
  | DomainEvent<'GroupDeleted', Ids & { deleted_at: string }>;

export type GroupCommand =
  | { type: 'CreateGroup'; group_id: string; project_id: string; settings: GroupSettings; now: string }
  | { type: 'UpdateGroup'; group_id: string; changes: Partial<GroupSettings>; now: string }
  /** `channel_project_id`: the project the channel lives in (null if it does not exist). */
  | { type: 'AttachChannel'; group_id: string; channel_id: string; channel_project_id: string | null; now: string }
  | { type: 'DetachChannel'; group_id: string; channel_id: string; now: string }
  | { type: 'DeleteGroup'; group_id: string; now: string };

export interface GroupState {
  status: 'absent' | 'active' | 'deleted';
  projectId: string;
  settings: GroupSettings | null;
  channels: ReadonlySet<string>;
}

export const groupStream = (groupId: string) => `group-${groupId}`;

export const groupDecider: Decider<GroupCommand, GroupState, GroupEvent> = {
  initialState: () => ({ status: 'absent', projectId: '', settings: null, channels: new Set() }),
  evolve(state, event) {
    switch (event.type) {
      case 'GroupCreated': {
        const { name, description, is_default } = event.data;
        return { ...state, status: 'active', projectId: event.data.project_id, settings: { name, description, is_default } };
      }
      case 'GroupUpdated': {
        const { name, description, is_default } = event.data;
        return { ...state, settings: { name, description, is_default } };
      }
      case 'GroupChannelAttached':
        return { ...state, channels: new Set(state.channels).add(event.data.channel_id) };
      case 'GroupChannelDetached': {
        const channels = new Set(state.channels);
        channels.delete(event.data.channel_id);
        return { ...state, channels };
      }
      case 'GroupDeleted':
        return { ...state, status: 'deleted' };
      default: {
        const exhaustive: never = event;
        return exhaustive;
      }
    }
  },
  decide(command, state) {
    if (command.type === 'CreateGroup') {
      if (state.status !== 'absent') return [];
      return [{ type: 'GroupCreated', data: { group_id: command.group_id, project_id: command.project_id, ...command.settings, created_at: command.now } }];
    }
    if (state.status !== 'active' || !state.settings) throw notFound('notification group not found');
    const ids = { group_id: command.group_id, project_id: state.projectId };
    switch (command.type) {
      case 'UpdateGroup': {
        const settings = { ...state.settings, ...command.changes };
        if (JSON.stringify(settings) === JSON.stringify(state.settings)) return [];
        return [{ type: 'GroupUpdated', data: { ...ids, ...settings, updated_at: command.now } }];
      }
      case 'AttachChannel':
        if (command.channel_project_id === null) throw notFound('notification channel not found');
        if (command.channel_project_id !== state.projectId) throw invalid('the channel belongs to another project; a group holds channels of its own project only');
        if (state.channels.has(command.channel_id)) return [];
        return [{ type: 'GroupChannelAttached', data: { ...ids, channel_id: command.channel_id, attached_at: command.now } }];
      case 'DetachChannel':
        if (!state.channels.has(command.channel_id)) throw notFound('that channel is not in this group');
        return [{ type: 'GroupChannelDetached', data: { ...ids, channel_id: command.channel_id, detached_at: command.now } }];
      case 'DeleteGroup':
        return [{ type: 'GroupDeleted', data: { ...ids, deleted_at: command.now } }];
      default: {
        const exhaustive: never = command;
        return exhaustive;
      }
    }
  },
};
