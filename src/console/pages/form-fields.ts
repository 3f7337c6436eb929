import { type Html, html } from '../html.js';

/** One labelled input of a form, GOV.UK style: label, hint, error, input. */
export interface FormField {
  /** The element id, which the error summary links to; the form field's name is `name`. */
  id: string;
  name: string;
  label: string;
  type: 'text' | 'email' | 'password';
  autocomplete: string;
  /** What was typed, kept when the form comes back with errors (never for a password). */
  value?: string;
  hint?: string;
}

/** Errors by field id, in the order the fields come. */
export type FieldErrors = Readonly<Record<string, string>>;

export function errorSummary(errors: FieldErrors): Html | null {
  const entries = Object.entries(errors);
  if (entries.length === 0) return null;
  return html`<div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex="-1">
<h2 id="error-summary-title">There is a problem</h2>
<ul>${entries.map(([id, message]) => html`<li><a href="#${id}">${message}</a></li>`)}</ul>
</div>`;
}

export function formField(field: FormField, errors: FieldErrors): Html {
  const error = errors[field.id];
  const described = [field.hint ? `${field.id}-hint` : null, error ? `${field.id}-error` : null].filter(Boolean).join(' ');
  return html`<div class="field${error ? ' field-error' : ''}">
<label for="${field.id}">${field.label}</label>
${field.hint ? html`<p class="hint" id="${field.id}-hint">${field.hint}</p>` : null}
${error ? html`<p class="error-message" id="${field.id}-error"><span class="visually-hidden">Error:</span> ${error}</p>` : null}
<input type="${field.type}" id="${field.id}" name="${field.name}" autocomplete="${field.autocomplete}"${field.type === 'email' || field.type === 'password' ? html` spellcheck="false"` : null}${field.type !== 'password' && field.value ? html` value="${field.value}"` : null}${described ? html` aria-describedby="${described}"` : null} required>
</div>`;
}
