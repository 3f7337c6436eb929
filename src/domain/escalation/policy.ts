import type { Decider, DomainEvent } from '../decider.js';
import { notFound } from '../errors.js';
import { type PolicySettings, assertPolicySettings } from './steps.js';

export type { EscalationStep, PolicySettings } from './steps.js';

type Ids = { policy_id: string; project_id: string };

export type EscalationPolicyEvent =
  | DomainEvent<'EscalationPolicyCreated', Ids & PolicySettings & { at: string }>
  /** The policy's full new state. */
  | DomainEvent<'EscalationPolicyUpdated', Ids & PolicySettings & { at: string }>
  | DomainEvent<'EscalationPolicyDeleted', Ids & { at: string }>;

export type EscalationPolicyCommand =
  | { type: 'CreateEscalationPolicy'; policy_id: string; project_id: string; settings: PolicySettings; now: string }
  | { type: 'UpdateEscalationPolicy'; policy_id: string; changes: Partial<PolicySettings>; now: string }
  | { type: 'DeleteEscalationPolicy'; policy_id: string; now: string };

export interface EscalationPolicyState {
  status: 'absent' | 'active' | 'deleted';
  projectId: string;
  settings: PolicySettings | null;
}

export const escalationPolicyStream = (policyId: string) => `escalation-policy-${policyId}`;

const settingsOf = ({ name, steps, repeat }: PolicySettings): PolicySettings => ({ name, steps, repeat });

export const escalationPolicyDecider: Decider<EscalationPolicyCommand, EscalationPolicyState, EscalationPolicyEvent> = {
  initialState: () => ({ status: 'absent', projectId: '', settings: null }),
  evolve(state, event) {
    switch (event.type) {
      case 'EscalationPolicyCreated':
        return { status: 'active', projectId: event.data.project_id, settings: settingsOf(event.data) };
      case 'EscalationPolicyUpdated':
        return { ...state, settings: settingsOf(event.data) };
      case 'EscalationPolicyDeleted':
        return { ...state, status: 'deleted' };
      default: {
        const exhaustive: never = event;
        return exhaustive;
      }
    }
  },
  decide(command, state) {
    if (command.type === 'CreateEscalationPolicy') {
      if (state.status !== 'absent') return [];
      assertPolicySettings(command.settings);
      return [{ type: 'EscalationPolicyCreated', data: { policy_id: command.policy_id, project_id: command.project_id, ...settingsOf(command.settings), at: command.now } }];
    }
    if (state.status !== 'active' || !state.settings) throw notFound('escalation policy not found');
    const ids = { policy_id: command.policy_id, project_id: state.projectId };
    switch (command.type) {
      case 'UpdateEscalationPolicy': {
        const settings = settingsOf({ ...state.settings, ...command.changes });
        assertPolicySettings(settings);
        if (JSON.stringify(settings) === JSON.stringify(state.settings)) return [];
        return [{ type: 'EscalationPolicyUpdated', data: { ...ids, ...settings, at: command.now } }];
      }
      case 'DeleteEscalationPolicy':
        return [{ type: 'EscalationPolicyDeleted', data: { ...ids, at: command.now } }];
      default: {
        const exhaustive: never = command;
        return exhaustive;
      }
    }
  },
};
