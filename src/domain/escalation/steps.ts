import { invalid } from '../errors.js';

/** One rung of an escalation: paged `delay_seconds` after the incident's start, to every target it names. */
export interface EscalationStep {
  delay_seconds: number;
  notification_group_ids: string[];
  notification_channel_ids: string[];
  on_call_schedule_ids: string[];
  /** Its pages go out even inside a channel's quiet hours. */
  urgent: boolean;
}

export interface PolicySettings {
  name: string;
  steps: EscalationStep[];
  /** How many more times the steps run once the last one has been paged (0 = once through). */
  repeat: number;
}

export const MAX_STEPS = 10;
export const MAX_REPEAT = 10;
export const MAX_DELAY_SECONDS = 86_400;

/**
 * The invariants of a policy, named by the field a request would carry (`steps[1].delay_seconds`):
 * the API checks the same with its codec, the domain refuses what slips past it.
 */
export function assertPolicySettings(settings: PolicySettings): void {
  if (settings.name.trim() === '') throw invalid('name: must not be empty');
  if (settings.steps.length < 1 || settings.steps.length > MAX_STEPS) throw invalid(`steps: between 1 and ${MAX_STEPS} steps`);
  if (!Number.isInteger(settings.repeat) || settings.repeat < 0 || settings.repeat > MAX_REPEAT) throw invalid(`repeat: a whole number from 0 to ${MAX_REPEAT}`);
  settings.steps.forEach((step, i) => {
    if (!Number.isInteger(step.delay_seconds) || step.delay_seconds < 0 || step.delay_seconds > MAX_DELAY_SECONDS) {
      throw invalid(`steps[${i}].delay_seconds: a whole number of seconds from 0 to ${MAX_DELAY_SECONDS}`);
    }
    const before = settings.steps[i - 1];
    if (before && step.delay_seconds < before.delay_seconds) throw invalid(`steps[${i}].delay_seconds: must not be less than steps[${i - 1}].delay_seconds (steps are paged in order)`);
    if (step.notification_group_ids.length + step.notification_channel_ids.length + step.on_call_schedule_ids.length === 0) {
      throw invalid(`steps[${i}]: names no target (notification_group_ids, notification_channel_ids or on_call_schedule_ids)`);
    }
  });
}

/**
 * When step `step` of round `round` is due, counted from the incident's start. A round lasts as
 * long as its last step's delay: round r pages step i at start + r × last delay + step i's delay.
 * A last delay of 0 (every step at once) still spaces rounds by at least one minute, so a repeat
 * is never a burst.
 */
export function stepDueAt(startedAt: string, steps: readonly EscalationStep[], round: number, step: number): string {
  const last = steps[steps.length - 1]?.delay_seconds ?? 0;
  const roundSeconds = Math.max(last, 60);
  const offset = round * roundSeconds + (steps[step]?.delay_seconds ?? 0);
  return new Date(Date.parse(startedAt) + offset * 1000).toISOString();
}
