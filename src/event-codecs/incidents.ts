import * as t from 'io-ts';
import { NOTE_KINDS, NOTE_VISIBILITIES } from '../domain/incidents/incident-notes.js';
import { AnyObject, NullableString, nullable, oneOf } from './fields.js';

const Ids = { incident_id: t.string, monitor_id: t.string, project_id: t.string };

/** Version 2 (IncidentAcknowledged, IncidentNoteAdded): `api_key_id` null for a person signed in to the console without a key. */
export const UserActor = { user_id: t.string, email: t.string, api_key_id: NullableString };

export const incidentEventCodecs = {
  IncidentEvidenceRecorded: t.type({ ...Ids, configuration: AnyObject, evidence: t.array(AnyObject), recorded_at: t.string }),
  IncidentArchived: t.type({ ...Ids, incident: AnyObject, configuration: nullable(AnyObject), timeline: t.array(AnyObject), archived_at: t.string }),
  IncidentNoteAdded: t.type({
    ...UserActor,
    ...Ids,
    note_id: t.string,
    kind: oneOf(NOTE_KINDS, 'NoteKind'),
    visibility: oneOf(NOTE_VISIBILITIES, 'NoteVisibility'),
    text: t.string,
    added_at: t.string,
  }),
};
