import type { NoteKind, NoteVisibility } from '../src/domain/incidents/incident-notes.js';
import type { Projection, Target } from '../src/projector/projection.js';

/**
 * The notes and postmortems written on incidents, one document each. They live in the incident's
 * own stream, so they outlive its monitor as the incident does; only the project's deletion
 * removes them. Status pages read the `public` ones of an incident (`{ incident_id, visibility }`).
 */
export interface IncidentNoteDocument {
  [key: string]: unknown;
  id: string;
  incident_id: string;
  monitor_id: string;
  project_id: string;
  kind: NoteKind;
  visibility: NoteVisibility;
  text: string;
  added_at: string;
  author_user_id: string;
  author_email: string;
}

export const incidentNotesProjection: Projection<IncidentNoteDocument> = {
  name: 'incident_notes',
  version: 1,
  collection: {
    name: 'incident_notes',
    indexes: [{ fields: ['incident_id', 'visibility', 'added_at'] }, { fields: ['incident_id', 'added_at'] }, { fields: ['project_id'] }],
  },
  handles: ['IncidentNoteAdded', 'ProjectDeleted'],
  // A note is made from its one event and only ever deleted after.
  fromEventAlone: true,
  targets(event): Target {
    switch (event.type) {
      case 'IncidentNoteAdded':
        return { ids: [event.data.note_id] };
      case 'ProjectDeleted':
        return { where: { project_id: event.data.project_id } };
      default:
        return { ids: [] };
    }
  },
  apply(doc, event) {
    switch (event.type) {
      case 'IncidentNoteAdded': {
        const d = event.data;
        return {
          id: d.note_id, incident_id: d.incident_id, monitor_id: d.monitor_id, project_id: d.project_id,
          kind: d.kind, visibility: d.visibility, text: d.text, added_at: d.added_at, author_user_id: d.user_id, author_email: d.email,
        };
      }
      case 'ProjectDeleted':
        return null;
      default:
        return doc;
    }
  },
};
