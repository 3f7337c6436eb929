import type { ChannelType } from '../src/domain/notifications/channel.js';
import type { QuietHours } from '../src/domain/notifications/quiet-hours.js';
import type { Projection, Target } from '../src/projector/projection.js';

export interface ChannelDocument {
  id: string;
  project_id: string;
  name: string;
  type: ChannelType;
  enabled: boolean;
  is_default: boolean;
  /** Sealed: only the notifier opens it. */
  config_sealed: string;
  config_fields: string[];
  quiet_hours: QuietHours | null;
  /** A person's own channel: the member it belongs to (see ChannelSettings). */
  owner_user_id: string | null;
  last_delivery_at: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export const notificationChannelsProjection: Projection<ChannelDocument> = {
  name: 'notification_channels',
  version: 2,
  collection: { name: 'notification_channels', indexes: [{ fields: ['project_id', 'created_at'] }, { fields: ['owner_user_id'], sparse: true }] },
  handles: ['ChannelCreated', 'ChannelUpdated', 'ChannelDeleted', 'PageDelivered', 'PageDeliveryFailed', 'ProjectDeleted'],
  targets(event): Target {
    switch (event.type) {
      case 'ProjectDeleted':
        return { where: { project_id: event.data.project_id } };
      case 'ChannelCreated':
      case 'ChannelUpdated':
      case 'ChannelDeleted':
      case 'PageDelivered':
      case 'PageDeliveryFailed':
        return { ids: [event.data.channel_id] };
      default:
        return { ids: [] };
    }
  },
  apply(doc, event) {
    switch (event.type) {
      case 'ChannelCreated': {
        const d = event.data;
        return {
          id: d.channel_id, project_id: d.project_id, name: d.name, type: d.type, enabled: d.enabled, is_default: d.is_default, config_sealed: d.config_sealed,
          config_fields: d.config_fields, quiet_hours: d.quiet_hours, owner_user_id: d.owner_user_id, last_delivery_at: null, last_error: null, created_at: d.created_at, updated_at: d.created_at,
        };
      }
      case 'ChannelUpdated': {
        const { name, enabled, is_default, config_sealed, config_fields, quiet_hours, owner_user_id, updated_at } = event.data;
        return doc && { ...doc, name, enabled, is_default, config_sealed, config_fields, quiet_hours, owner_user_id, updated_at };
      }
      case 'PageDelivered':
        return doc && { ...doc, last_delivery_at: event.data.at };
      case 'PageDeliveryFailed':
        return doc && { ...doc, last_error: event.data.error };
      case 'ChannelDeleted':
      case 'ProjectDeleted':
        return null;
      default:
        return doc;
    }
  },
};
