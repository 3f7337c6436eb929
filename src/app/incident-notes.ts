import { type IncidentNoteAddedData, type NoteKind, type NoteVisibility, incidentNotesDecider } from '../domain/incidents/incident-notes.js';
import { incidentStream } from '../domain/incidents/incident-record.js';
import type { UserActor } from '../domain/monitors/incidents.js';
import { monitorStream } from '../domain/monitors/monitor.js';
import { type Actor, handleCommandOnStreams } from './command-handler.js';
import { type CommandContext, nowIso } from './context.js';

export interface NoteInput {
  monitor_id: string;
  incident_id: string;
  kind: NoteKind;
  visibility: NoteVisibility;
  text: string;
}

/**
 * Adds a note (or a postmortem) to an incident, in the incident's own stream. Whether it may is
 * decided on the incident's status, which lives in its monitor's stream: the append checks both.
 * Returns the note as recorded and its log position, for read-your-writes.
 */
export async function addIncidentNote(context: CommandContext, input: NoteInput, by: UserActor, actor: Actor): Promise<{ note: IncidentNoteAddedData; position: number | null }> {
  const outcome = await handleCommandOnStreams(
    context,
    [incidentStream(input.incident_id), monitorStream(input.monitor_id)],
    incidentNotesDecider,
    {
      type: 'AddIncidentNote',
      incident_id: input.incident_id,
      // Time-ordered: notes added in the same millisecond still list in the order they were added.
      note_id: context.newTimeOrderedId(),
      kind: input.kind,
      visibility: input.visibility,
      text: input.text,
      by,
      now: nowIso(context),
    },
    actor,
  );
  const [added] = outcome.events;
  if (added?.type !== 'IncidentNoteAdded') throw new Error('the note was not recorded');
  return { note: added.data, position: outcome.position };
}
