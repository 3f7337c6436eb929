import * as t from 'io-ts';
import { CHANNEL_TYPES } from '../domain/notifications/channel.js';
import { NullableString, oneOf } from './fields.js';

export const PageReason = oneOf(['opened', 'repage', 'acknowledged', 'resolved'], 'PageReason');

const ChannelIds = { channel_id: t.string, project_id: t.string };
export const QuietHoursCodec = t.type({ days: t.array(t.number), start: t.string, end: t.string, time_zone: t.string });
const ChannelSettings = {
  name: t.string, config_sealed: t.string, config_fields: t.array(t.string), enabled: t.boolean, is_default: t.boolean,
  quiet_hours: t.union([QuietHoursCodec, t.null]), owner_user_id: NullableString,
};
const GroupIds = { group_id: t.string, project_id: t.string };
const GroupSettings = { name: t.string, description: t.string, is_default: t.boolean };
const PageIds = { page_id: t.string, project_id: t.string };

export const notificationEventCodecs = {
  ChannelCreated: t.type({ ...ChannelIds, ...ChannelSettings, type: oneOf(CHANNEL_TYPES, 'ChannelType'), created_at: t.string }),
  ChannelUpdated: t.type({ ...ChannelIds, ...ChannelSettings, updated_at: t.string }),
  ChannelDeleted: t.type({ ...ChannelIds, deleted_at: t.string }),
  GroupCreated: t.type({ ...GroupIds, ...GroupSettings, created_at: t.string }),
  GroupUpdated: t.type({ ...GroupIds, ...GroupSettings, updated_at: t.string }),
  GroupChannelAttached: t.type({ ...GroupIds, channel_id: t.string, attached_at: t.string }),
  GroupChannelDetached: t.type({ ...GroupIds, channel_id: t.string, detached_at: t.string }),
  GroupDeleted: t.type({ ...GroupIds, deleted_at: t.string }),
  // `urgent`: set on the pages of an escalation's urgent steps (quiet hours never hold them); absent means false.
  PageFannedOut: t.intersection([
    t.type({ ...PageIds, incident_id: t.string, monitor_id: t.string, reason: PageReason, channel_ids: t.array(t.string), at: t.string }),
    t.partial({ urgent: t.boolean }),
  ]),
  PageDelivered: t.type({ ...PageIds, incident_id: t.string, monitor_id: t.string, channel_id: t.string, attempt: t.number, at: t.string }),
  PageDeliveryFailed: t.type({
    ...PageIds,
    incident_id: t.string,
    monitor_id: t.string,
    channel_id: t.string,
    attempt: t.number,
    error: t.string,
    next_attempt_at: NullableString,
    at: t.string,
  }),
  DeliveryHeld: t.type({ ...PageIds, incident_id: t.string, monitor_id: t.string, channel_id: t.string, until: t.string, time_zone: t.string, at: t.string }),
};
