import type { EscalationStep } from '../domain/escalation/steps.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';
import type { ChannelDocument } from '../../projections/notification-channels.js';
import type { GroupDocument } from '../../projections/notification-groups.js';

/** The channels of whoever is on call on a schedule at `at` ([] when nobody is, or they have none). */
export type OnCallResolver = (scheduleId: string, at: string) => Promise<string[]>;

/**
 * The channels a step pages at `at`: its groups' channels, its own, and those of whoever is on
 * call on its schedules, each once, only the project's enabled ones.
 */
export async function stepChannels(readModels: ReadModelStore, projectId: string, step: EscalationStep, at: string, onCall: OnCallResolver): Promise<string[]> {
  const groups = (await readModels.find<GroupDocument>('notification_groups', { project_id: projectId })).map((s) => s.doc);
  const channels = (await readModels.find<ChannelDocument>('notification_channels', { project_id: projectId })).map((s) => s.doc);
  const wanted = [
    ...groups.filter((g) => step.notification_group_ids.includes(g.id)).flatMap((g) => g.channel_ids),
    ...step.notification_channel_ids,
  ];
  for (const scheduleId of step.on_call_schedule_ids) wanted.push(...(await onCall(scheduleId, at)));
  const enabled = new Set(channels.filter((c) => c.enabled).map((c) => c.id));
  return [...new Set(wanted)].filter((id) => enabled.has(id));
}
