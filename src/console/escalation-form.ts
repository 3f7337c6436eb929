import type { EscalationPolicyDocument } from '../../projections/escalation-policies.js';
import { MAX_STEPS } from '../domain/escalation/steps.js';
import { formList, formText } from './forms.js';

/** How many empty step rows the form offers beyond the policy's own (up to the most a policy may have). */
export const NEW_STEP_ROWS = 2;

/** One step row as the form shows it: the delay in minutes as typed, the ids ticked. */
export interface StepRow {
  delay_minutes: string;
  group_ids: string[];
  channel_ids: string[];
  schedule_ids: string[];
  urgent: boolean;
}

/** What the policy form shows: a stored policy's settings, or what was typed. */
export interface PolicyFormValues {
  name: string;
  repeat: string;
  steps: StepRow[];
}


const isEmpty = (row: StepRow) => row.delay_minutes.trim() === '' && row.group_ids.length + row.channel_ids.length + row.schedule_ids.length === 0 && !row.urgent;

/** The rows the form posted, `step<i>_…` for i from 0, as they were typed. */
export function typedPolicyValues(form: Record<string, unknown>): PolicyFormValues {
  const steps: StepRow[] = [];
  for (let i = 0; i < MAX_STEPS; i++) {
    if (!(`step${i}_delay_minutes` in form)) break;
    steps.push({
      delay_minutes: formText(form[`step${i}_delay_minutes`]),
      group_ids: formList(form[`step${i}_group`]),
      channel_ids: formList(form[`step${i}_channel`]),
      schedule_ids: formList(form[`step${i}_schedule`]),
      urgent: form[`step${i}_urgent`] !== undefined,
    });
  }
  // Rows left empty at the end are the form's spare ones, offered again rather than kept.
  while (steps.length > 0 && isEmpty(steps.at(-1)!)) steps.pop();
  return { name: formText(form['name']), repeat: formText(form['repeat']), steps };
}

/** A stored policy as the form shows it, delays in minutes. */
export function policyFormValues(policy: EscalationPolicyDocument): PolicyFormValues {
  return {
    name: policy.name,
    repeat: String(policy.repeat),
    steps: policy.steps.map((step) => ({
      delay_minutes: String(step.delay_seconds / 60),
      group_ids: step.notification_group_ids,
      channel_ids: step.notification_channel_ids,
      schedule_ids: step.on_call_schedule_ids,
      urgent: step.urgent,
    })),
  };
}


/**
 * The form as the API's body, and for each step the form row it came from (rows left empty are
 * skipped, so a refusal about `steps[1]` may be about the third row). A delay that is not a number
 * of minutes is passed on as typed, for the codec to name it.
 */
export function policyBodyFromForm(values: PolicyFormValues): { body: Record<string, unknown>; rowOfStep: number[] } {
  const rowOfStep: number[] = [];
  const steps = values.steps.flatMap((row, index) => {
    if (isEmpty(row)) return [];
    rowOfStep.push(index);
    const typed = row.delay_minutes.trim();
    const minutes = typed === '' ? 0 : Number(typed);
    return [{
      delay_seconds: Number.isFinite(minutes) ? Math.round(minutes * 60) : typed,
      notification_group_ids: row.group_ids,
      notification_channel_ids: row.channel_ids,
      on_call_schedule_ids: row.schedule_ids,
      urgent: row.urgent,
    }];
  });
  const repeat = values.repeat.trim();
  return { body: { name: values.name.trim(), steps, repeat: /^\d{1,3}$/.test(repeat) ? Number(repeat) : repeat === '' ? 0 : repeat }, rowOfStep };
}

const STEP_FIELDS: Record<string, string> = {
  delay_seconds: 'delay',
  notification_group_ids: 'groups',
  notification_channel_ids: 'channels',
  on_call_schedule_ids: 'on-call schedules',
};

/**
 * A refusal in the form's words and the id of the field it is about: `steps[1].delay_seconds must
 * …` becomes "Step 3: delay must …" when the second step came from the third row.
 */
export function formRefusal(message: string, rowOfStep: readonly number[]): { field: string | null; message: string } {
  const step = /^steps\[(\d+)\](?:\.(\w+))?:?\s*/.exec(message);
  if (step) {
    const row = rowOfStep[Number(step[1])] ?? Number(step[1]);
    const part = step[2] ? STEP_FIELDS[step[2]] ?? step[2] : null;
    const rest = message.slice(step[0].length).replace(/steps\[(\d+)\]\.delay_seconds/g, (_all, i: string) => `step ${(rowOfStep[Number(i)] ?? Number(i)) + 1}'s delay`);
    const field = part === 'delay' ? `step-${row}-delay` : `step-${row}`;
    const words = rest
      .replace('notification_group_ids, notification_channel_ids or on_call_schedule_ids', 'a group, a channel or whoever is on call')
      .replace(/\b(delay_seconds|notification_group_ids|notification_channel_ids|on_call_schedule_ids)\b/g, (name) => STEP_FIELDS[name]!);
    return { field, message: `Step ${row + 1}: ${part ? `${part} ` : ''}${words}` };
  }
  if (/^steps\b/.test(message)) return { field: 'step-0', message: message.replace(/^steps:?\s*/, 'Steps: ') };
  if (/^name\b/.test(message)) return { field: 'policy-name', message: message.replace(/^name:?\s*/, 'Name: ') };
  if (/^repeat\b/.test(message)) return { field: 'policy-repeat', message: message.replace(/^repeat:?\s*/, 'Repeat: ') };
  return { field: null, message };
}
