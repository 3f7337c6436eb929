import type { ReadModelStore } from '../readstore/read-model-store.js';
import type { NoteVisibility } from '../domain/incidents/incident-notes.js';
import { type IncidentNoteDocument, incidentNotesProjection } from '../../projections/incident-notes.js';

const COLLECTION = incidentNotesProjection.collection.name;

/** An incident's notes and postmortems, oldest first; only those of one visibility when given. */
export async function notesOfIncident(readModels: ReadModelStore, incidentId: string, visibility?: NoteVisibility): Promise<IncidentNoteDocument[]> {
  const filter = { incident_id: incidentId, ...(visibility ? { visibility } : {}) };
  // The store breaks ties by id, and note ids are time-ordered: two added in the same millisecond
  // list in the order they were added.
  return (await readModels.find<IncidentNoteDocument>(COLLECTION, filter, { sort: [['added_at', 1]] })).map((s) => s.doc);
}

export async function getNote(readModels: ReadModelStore, noteId: string): Promise<IncidentNoteDocument | null> {
  return (await readModels.get<IncidentNoteDocument>(COLLECTION, noteId))?.doc ?? null;
}
