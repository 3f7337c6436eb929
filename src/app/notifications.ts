import { randomBytes } from 'node:crypto';
import { type ChannelSettings, type ChannelType, channelDecider, channelStream } from '../domain/notifications/channel.js';
import { type GroupSettings, groupDecider, groupStream } from '../domain/notifications/group.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';
import type { GroupDocument } from '../../projections/notification-groups.js';
import { type Actor, handleCommand, loadState } from './command-handler.js';
import { type CommandContext, nowIso } from './context.js';
import { updateMonitor } from './monitors.js';
import type { SecretBox } from './secret-box.js';
import type { MonitorDocument } from '../../projections/monitors.js';

/** A fresh Standard Webhooks signing secret. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export function sealConfig(secrets: SecretBox, config: Record<string, unknown>): Pick<ChannelSettings, 'config_sealed' | 'config_fields'> {
  return { config_sealed: secrets.seal(config), config_fields: Object.keys(config).sort() };
}

export async function createChannel(
  context: CommandContext,
  input: { project_id: string; channel_type: ChannelType; settings: ChannelSettings },
  actor: Actor,
): Promise<{ channelId: string; position: number | null }> {
  const channelId = context.newId();
  const outcome = await handleCommand(context, channelStream(channelId), channelDecider, { ...input, type: 'CreateChannel', channel_id: channelId, now: nowIso(context) }, actor);
  return { channelId, position: outcome.position };
}

export const updateChannel = (context: CommandContext, channelId: string, changes: Partial<ChannelSettings>, actor: Actor) =>
  handleCommand(context, channelStream(channelId), channelDecider, { type: 'UpdateChannel', channel_id: channelId, changes, now: nowIso(context) }, actor);

export async function channelProject(context: CommandContext, channelId: string): Promise<string | null> {
  const { state } = await loadState(context.events, channelStream(channelId), channelDecider);
  return state.status === 'active' ? state.projectId : null;
}

/** Monitors of the project that route to `id` through `field`. */
async function monitorsRouting(readModels: ReadModelStore, projectId: string, field: 'notification_group_ids' | 'notification_channel_ids', id: string) {
  return (await readModels.find<MonitorDocument>('monitors', { project_id: projectId })).map((s) => s.doc).filter((m) => m[field].includes(id));
}

/**
 * Deleting a channel takes it out of every group and monitor first, so no routing points at
 * nothing; returns the last log position written.
 */
export async function deleteChannel(context: CommandContext, readModels: ReadModelStore, channelId: string, projectId: string, actor: Actor): Promise<number | null> {
  let position: number | null = null;
  for (const { doc: group } of await readModels.find<GroupDocument>('notification_groups', { project_id: projectId })) {
    if (group.channel_ids.includes(channelId)) position = (await detachChannel(context, group.id, channelId, actor)).position ?? position;
  }
  for (const monitor of await monitorsRouting(readModels, projectId, 'notification_channel_ids', channelId)) {
    const outcome = await updateMonitor(context, monitor.id, { notification_channel_ids: monitor.notification_channel_ids.filter((id) => id !== channelId) }, actor);
    position = outcome.position ?? position;
  }
  const outcome = await handleCommand(context, channelStream(channelId), channelDecider, { type: 'DeleteChannel', channel_id: channelId, now: nowIso(context) }, actor);
  return outcome.position ?? position;
}

export async function createGroup(context: CommandContext, input: { project_id: string; settings: GroupSettings }, actor: Actor) {
  const groupId = context.newId();
  const outcome = await handleCommand(context, groupStream(groupId), groupDecider, { ...input, type: 'CreateGroup', group_id: groupId, now: nowIso(context) }, actor);
  return { groupId, position: outcome.position };
}

export const updateGroup = (context: CommandContext, groupId: string, changes: Partial<GroupSettings>, actor: Actor) =>
  handleCommand(context, groupStream(groupId), groupDecider, { type: 'UpdateGroup', group_id: groupId, changes, now: nowIso(context) }, actor);

export async function attachChannel(context: CommandContext, groupId: string, channelId: string, actor: Actor) {
  const channel_project_id = await channelProject(context, channelId);
  return handleCommand(context, groupStream(groupId), groupDecider, { type: 'AttachChannel', group_id: groupId, channel_id: channelId, channel_project_id, now: nowIso(context) }, actor);
}

export const detachChannel = (context: CommandContext, groupId: string, channelId: string, actor: Actor) =>
  handleCommand(context, groupStream(groupId), groupDecider, { type: 'DetachChannel', group_id: groupId, channel_id: channelId, now: nowIso(context) }, actor);

/** Deleting a group silently removes it from the monitors pointing at it. */
export async function deleteGroup(context: CommandContext, readModels: ReadModelStore, groupId: string, projectId: string, actor: Actor): Promise<number | null> {
  let position: number | null = null;
  for (const monitor of await monitorsRouting(readModels, projectId, 'notification_group_ids', groupId)) {
    const outcome = await updateMonitor(context, monitor.id, { notification_group_ids: monitor.notification_group_ids.filter((id) => id !== groupId) }, actor);
    position = outcome.position ?? position;
  }
  const outcome = await handleCommand(context, groupStream(groupId), groupDecider, { type: 'DeleteGroup', group_id: groupId, now: nowIso(context) }, actor);
  return outcome.position ?? position;
}
