import * as t from 'io-ts';
import { MAX_DELAY_SECONDS, MAX_REPEAT, MAX_STEPS } from '../../domain/escalation/steps.js';
import { withRefinementKeywords } from '../json-schema.js';
import { BodyOf, Integer, OneOf, Uuid } from '../validation.js';
import { Label } from '../labels.js';

const listOf = <A>(item: t.Type<A, A, unknown>, min: number, max: number) =>
  withRefinementKeywords(t.refinement(t.array(item), (items) => items.length >= min && items.length <= max, `an array of ${min} to ${max} items`), { minItems: min, maxItems: max });

const Ids = listOf(Uuid, 0, 50);

/** A step as the API takes it: every list optional (default []), `urgent` default false; that it names a target the handler checks. */
export const StepInput = BodyOf(
  { delay_seconds: Integer(0, MAX_DELAY_SECONDS) },
  { notification_group_ids: Ids, notification_channel_ids: Ids, on_call_schedule_ids: Ids, urgent: t.boolean },
  'a step object',
);
const Steps = listOf(StepInput, 1, MAX_STEPS);

export const CreateEscalationPolicyBody = BodyOf({ name: Label(1, 100), steps: Steps }, { project_id: Uuid, repeat: Integer(0, MAX_REPEAT) });
export const UpdateEscalationPolicyBody = BodyOf({}, { name: Label(1, 100), steps: Steps, repeat: Integer(0, MAX_REPEAT) });
/** `clear_monitors=true`: take the policy off the monitors that use it, then delete it. */
export const DeleteEscalationPolicyQuery = t.partial({ clear_monitors: OneOf(['true', 'false'] as const) });
