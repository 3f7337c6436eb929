import { type OnCallScheduleSettings, onCallScheduleDecider, onCallScheduleStream } from '../domain/on-call/schedule.js';
import { type OnCallShift, onCallAt, onCallShifts } from '../domain/on-call/rotation.js';
import { projectStream } from '../domain/projects/project.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';
import { roleOf } from '../queries/identity.js';
import type { ChannelDocument } from '../../projections/notification-channels.js';
import type { OnCallScheduleDocument } from '../../projections/on-call-schedules.js';
import type { EscalationPolicyDocument } from '../../projections/escalation-policies.js';
import { conflict } from '../domain/errors.js';
import { type Actor, handleCommandOnStreams } from './command-handler.js';
import { type CommandContext, nowIso } from './context.js';

/** Schedule decisions read the schedule's stream and its project's (who is a member), and the append checks both. */
const streams = (scheduleId: string, projectId: string) => [onCallScheduleStream(scheduleId), projectStream(projectId)] as const;

export async function createOnCallSchedule(context: CommandContext, projectId: string, settings: OnCallScheduleSettings, actor: Actor) {
  const scheduleId = context.newId();
  const outcome = await handleCommandOnStreams(
    context, streams(scheduleId, projectId), onCallScheduleDecider,
    { type: 'CreateOnCallSchedule', schedule_id: scheduleId, project_id: projectId, settings, now: nowIso(context) }, actor,
  );
  return { scheduleId, position: outcome.position };
}

export const updateOnCallSchedule = (context: CommandContext, schedule: { id: string; project_id: string }, changes: Partial<OnCallScheduleSettings>, actor: Actor) =>
  handleCommandOnStreams(context, streams(schedule.id, schedule.project_id), onCallScheduleDecider, { type: 'UpdateOnCallSchedule', schedule_id: schedule.id, changes, now: nowIso(context) }, actor);

/** The escalation policies of the schedule's project that page whoever is on call on it. */
export async function policiesPagingSchedule(readModels: ReadModelStore, schedule: { id: string; project_id: string }): Promise<EscalationPolicyDocument[]> {
  const policies = (await readModels.find<EscalationPolicyDocument>('escalation_policies', { project_id: schedule.project_id })).map((s) => s.doc);
  return policies.filter((policy) => policy.steps.some((step) => step.on_call_schedule_ids.includes(schedule.id)));
}

/** Refused while an escalation policy pages the schedule: its steps would page nobody without a word. */
export async function deleteOnCallSchedule(context: CommandContext, readModels: ReadModelStore, schedule: { id: string; project_id: string }, actor: Actor) {
  const users = await policiesPagingSchedule(readModels, schedule);
  if (users.length > 0) {
    throw conflict(`on-call schedule is paged by escalation policy ${users.map((p) => `"${p.name}" (${p.id})`).join(', ')}: take it out of their steps first`);
  }
  return handleCommandOnStreams(context, streams(schedule.id, schedule.project_id), onCallScheduleDecider, { type: 'DeleteOnCallSchedule', schedule_id: schedule.id, now: nowIso(context) }, actor);
}

/** Who is on call on a schedule at `at`, and the shifts after (`count` in all). */
export function onCallNowAndNext(schedule: OnCallScheduleDocument, at: string, count = 2): OnCallShift[] {
  return onCallShifts(schedule, at, count);
}

/**
 * The on-call person's own channels at `at`: the enabled channels of the schedule's project whose
 * owner they are (a per-user channel, `owner_user_id`). [] when the schedule is gone, nobody is on
 * call, the person has left the project, or they have no channel of their own. An escalation step
 * with `on_call_schedule_ids` pages these.
 */
export async function onCallChannelIds(readModels: ReadModelStore, scheduleId: string, at: string): Promise<string[]> {
  const schedule = (await readModels.get<OnCallScheduleDocument>('on_call_schedules', scheduleId))?.doc;
  if (!schedule) return [];
  const shift = onCallAt(schedule, at);
  if (!shift || (await roleOf(readModels, schedule.project_id, shift.user_id)) === null) return [];
  const channels = await readModels.find<ChannelDocument>('notification_channels', { project_id: schedule.project_id, owner_user_id: shift.user_id });
  return channels.map((s) => s.doc).filter((channel) => channel.enabled).sort((a, b) => a.created_at.localeCompare(b.created_at)).map((channel) => channel.id);
}
