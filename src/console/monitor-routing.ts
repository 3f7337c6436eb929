import type { MonitorDocument } from '../../projections/monitors.js';
import type { ChannelDocument } from '../../projections/notification-channels.js';
import type { GroupDocument } from '../../projections/notification-groups.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';

/**
 * Who the monitor pages, in words, for its page: its groups and channels by name, or the
 * project's defaults when it names none (as src/app/page-routing.ts routes a page).
 */
export async function routingInWords(readModels: ReadModelStore, monitor: MonitorDocument): Promise<string> {
  const { notification_group_ids: groupIds, notification_channel_ids: channelIds } = monitor;
  if (groupIds.length === 0 && channelIds.length === 0) return 'the project’s default groups and channels';
  const [groups, channels] = await Promise.all([
    readModels.find<GroupDocument>('notification_groups', { project_id: monitor.project_id }),
    readModels.find<ChannelDocument>('notification_channels', { project_id: monitor.project_id }),
  ]);
  const named = (ids: readonly string[], docs: readonly { doc: { id: string; name: string } }[], what: string) =>
    ids.flatMap((id) => docs.filter((d) => d.doc.id === id).map((d) => `${d.doc.name} (${what})`));
  return [...named(groupIds, groups, 'group'), ...named(channelIds, channels, 'channel')].join(', ');
}
