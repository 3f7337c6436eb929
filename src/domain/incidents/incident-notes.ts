import type { Decider, DomainEvent } from '../decider.js';
import { invalid, notFound } from '../errors.js';
import type { IncidentStatus, UserActor } from '../monitors/incidents.js';
import type { MonitorEvent } from '../monitors/monitor.js';
import type { IncidentRecordEvent } from './incident-record.js';

export const NOTE_KINDS = ['note', 'postmortem'] as const;
export type NoteKind = (typeof NOTE_KINDS)[number];
export const NOTE_VISIBILITIES = ['internal', 'public'] as const;
export type NoteVisibility = (typeof NOTE_VISIBILITIES)[number];
export const NOTE_TEXT_MAX = 4000;

/**
 * Written by a member in the incident's own stream, `incident-<id>`: a `note` while it is open
 * (what was tried, who is on it), a `postmortem` once it is resolved. `public` ones may be shown
 * outside the project (a status page), `internal` ones only to its members.
 */
export interface IncidentNoteAddedData extends UserActor {
  incident_id: string;
  monitor_id: string;
  project_id: string;
  note_id: string;
  kind: NoteKind;
  visibility: NoteVisibility;
  text: string;
  added_at: string;
}

export type IncidentNoteEvent = DomainEvent<'IncidentNoteAdded', IncidentNoteAddedData>;

export interface AddIncidentNote {
  type: 'AddIncidentNote';
  incident_id: string;
  note_id: string;
  kind: NoteKind;
  visibility: NoteVisibility;
  text: string;
  by: UserActor;
  now: string;
}

/** What the decision reads: the events of the monitor's stream and of the incident's own. */
export type IncidentNoteInput = MonitorEvent | IncidentRecordEvent | IncidentNoteEvent;

/**
 * Folded from two streams: where the incident's status is decided (its monitor's) and where its
 * notes go (its own). The append is conditional on both streams' revisions, so a note is never
 * recorded against a status that changed after it was read.
 */
export interface IncidentNotesState {
  monitorId: string;
  projectId: string;
  /** Every incident of the monitor with its status, from the monitor's stream. */
  incidents: ReadonlyMap<string, IncidentStatus>;
  monitorDeleted: boolean;
  /** From the incident's stream: archived before its monitor's streams were deleted. */
  archived: boolean;
  noteIds: ReadonlySet<string>;
}

function withStatus(state: IncidentNotesState, incidentId: string, status: IncidentStatus): IncidentNotesState {
  if (!state.incidents.has(incidentId) && status !== 'OPEN') return state;
  return { ...state, incidents: new Map(state.incidents).set(incidentId, status) };
}

/**
 * Several postmortems are allowed: events are never edited, so a corrected or fuller account is a
 * new one, shown after the first (readers take the newest as the current one).
 */
export const incidentNotesDecider: Decider<AddIncidentNote, IncidentNotesState, IncidentNoteInput> = {
  initialState: () => ({ monitorId: '', projectId: '', incidents: new Map(), monitorDeleted: false, archived: false, noteIds: new Set() }),
  evolve(state, event) {
    switch (event.type) {
      case 'MonitorCreated':
        return { ...state, monitorId: event.data.monitor_id, projectId: event.data.project_id };
      case 'IncidentOpened':
        return withStatus(state, event.data.incident_id, 'OPEN');
      case 'IncidentAcknowledged':
        return withStatus(state, event.data.incident_id, 'ACKNOWLEDGED');
      case 'IncidentResolved':
        return withStatus(state, event.data.incident_id, 'RESOLVED');
      case 'MonitorDeleted':
        return { ...state, monitorDeleted: true };
      case 'IncidentArchived':
        return { ...state, archived: true };
      case 'IncidentNoteAdded':
        return { ...state, noteIds: new Set(state.noteIds).add(event.data.note_id) };
      default:
        // The monitor's other events (pings, checks, pages, settings) say nothing about notes.
        return state;
    }
  },
  decide(command, state) {
    if (state.noteIds.has(command.note_id)) return [];
    const id = command.incident_id;
    if (state.archived || state.monitorDeleted) throw invalid(`incident ${id} is archived with its deleted monitor; it takes no more notes`);
    const status = state.incidents.get(id);
    if (status === undefined) throw notFound('incident not found');
    if (command.kind === 'note' && status === 'RESOLVED') {
      throw invalid('the incident is RESOLVED: a note is for an open incident; write a postmortem (kind "postmortem") instead');
    }
    if (command.kind === 'postmortem' && status !== 'RESOLVED') {
      throw invalid(`a postmortem is written once the incident is RESOLVED; this one is ${status}: add a note (kind "note") instead`);
    }
    const text = command.text.trim();
    if (text.length === 0 || text.length > NOTE_TEXT_MAX) throw invalid(`text must be 1 to ${NOTE_TEXT_MAX} characters`);
    return [
      {
        type: 'IncidentNoteAdded',
        data: {
          incident_id: id, monitor_id: state.monitorId, project_id: state.projectId, note_id: command.note_id,
          kind: command.kind, visibility: command.visibility, text, added_at: command.now, ...command.by,
        },
      },
    ];
  },
};
