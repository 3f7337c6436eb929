import type { EscalationStep } from '../domain/escalation/steps.js';
import { invalid } from '../domain/errors.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';
import type { EscalationPolicyDocument } from '../../projections/escalation-policies.js';

/** A step as an edge takes it (the API's body, the console's form): the lists and `urgent` optional. */
export interface StepRequest {
  delay_seconds: number;
  notification_group_ids?: string[];
  notification_channel_ids?: string[];
  on_call_schedule_ids?: string[];
  urgent?: boolean;
}

/** A step with every default filled in; duplicates dropped. */
export const stepOf = (input: StepRequest): EscalationStep => ({
  delay_seconds: input.delay_seconds,
  notification_group_ids: [...new Set(input.notification_group_ids ?? [])],
  notification_channel_ids: [...new Set(input.notification_channel_ids ?? [])],
  on_call_schedule_ids: [...new Set(input.on_call_schedule_ids ?? [])],
  urgent: input.urgent ?? false,
});

/**
 * Every step names a target, pages no earlier than the one before, and each group, channel and
 * on-call schedule it names is one of the project's: a 400 naming the field otherwise.
 */
export async function assertSteps(readModels: ReadModelStore, projectId: string, steps: readonly EscalationStep[]): Promise<void> {
  for (const [i, step] of steps.entries()) {
    if (step.notification_group_ids.length + step.notification_channel_ids.length + step.on_call_schedule_ids.length === 0) {
      throw invalid(`steps[${i}] must name at least one target: notification_group_ids, notification_channel_ids or on_call_schedule_ids`);
    }
    const before = steps[i - 1];
    if (before && step.delay_seconds < before.delay_seconds) throw invalid(`steps[${i}].delay_seconds must not be less than steps[${i - 1}].delay_seconds: steps are paged in order`);
    for (const [collection, field, what] of [
      ['notification_groups', 'notification_group_ids', 'notification group'],
      ['notification_channels', 'notification_channel_ids', 'notification channel'],
      ['on_call_schedules', 'on_call_schedule_ids', 'on-call schedule'],
    ] as const) {
      for (const id of step[field]) {
        const found = await readModels.get<{ project_id: string }>(collection, id);
        if (!found || found.doc.project_id !== projectId) throw invalid(`steps[${i}].${field}: ${what} ${id} does not exist in this project`);
      }
    }
  }
}

/** A monitor's escalation_policy_id names a policy of its own project (or is null). */
export async function assertEscalationPolicy(readModels: ReadModelStore, projectId: string, policyId: string | null | undefined): Promise<void> {
  if (policyId === null || policyId === undefined) return;
  const found = await readModels.get<EscalationPolicyDocument>('escalation_policies', policyId);
  if (!found || found.doc.project_id !== projectId) throw invalid(`escalation_policy_id: escalation policy ${policyId} does not exist in this project`);
}
