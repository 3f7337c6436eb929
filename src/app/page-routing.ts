import type { MonitorConfig } from '../domain/monitors/monitor-config.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';
import type { ChannelDocument } from '../../projections/notification-channels.js';
import type { GroupDocument } from '../../projections/notification-groups.js';

export type PageRouting = Pick<MonitorConfig, 'notification_group_ids' | 'notification_channel_ids'>;

/** The monitor's groups' channels and its own, each once, only enabled ones; without any, the project's defaults. */
export async function routedChannels(readModels: ReadModelStore, projectId: string, routing: PageRouting): Promise<string[]> {
  const { groups, channels } = await routingTargets(readModels, projectId);
  const routed = routing.notification_group_ids.length === 0 && routing.notification_channel_ids.length === 0;
  const wanted = routed
    ? [...groups.filter((g) => g.is_default).flatMap((g) => g.channel_ids), ...channels.filter((c) => c.is_default).map((c) => c.id)]
    : [...groups.filter((g) => routing.notification_group_ids.includes(g.id)).flatMap((g) => g.channel_ids), ...routing.notification_channel_ids];
  return enabledOnce(channels, wanted);
}

/**
 * The named groups' channels and the named channels, each once, only the project's enabled ones;
 * no fallback to the project's defaults (an escalation step pages only what it names).
 */
export async function namedChannels(readModels: ReadModelStore, projectId: string, groupIds: readonly string[], channelIds: readonly string[]): Promise<string[]> {
  const { groups, channels } = await routingTargets(readModels, projectId);
  return enabledOnce(channels, [...groups.filter((g) => groupIds.includes(g.id)).flatMap((g) => g.channel_ids), ...channelIds]);
}

async function routingTargets(readModels: ReadModelStore, projectId: string): Promise<{ groups: GroupDocument[]; channels: ChannelDocument[] }> {
  const [groups, channels] = await Promise.all([
    readModels.find<GroupDocument>('notification_groups', { project_id: projectId }),
    readModels.find<ChannelDocument>('notification_channels', { project_id: projectId }),
  ]);
  return { groups: groups.map((s) => s.doc), channels: channels.map((s) => s.doc) };
}

const enabledOnce = (channels: readonly ChannelDocument[], wanted: readonly string[]): string[] => {
  const enabled = new Set(channels.filter((c) => c.enabled).map((c) => c.id));
  return [...new Set(wanted)].filter((id) => enabled.has(id));
};
