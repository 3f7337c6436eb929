import type { EscalationStep } from '../domain/escalation/steps.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';
import { namedChannels } from './page-routing.js';

/** The channels of whoever is on call on a schedule at `at` ([] when nobody is, or they have none). */
export type OnCallResolver = (scheduleId: string, at: string) => Promise<string[]>;

/**
 * The channels a step pages at `at`: its groups' channels, its own, and those of whoever is on
 * call on its schedules, each once, only the project's enabled ones.
 */
export async function stepChannels(readModels: ReadModelStore, projectId: string, step: EscalationStep, at: string, onCall: OnCallResolver): Promise<string[]> {
  const onCallChannels = (await Promise.all(step.on_call_schedule_ids.map((scheduleId) => onCall(scheduleId, at)))).flat();
  return namedChannels(readModels, projectId, step.notification_group_ids, [...step.notification_channel_ids, ...onCallChannels]);
}
