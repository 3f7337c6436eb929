import { NOTE_KINDS, NOTE_TEXT_MAX, NOTE_VISIBILITIES } from '../../domain/incidents/incident-notes.js';
import { BodyOf, Checked, OneOf } from '../validation.js';

/** Trimmed, then 1 to NOTE_TEXT_MAX characters: what the note records is what was meant. */
export const NoteText = Checked<string>(
  `a string of 1 to ${NOTE_TEXT_MAX} characters`,
  (u) => {
    if (typeof u !== 'string') return { ok: false, message: `text must be a string of 1 to ${NOTE_TEXT_MAX} characters` };
    const text = u.trim();
    if (text.length === 0) return { ok: false, message: 'text must not be empty' };
    if (text.length > NOTE_TEXT_MAX) return { ok: false, message: `text must be at most ${NOTE_TEXT_MAX} characters; this one has ${text.length}` };
    return { ok: true, value: text };
  },
  { type: 'string', minLength: 1, maxLength: NOTE_TEXT_MAX, description: 'Trimmed before it is counted and recorded.' },
);

/**
 * `kind` defaults to `note` and `visibility` to `internal`: a default never publishes anything, and
 * a note sent to a resolved incident is refused rather than recorded as its postmortem.
 */
export const AddNoteBody = BodyOf({ text: NoteText }, { kind: OneOf(NOTE_KINDS), visibility: OneOf(NOTE_VISIBILITIES) });
