import { Refusal } from '../../app/refusal.js';
import * as t from 'io-ts';
import type { Context } from 'koa';
import type { IncidentDocument } from '../../../projections/incidents.js';
import { actorOf } from '../../web/actor.js';
import { NoteText } from '../../web/codecs/incident-notes.js';
import { settled } from '../../web/dependencies.js';
import { HttpError } from '../../web/errors.js';
import { gatedDocument, userActor } from '../../web/monitor-access.js';
import { ACT } from '../../app/monitor-rules.js';
import { decode, OneOf } from '../../web/validation.js';
import { addIncidentNote } from '../../app/incident-notes.js';
import { DomainError } from '../../domain/errors.js';
import { NOTE_KINDS, NOTE_VISIBILITIES, type NoteVisibility } from '../../domain/incidents/incident-notes.js';
import { getMonitor } from '../../queries/monitors.js';
import { getProject } from '../../queries/projects.js';
import { incidentTimeline } from '../../queries/timeline.js';
import { channelNames } from '../timeline.js';
import type { NoteFormError } from '../pages/incident-notes.js';
import { incidentPage } from '../pages/incident.js';
import type { ConsoleKit, ConsoleRoutes, ConsoleState } from '../kit.js';
import { render } from '../signed-in.js';

const NoteForm = t.type({ text: NoteText, kind: OneOf(NOTE_KINDS), visibility: OneOf(NOTE_VISIBILITIES) });

/** The form's fields as sent, the text with a browser's CRLF line breaks made plain ones. */
function sentFields(body: unknown): Record<string, unknown> {
  const fields: Record<string, unknown> = typeof body === 'object' && body !== null ? Object.fromEntries(Object.entries(body)) : {};
  const text = fields['text'];
  return typeof text === 'string' ? { ...fields, text: text.replace(/\r\n?/g, '\n') } : fields;
}

/** POST /incidents/<id>/notes: a note or a postmortem from the incident page, gated as the REST API's. */
export const incidentNoteRoutes: ConsoleRoutes = (kit: ConsoleKit) => {
  const { router, deps, clock, signedIn } = kit;
  const { readModels, commands } = deps;

  /** The incident page again, with the note sent back to be corrected (GOV.UK: the error names the field and links to it). */
  async function sendBack(ctx: Context & { state: ConsoleState }, incident: IncidentDocument, error: NoteFormError): Promise<void> {
    const [timeline, monitor, project, channels] = await Promise.all([
      incidentTimeline(readModels, commands.events, incident.id, incident.project_id),
      getMonitor(readModels, incident.monitor_id),
      getProject(readModels, incident.project_id),
      channelNames(readModels, incident.project_id),
    ]);
    // Archived with its deleted monitor: the page has no form to send it back to.
    if (!monitor) throw new HttpError(400, error.message);
    render(ctx, incidentPage({
      viewer: ctx.state.viewer, notice: null, incident, projectName: project?.name ?? 'Project', entries: timeline.entries, channels, canAct: true, monitorExists: true, now: clock(), noteError: error,
    }), 400);
  }

  router.post('/incidents/:incidentId/notes', signedIn, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const incident = await gatedDocument<IncidentDocument>(readModels, ctx.state, 'incidents', ctx.params['incidentId'], 'incident', ACT);
    const fields = sentFields(ctx.request.body);
    const sentVisibility: NoteVisibility = fields['visibility'] === 'public' ? 'public' : 'internal';
    const sentText = typeof fields['text'] === 'string' ? fields['text'] : '';
    let form: t.TypeOf<typeof NoteForm>;
    try {
      form = decode(NoteForm, fields, 'form');
    } catch (error) {
      if (!(error instanceof Refusal) || error.status !== 400) throw error;
      return sendBack(ctx, incident, { message: error.message === 'text is required' ? 'text must not be empty' : error.message, text: sentText, visibility: sentVisibility });
    }
    try {
      const { position } = await addIncidentNote(
        commands,
        { monitor_id: incident.monitor_id, incident_id: incident.id, kind: form.kind, visibility: form.visibility, text: form.text },
        await userActor(readModels, ctx.state),
        actorOf(ctx.state),
      );
      await settled(deps, position);
    } catch (error) {
      // The incident moved on while the note was written (resolved, or reopened): say so, keep the text.
      if (!(error instanceof DomainError) || error.reason !== 'invalid') throw error;
      const current = (await readModels.get<IncidentDocument>('incidents', incident.id))?.doc ?? incident;
      return sendBack(ctx, current, { message: error.message, text: sentText, visibility: sentVisibility });
    }
    ctx.status = 303;
    ctx.redirect(`/incidents/${incident.id}?done=${form.kind === 'postmortem' ? 'postmortem' : 'noted'}`);
  });
};
