import type { Router } from '@koa/router';
import { addIncidentNote } from '../../app/incident-notes.js';
import { getNote, notesOfIncident } from '../../queries/incident-notes.js';
import type { IncidentDocument } from '../../../projections/incidents.js';
import { actorOf } from '../../web/actor.js';
import { AddNoteBody } from '../../web/codecs/incident-notes.js';
import { type ApiDependencies, settled } from '../../web/dependencies.js';
import { HttpError } from '../../web/errors.js';
import { gatedDocument, userActor } from '../../web/monitor-access.js';
import { noteBody } from '../../web/representations/incident-notes.js';
import type { VigilState } from '../../web/state.js';
import { decode } from '../../web/validation.js';
import { ACT } from '../../app/monitor-rules.js';

const READ = { scope: 'read' } as const;

/** Notes while an incident is open, postmortems once it is resolved; each public or internal. */
export function incidentNoteRoutes(router: Router<VigilState>, deps: ApiDependencies): void {
  const { readModels, commands } = deps;

  router.get('/incidents/:incidentId/notes', async (ctx) => {
    const incident = await gatedDocument<IncidentDocument>(readModels, ctx.state, 'incidents', ctx.params['incidentId'], 'incident', READ);
    ctx.body = { notes: (await notesOfIncident(readModels, incident.id)).map(noteBody) };
  });

  router.post('/incidents/:incidentId/notes', async (ctx) => {
    const incident = await gatedDocument<IncidentDocument>(readModels, ctx.state, 'incidents', ctx.params['incidentId'], 'incident', ACT);
    const body = decode(AddNoteBody, ctx.request.body);
    const { note, position } = await addIncidentNote(
      commands,
      { monitor_id: incident.monitor_id, incident_id: incident.id, kind: body.kind ?? 'note', visibility: body.visibility ?? 'internal', text: body.text },
      await userActor(readModels, ctx.state),
      actorOf(ctx.state),
    );
    await settled(deps, position, ctx.state);
    const stored = await getNote(readModels, note.note_id);
    if (!stored) throw new HttpError(404, 'note not found');
    ctx.status = 201;
    ctx.body = { note: noteBody(stored) };
  });
}
