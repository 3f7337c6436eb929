import * as t from 'io-ts';
import { CHANNEL_TYPES } from '../../domain/notifications/channel.js';
import { described } from '../json-schema.js';
import { BodyOf, OneOf, Uuid } from '../validation.js';
import { Label, Text } from '../labels.js';
import { QuietHoursInput } from './quiet-hours.js';

const OwnerUserId = t.union([Uuid, t.null], 'a UUID, or null for a channel of the project');

/** Decoded against its channel type's codec by the handler, once the type is known. */
const ConfigObject = described(t.UnknownRecord, { type: 'object', $ref: '#/components/schemas/ChannelConfigs' });

export const CreateChannelBody = BodyOf(
  { name: Label(1, 100), type: OneOf(CHANNEL_TYPES), config: ConfigObject },
  { project_id: Uuid, enabled: t.boolean, is_default: t.boolean, quiet_hours: QuietHoursInput(), owner_user_id: OwnerUserId },
);
export const UpdateChannelBody = BodyOf({}, {
  name: Label(1, 100), type: OneOf(CHANNEL_TYPES), config: ConfigObject, enabled: t.boolean, is_default: t.boolean, quiet_hours: QuietHoursInput(), owner_user_id: OwnerUserId,
});

export const CreateGroupBody = BodyOf({ name: Label(1, 100) }, { project_id: Uuid, description: Text(0, 500), is_default: t.boolean });
export const UpdateGroupBody = BodyOf({}, { name: Label(1, 100), description: Text(0, 500), is_default: t.boolean });
export const AttachChannelBody = BodyOf({ channel_id: Uuid }, {});
