import * as t from 'io-ts';
import { oneOf } from './fields.js';

const Step = t.type({
  delay_seconds: t.number,
  notification_group_ids: t.array(t.string),
  notification_channel_ids: t.array(t.string),
  on_call_schedule_ids: t.array(t.string),
  urgent: t.boolean,
});
const PolicyIds = { policy_id: t.string, project_id: t.string };
const PolicySettings = { name: t.string, steps: t.array(Step), repeat: t.number };
const IncidentIds = { incident_id: t.string, monitor_id: t.string, project_id: t.string };

export const escalationEventCodecs = {
  EscalationPolicyCreated: t.type({ ...PolicyIds, ...PolicySettings, at: t.string }),
  EscalationPolicyUpdated: t.type({ ...PolicyIds, ...PolicySettings, at: t.string }),
  EscalationPolicyDeleted: t.type({ ...PolicyIds, at: t.string }),
  EscalationStarted: t.type({
    ...IncidentIds, policy_id: t.string, policy_name: t.string, steps: t.array(Step), repeat: t.number, page_id: t.string, started_at: t.string, at: t.string,
  }),
  EscalationStepReached: t.type({
    ...IncidentIds, step: t.number, round: t.number, page_id: t.string, channel_ids: t.array(t.string), urgent: t.boolean, due_at: t.string, at: t.string,
  }),
  EscalationStepHeld: t.type({ ...IncidentIds, step: t.number, round: t.number, window_id: t.string, window_name: t.string, until: t.string, at: t.string }),
  EscalationStopped: t.type({ ...IncidentIds, reason: oneOf(['acknowledged', 'resolved', 'exhausted'], 'EscalationStopReason'), at: t.string }),
};
