import type { EscalationStep } from '../src/domain/escalation/steps.js';
import type { Projection, Target } from '../src/projector/projection.js';

export interface EscalationPolicyDocument {
  id: string;
  project_id: string;
  name: string;
  steps: EscalationStep[];
  repeat: number;
  created_at: string;
  updated_at: string;
}

export const escalationPoliciesProjection: Projection<EscalationPolicyDocument> = {
  name: 'escalation_policies',
  version: 1,
  collection: { name: 'escalation_policies', indexes: [{ fields: ['project_id', 'created_at'] }] },
  handles: ['EscalationPolicyCreated', 'EscalationPolicyUpdated', 'EscalationPolicyDeleted', 'ProjectDeleted'],
  targets(event): Target {
    switch (event.type) {
      case 'ProjectDeleted':
        return { where: { project_id: event.data.project_id } };
      case 'EscalationPolicyCreated':
      case 'EscalationPolicyUpdated':
      case 'EscalationPolicyDeleted':
        return { ids: [event.data.policy_id] };
      default:
        return { ids: [] };
    }
  },
  apply(doc, event) {
    switch (event.type) {
      case 'EscalationPolicyCreated': {
        const d = event.data;
        return { id: d.policy_id, project_id: d.project_id, name: d.name, steps: d.steps, repeat: d.repeat, created_at: d.at, updated_at: d.at };
      }
      case 'EscalationPolicyUpdated': {
        const { name, steps, repeat, at } = event.data;
        return doc && { ...doc, name, steps, repeat, updated_at: at };
      }
      case 'EscalationPolicyDeleted':
      case 'ProjectDeleted':
        return null;
      default:
        return doc;
    }
  },
};
