import type { MonitorConfig } from '../domain/monitors/monitor-config.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';
import type { ChannelDocument } from '../../projections/notification-channels.js';
import type { GroupDocument } from '../../projections/notification-groups.js';

export type PageRouting = Pick<MonitorConfig, 'notification_group_ids' | 'notification_channel_ids'>;

/** The monitor's groups' channels and its own, each once, only enabled ones; without any, the project's defaults. */
export async function routedChannels(readModels: ReadModelStore, projectId: string, routing: PageRouting): Promise<string[]> {
  const groups = (await readModels.find<GroupDocument>('notification_groups', { project_id: projectId })).map((s) => s.doc);
  const channels = (await readModels.find<ChannelDocument>('notification_channels', { project_id: projectId })).map((s) => s.doc);
  const routed = routing.notification_group_ids.length === 0 && routing.notification_channel_ids.length === 0;
  const wanted = routed
    ? [...groups.filter((g) => g.is_default).flatMap((g) => g.channel_ids), ...channels.filter((c) => c.is_default).map((c) => c.id)]
    : [...groups.filter((g) => routing.notification_group_ids.includes(g.id)).flatMap((g) => g.channel_ids), ...routing.notification_channel_ids];
  const enabled = new Set(channels.filter((c) => c.enabled).map((c) => c.id));
  return [...new Set(wanted)].filter((id) => enabled.has(id));
}
