import { type EscalationStopReason, nextStepDueAt, stepAfter } from '../src/domain/escalation/escalation.js';
import type { EscalationStep } from '../src/domain/escalation/steps.js';
import type { Projection, Target } from '../src/projector/projection.js';

export interface ReachedStep {
  step: number;
  round: number;
  page_id: string;
  channel_ids: string[];
  urgent: boolean;
  due_at: string;
  at: string;
}

/** One incident's escalation: the policy as snapshotted, the steps paged, and when the next one is due. */
export interface EscalationDocument {
  id: string;
  incident_id: string;
  monitor_id: string;
  project_id: string;
  policy_id: string;
  policy_name: string;
  steps: EscalationStep[];
  repeat: number;
  /** The monitor's opening page, which the steps replace. */
  opened_page_id: string;
  started_at: string;
  status: 'active' | 'stopped';
  stop_reason: EscalationStopReason | null;
  stopped_at: string | null;
  next_round: number | null;
  next_step: number | null;
  /** When the next step is due; null once stopped or after the last step. */
  next_at: string | null;
  reached: ReachedStep[];
  /** Every channel a step paged, each once: the acknowledgement and resolution go to these only. */
  paged_channel_ids: string[];
  /** Steps reached whose page is not fanned out yet (a crash between the two): the escalator sends them. */
  unsent_page_ids: string[];
  has_unsent: boolean;
}

export const escalationsProjection: Projection<EscalationDocument> = {
  name: 'escalations',
  version: 1,
  collection: { name: 'escalations', indexes: [{ fields: ['status', 'next_at'] }, { fields: ['monitor_id'] }, { fields: ['has_unsent'] }] },
  handles: ['EscalationStarted', 'EscalationStepReached', 'EscalationStopped', 'PageFannedOut', 'MonitorDeleted', 'ProjectDeleted'],
  targets(event): Target {
    switch (event.type) {
      case 'ProjectDeleted':
        return { where: { project_id: event.data.project_id } };
      case 'MonitorDeleted':
        return { where: { monitor_id: event.data.monitor_id } };
      case 'EscalationStarted':
      case 'EscalationStepReached':
      case 'EscalationStopped':
        return { ids: [event.data.incident_id] };
      case 'PageFannedOut':
        return { ids: event.data.page_id.includes('.escalation.') ? [event.data.incident_id] : [] };
      default:
        return { ids: [] };
    }
  },
  apply(doc, event) {
    switch (event.type) {
      case 'EscalationStarted': {
        const d = event.data;
        const started: EscalationDocument = {
          id: d.incident_id, incident_id: d.incident_id, monitor_id: d.monitor_id, project_id: d.project_id, policy_id: d.policy_id, policy_name: d.policy_name,
          steps: d.steps, repeat: d.repeat, opened_page_id: d.page_id, started_at: d.started_at, status: 'active', stop_reason: null, stopped_at: null,
          next_round: 0, next_step: 0, next_at: null, reached: [], paged_channel_ids: [], unsent_page_ids: [], has_unsent: false,
        };
        return withNextAt(started);
      }
      case 'EscalationStepReached': {
        if (!doc) return doc;
        const { step, round, page_id, channel_ids, urgent, due_at, at } = event.data;
        const next = stepAfter({ policy_id: doc.policy_id, policy_name: doc.policy_name, steps: doc.steps, repeat: doc.repeat }, { round, step });
        return withNextAt({
          ...doc, reached: [...doc.reached, { step, round, page_id, channel_ids, urgent, due_at, at }],
          paged_channel_ids: [...new Set([...doc.paged_channel_ids, ...channel_ids])], unsent_page_ids: [...doc.unsent_page_ids, page_id], has_unsent: true, next_round: next?.round ?? null, next_step: next?.step ?? null,
        });
      }
      case 'EscalationStopped':
        return doc && { ...doc, status: 'stopped', stop_reason: event.data.reason, stopped_at: event.data.at, next_round: null, next_step: null, next_at: null };
      case 'PageFannedOut':
      {
        if (!doc) return doc;
        const unsent = doc.unsent_page_ids.filter((id) => id !== event.data.page_id);
        return { ...doc, unsent_page_ids: unsent, has_unsent: unsent.length > 0 };
      }
      case 'MonitorDeleted':
      case 'ProjectDeleted':
        return null;
      default:
        return doc;
    }
  },
};

function withNextAt(doc: EscalationDocument): EscalationDocument {
  const next = doc.next_round === null || doc.next_step === null ? null : { round: doc.next_round, step: doc.next_step };
  const policy = { policy_id: doc.policy_id, policy_name: doc.policy_name, steps: doc.steps, repeat: doc.repeat };
  return { ...doc, next_at: nextStepDueAt({ status: doc.status, policy, startedAt: doc.started_at, next }) };
}
