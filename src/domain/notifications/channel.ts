import type { Decider, DomainEvent } from '../decider.js';
import { notFound } from '../errors.js';
import type { QuietHours } from './quiet-hours.js';

export const CHANNEL_TYPES = [
  'WEBHOOK',
  'SLACK',
  'DISCORD',
  'MSTEAMS',
  'TELEGRAM',
  'PAGERDUTY',
  'OPSGENIE',
  'NTFY',
  'EMAIL',
  'MATTERMOST',
  'MATRIX',
  'GOTIFY',
  'PUSHOVER',
  'GOOGLE_CHAT',
  'TEMPLATED_WEBHOOK',
] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

/** A channel's settings as recorded: the config only ever sealed, plus the names of the fields it sets. */
export interface ChannelSettings {
  name: string;
  config_sealed: string;
  config_fields: string[];
  enabled: boolean;
  is_default: boolean;
  /** When this channel is not paged (except by urgent pages): a held delivery goes out when they end. */
  quiet_hours: QuietHours | null;
  /**
   * A person's own channel (their email, their ntfy topic): the project member it belongs to, whom
   * an on-call step reaches through it while they are on call. Null: a channel of the project.
   */
  owner_user_id: string | null;
}

type Ids = { channel_id: string; project_id: string };

export type ChannelEvent =
  | DomainEvent<'ChannelCreated', Ids & ChannelSettings & { type: ChannelType; created_at: string }>
  | DomainEvent<'ChannelUpdated', Ids & ChannelSettings & { updated_at: string }>
  | DomainEvent<'ChannelDeleted', Ids & { deleted_at: string }>;

export type ChannelCommand =
  | { type: 'CreateChannel'; channel_id: string; project_id: string; channel_type: ChannelType; settings: ChannelSettings; now: string }
  | { type: 'UpdateChannel'; channel_id: string; changes: Partial<ChannelSettings>; now: string }
  | { type: 'DeleteChannel'; channel_id: string; now: string };

export interface ChannelState {
  status: 'absent' | 'active' | 'deleted';
  projectId: string;
  channelType: ChannelType | null;
  settings: ChannelSettings | null;
}

export const channelStream = (channelId: string) => `channel-${channelId}`;

export const channelDecider: Decider<ChannelCommand, ChannelState, ChannelEvent> = {
  initialState: () => ({ status: 'absent', projectId: '', channelType: null, settings: null }),
  evolve(state, event) {
    switch (event.type) {
      case 'ChannelCreated': {
        const { channel_id: _id, project_id, type, created_at: _at, ...settings } = event.data;
        return { status: 'active', projectId: project_id, channelType: type, settings };
      }
      case 'ChannelUpdated': {
        const { channel_id: _id, project_id: _p, updated_at: _at, ...settings } = event.data;
        return { ...state, settings };
      }
      case 'ChannelDeleted':
        return { ...state, status: 'deleted' };
      default: {
        const exhaustive: never = event;
        return exhaustive;
      }
    }
  },
  decide(command, state) {
    if (command.type === 'CreateChannel') {
      if (state.status !== 'absent') return [];
      const { channel_id, project_id, channel_type, settings, now } = command;
      return [{ type: 'ChannelCreated', data: { channel_id, project_id, type: channel_type, ...settings, created_at: now } }];
    }
    if (state.status !== 'active' || !state.settings) throw notFound('notification channel not found');
    const ids = { channel_id: command.channel_id, project_id: state.projectId };
    switch (command.type) {
      case 'UpdateChannel': {
        const settings = { ...state.settings, ...command.changes };
        if (JSON.stringify(settings) === JSON.stringify(state.settings)) return [];
        return [{ type: 'ChannelUpdated', data: { ...ids, ...settings, updated_at: command.now } }];
      }
      case 'DeleteChannel':
        return [{ type: 'ChannelDeleted', data: { ...ids, deleted_at: command.now } }];
      default: {
        const exhaustive: never = command;
        return exhaustive;
      }
    }
  },
};
