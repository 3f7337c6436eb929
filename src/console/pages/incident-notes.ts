import type { IncidentDocument } from '../../../projections/incidents.js';
import { NOTE_TEXT_MAX, type NoteVisibility } from '../../domain/incidents/incident-notes.js';
import type { TimelineEntry } from '../../queries/timeline.js';
import { utc } from '../format.js';
import { type Html, html } from '../html.js';
import { type Viewer, csrfField } from '../layout.js';

export const NOTE_ENTRY = 'IncidentNoteAdded';

/** A note sent back with what was wrong with it, the text kept. */
export interface NoteFormError {
  message: string;
  text: string;
  visibility: NoteVisibility;
}

const VISIBILITY_TEXT: Record<NoteVisibility, string> = { public: 'Public', internal: 'Internal' };

function visibilityOf(entry: TimelineEntry): NoteVisibility {
  return entry.data['visibility'] === 'public' ? 'public' : 'internal';
}

/** A note in the timeline: who wrote it and when, whether it is public, and its text as written. */
export function noteEntry(entry: TimelineEntry): Html {
  const visibility = visibilityOf(entry);
  const title = entry.data['kind'] === 'postmortem' ? 'Postmortem' : 'Note';
  const email = typeof entry.data['email'] === 'string' ? entry.data['email'] : '';
  return html`<li class="kind-note"><time class="when" datetime="${entry.at}" title="${entry.at}">${utc(entry.at)}</time>
<span class="what"><strong>${title}</strong> by ${email} <span class="visibility visibility-${visibility}">${VISIBILITY_TEXT[visibility]}</span></span>
<p class="note-text">${typeof entry.data['text'] === 'string' ? entry.data['text'] : ''}</p></li>`;
}

/**
 * The form under the timeline: "Add a note" while the incident is open, "Write a postmortem" once
 * it is resolved. Only for callers who may act on it, and never on an archived incident.
 */
export function noteForm(options: { viewer: Viewer; incident: IncidentDocument; canAct: boolean; monitorExists: boolean; error: NoteFormError | null }): Html | null {
  const { viewer, incident, error } = options;
  if (!options.canAct || !options.monitorExists) return null;
  const resolved = incident.status === 'RESOLVED';
  const heading = resolved ? 'Write a postmortem' : 'Add a note';
  const hint = resolved
    ? `What happened, why, and what will keep it from happening again. Up to ${NOTE_TEXT_MAX} characters.`
    : `What was tried, who is on it. Up to ${NOTE_TEXT_MAX} characters.`;
  const visibility = error?.visibility ?? 'internal';
  const radio = (value: NoteVisibility, label: string, explained: string) =>
    html`<div class="radio"><input type="radio" id="note-${value}" name="visibility" value="${value}"${visibility === value ? html` checked` : null}>
<label for="note-${value}">${label} <span class="hint">${explained}</span></label></div>`;
  return html`<section class="panel note-panel" aria-labelledby="note-heading"><h2 id="note-heading">${heading}</h2>
${error
  ? html`<div class="error-summary" role="alert" aria-labelledby="note-error-title"><h3 id="note-error-title">There is a problem</h3><ul><li><a href="#note-text">${error.message}</a></li></ul></div>`
  : null}
<form method="post" action="/incidents/${incident.id}/notes">${csrfField(viewer)}
<input type="hidden" name="kind" value="${resolved ? 'postmortem' : 'note'}">
<div class="field${error ? ' field-error' : ''}"><label for="note-text">${resolved ? 'Postmortem' : 'Note'}</label>
<p class="hint" id="note-text-hint">${hint}</p>
${error ? html`<p class="error-message" id="note-text-error">${error.message}</p>` : null}
<textarea id="note-text" name="text" rows="5" maxlength="${NOTE_TEXT_MAX}" required aria-describedby="note-text-hint${error ? ' note-text-error' : ''}">${error?.text ?? ''}</textarea></div>
<fieldset class="field visibility-choice"><legend>Who may read it</legend>
${radio('internal', 'Internal', 'members of this project only')}
${radio('public', 'Public', 'may also be shown on public status pages')}
</fieldset>
<button type="submit" class="button ${resolved ? 'button-primary' : 'button-secondary'}">${resolved ? 'Save the postmortem' : 'Add the note'}</button>
</form></section>`;
}
