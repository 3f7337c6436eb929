import type { Decider, DomainEvent } from '../decider.js';

/**
 * An incident's own stream, `incident-<id>`: what it needs to be read and replayed without its
 * monitor. The evidence and the configuration are recorded when it opens (ping retention cannot
 * take them); the whole record and its timeline when its monitor is deleted (the incident stays
 * readable in the project's history).
 */
export type IncidentRecordEvent =
  | DomainEvent<
      'IncidentEvidenceRecorded',
      { incident_id: string; monitor_id: string; project_id: string; configuration: Record<string, unknown>; evidence: Record<string, unknown>[]; recorded_at: string }
    >
  | DomainEvent<
      'IncidentArchived',
      {
        incident_id: string;
        monitor_id: string;
        project_id: string;
        incident: Record<string, unknown>;
        configuration: Record<string, unknown> | null;
        timeline: Record<string, unknown>[];
        archived_at: string;
      }
    >;

export type IncidentRecordCommand =
  | { type: 'RecordEvidence'; data: Extract<IncidentRecordEvent, { type: 'IncidentEvidenceRecorded' }>['data'] }
  | { type: 'ArchiveIncident'; data: Extract<IncidentRecordEvent, { type: 'IncidentArchived' }>['data'] };

export interface IncidentRecordState {
  evidenceRecorded: boolean;
  archived: boolean;
}

export const incidentStream = (incidentId: string) => `incident-${incidentId}`;

export const incidentRecordDecider: Decider<IncidentRecordCommand, IncidentRecordState, IncidentRecordEvent> = {
  initialState: () => ({ evidenceRecorded: false, archived: false }),
  evolve(state, event) {
    switch (event.type) {
      case 'IncidentEvidenceRecorded':
        return { ...state, evidenceRecorded: true };
      case 'IncidentArchived':
        return { ...state, archived: true };
      default: {
        const exhaustive: never = event;
        return exhaustive;
      }
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'RecordEvidence':
        return state.evidenceRecorded ? [] : [{ type: 'IncidentEvidenceRecorded', data: command.data }];
      case 'ArchiveIncident':
        return state.archived ? [] : [{ type: 'IncidentArchived', data: command.data }];
      default: {
        const exhaustive: never = command;
        return exhaustive;
      }
    }
  },
};
