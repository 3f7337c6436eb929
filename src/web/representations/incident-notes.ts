import type { IncidentNoteDocument } from '../../../projections/incident-notes.js';

export function noteBody(doc: IncidentNoteDocument) {
  return {
    id: doc.id,
    incident_id: doc.incident_id,
    monitor_id: doc.monitor_id,
    project_id: doc.project_id,
    kind: doc.kind,
    visibility: doc.visibility,
    text: doc.text,
    added_at: doc.added_at,
    author_user_id: doc.author_user_id,
    author_email: doc.author_email,
  };
}
