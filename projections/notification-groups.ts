import type { Projection, Target } from '../src/projector/projection.js';

export interface GroupDocument {
  id: string;
  project_id: string;
  name: string;
  description: string;
  is_default: boolean;
  channel_ids: string[];
  created_at: string;
  updated_at: string;
}

export const notificationGroupsProjection: Projection<GroupDocument> = {
  name: 'notification_groups',
  version: 1,
  collection: { name: 'notification_groups', indexes: [{ fields: ['project_id', 'created_at'] }] },
  handles: ['GroupCreated', 'GroupUpdated', 'GroupChannelAttached', 'GroupChannelDetached', 'GroupDeleted', 'ProjectDeleted'],
  targets(event): Target {
    switch (event.type) {
      case 'ProjectDeleted':
        return { where: { project_id: event.data.project_id } };
      case 'GroupCreated':
      case 'GroupUpdated':
      case 'GroupChannelAttached':
      case 'GroupChannelDetached':
      case 'GroupDeleted':
        return { ids: [event.data.group_id] };
      default:
        return { ids: [] };
    }
  },
  apply(doc, event) {
    switch (event.type) {
      case 'GroupCreated': {
        const d = event.data;
        return { id: d.group_id, project_id: d.project_id, name: d.name, description: d.description, is_default: d.is_default, channel_ids: [], created_at: d.created_at, updated_at: d.created_at };
      }
      case 'GroupUpdated': {
        const { name, description, is_default, updated_at } = event.data;
        return doc && { ...doc, name, description, is_default, updated_at };
      }
      case 'GroupChannelAttached':
        return doc && { ...doc, channel_ids: [...doc.channel_ids, event.data.channel_id] };
      case 'GroupChannelDetached':
        return doc && { ...doc, channel_ids: doc.channel_ids.filter((id) => id !== event.data.channel_id) };
      case 'GroupDeleted':
      case 'ProjectDeleted':
        return null;
      default:
        return doc;
    }
  },
};
