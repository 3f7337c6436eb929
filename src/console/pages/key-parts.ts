import type { ApiKeyDocument } from '../../../projections/api-keys.js';
import type { Scope } from '../../domain/access/scopes.js';
import { relativeTime, utc } from '../format.js';
import { type Html, html } from '../html.js';
import { type Viewer, csrfField } from '../layout.js';

/*
 * The pieces of the API key pages, shared by a project's settings (`…/settings/keys`, the keys
 * that reach that project) and the account (`/account/api-keys`, all of a person's keys).
 */

export interface KeyRow {
  key: ApiKeyDocument;
  /** The key this browser's session signed in with. */
  isSession: boolean;
  canRevoke: boolean;
  /** Where the key's project is not obvious from the page: its name. */
  projectName?: string | null;
}

function keyState(key: ApiKeyDocument, now: Date): Html {
  if (key.revoked_at) return html`<span class="status status-paused">Revoked</span> <span class="muted">${utc(key.revoked_at)}</span>`;
  if (Date.parse(key.expires_at) <= now.getTime()) return html`<span class="status status-waiting">Expired</span>`;
  return html`<span class="status status-up">Active</span>`;
}

/** Uses are recorded at most once an hour per key: "12 min ago" may mean the key is in use right now. */
export function lastUsed(key: ApiKeyDocument, now: Date): Html {
  const at = key.last_used_at ?? null;
  return at === null ? html`<span class="muted">Never</span>` : html`<time datetime="${at}" title="${utc(at)}">${relativeTime(at, now)}</time>`;
}

function reaches(row: KeyRow): Html {
  const { key } = row;
  const where = key.kind === 'ACCOUNT' ? 'Account' : row.projectName !== undefined ? html`Project ${row.projectName ?? key.project_id ?? ''}` : 'This project';
  return html`${where}${key.env === 'test' ? ' (test)' : ''}`;
}

/** The table of keys; `revokeHref` is where a key's *Revoke…* leads. */
export function keysTable(v: { caption: string; rows: KeyRow[]; now: Date; revokeHref: (key: ApiKeyDocument) => string }): Html {
  if (v.rows.length === 0) return html`<p class="empty">No keys.</p>`;
  const rows = v.rows.map((row) => {
    const { key, isSession, canRevoke } = row;
    return html`<tr data-key-id="${key.id}">
<td data-label="Name"><strong>${key.name}</strong>${isSession ? html` <span class="tag">this session</span>` : null}<span class="monitor-slug"><code>${key.key_preview}</code></span></td>
<td data-label="Reaches">${reaches(row)}</td>
<td data-label="Scopes">${key.kind === 'PROJECT' ? html`<span class="muted">read, manage_monitors (fixed)</span>` : key.scopes.length === 0 ? html`<span class="muted">read</span>` : key.scopes.join(', ')}</td>
<td class="nowrap" data-label="Created">${utc(key.created_at)}</td>
<td class="nowrap" data-label="Expires">${utc(key.expires_at)}</td>
<td class="nowrap" data-label="Last used">${lastUsed(key, v.now)}</td>
<td data-label="State">${keyState(key, v.now)}</td>
<td class="row-actions">${canRevoke && !key.revoked_at ? html`<a class="button button-small button-warning" href="${v.revokeHref(key)}">Revoke…<span class="visually-hidden"> ${key.name}</span></a>` : null}</td>
</tr>`;
  });
  // Rows become cards on a phone (stack-table): seven columns do not fit 390 px.
  return html`<div class="table-wrap"><table class="stack-table keys-table">
<caption class="visually-hidden">${v.caption}</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Reaches</th><th scope="col">Scopes</th><th scope="col">Created</th><th scope="col">Expires</th><th scope="col">Last used</th><th scope="col">State</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

export interface CreateKeyFormView {
  viewer: Viewer;
  action: string;
  /** The scopes an account key made here may have. Empty when it may make none. */
  accountScopes: readonly Scope[];
  /** The projects a key bound to one may be made for: one (a project's settings, named) or a choice. */
  projects: readonly { id: string; name: string }[];
  /** The longest lifetime, in days, a new key may have. */
  maxDays: number;
  maxDaysHint: string;
  /** Why the form came back, and what was typed, kept. */
  problem?: KeyFormProblem | null;
}

/** A refused key, said beside the field it is about (`key-name`, `key-days`, or `key-kind` for what it reaches). */
export interface KeyFormProblem {
  field: 'key-name' | 'key-days' | 'key-kind';
  message: string;
  name: string;
  days: string;
  kind: 'account' | 'project';
  scopes: readonly string[];
  projectId: string | null;
}

/** Which field a refusal from the REST API's checks is about, by the field it names. */
export function keyProblem(message: string): Pick<KeyFormProblem, 'field' | 'message'> {
  if (/^name\b/.test(message)) return { field: 'key-name', message: 'Enter a name for the key, up to 100 characters' };
  if (/expires_in_days|outlive|lifetime/.test(message)) return { field: 'key-days', message };
  return { field: 'key-kind', message };
}

export const mayCreateKeys = (v: Pick<CreateKeyFormView, 'accountScopes' | 'projects'>) => v.accountScopes.length > 0 || v.projects.length > 0;

/** The form that makes a key: name, lifetime, and what it reaches (every project with scopes, or one project). */
export function createKeyForm(v: CreateKeyFormView): Html {
  const [only] = v.projects;
  const problem = v.problem ?? null;
  const projectChosen = v.projects.length > 0 && (v.accountScopes.length === 0 || problem?.kind === 'project');
  const projectChoice = v.projects.length === 0
    ? null
    : v.projects.length === 1 && only
      ? html`<div class="radio"><input type="radio" id="key-kind-project" name="kind" value="project"${projectChosen ? html` checked` : null}><label for="key-kind-project">Only ${only.name}, to read it and manage its monitors (for a server or CI job)</label></div>
<input type="hidden" name="project_id" value="${only.id}">`
      : html`<div class="radio"><input type="radio" id="key-kind-project" name="kind" value="project"${projectChosen ? html` checked` : null}><label for="key-kind-project">One project, to read it and manage its monitors (for a server or CI job)</label></div>
<div class="field nested-field"><label for="key-project">Project</label><select id="key-project" name="project_id">${v.projects.map((p) => html`<option value="${p.id}"${problem?.projectId === p.id ? html` selected` : null}>${p.name}</option>`)}</select></div>`;
  const error = (field: KeyFormProblem['field']) =>
    problem?.field === field ? html`<p class="error-message" id="${field}-error"><span class="visually-hidden">Error:</span> ${problem.message}</p>` : null;
  const fieldClass = (field: KeyFormProblem['field']) => `field${problem?.field === field ? ' field-error' : ''}`;
  return html`<section class="panel" aria-labelledby="new-key-title"><h2 id="new-key-title">Create an API key</h2>
${problem ? html`<div class="error-summary" role="alert" aria-labelledby="key-error-title" tabindex="-1"><h2 id="key-error-title">There is a problem</h2><ul><li><a href="#${problem.field === 'key-kind' ? 'key-kind-legend' : problem.field}">${problem.message}</a></li></ul></div>` : null}
<form method="post" action="${v.action}" novalidate>${csrfField(v.viewer)}
<div class="form-grid">
<div class="${fieldClass('key-name')}"><label for="key-name">Name</label>${error('key-name')}<input type="text" id="key-name" name="name" maxlength="100" value="${problem?.name ?? ''}"${problem?.field === 'key-name' ? html` aria-describedby="key-name-error"` : null} required></div>
<div class="${fieldClass('key-days')}"><label for="key-days">Expires after (days)</label>${error('key-days')}<input type="number" id="key-days" name="expires_in_days" min="1" max="${v.maxDays}" value="${problem?.days ?? String(Math.min(90, v.maxDays))}" aria-describedby="key-days-hint${problem?.field === 'key-days' ? ' key-days-error' : ''}" required>
<p class="hint" id="key-days-hint">1 to ${v.maxDays}${v.maxDaysHint}</p></div>
</div>
<fieldset class="${fieldClass('key-kind')}"><legend id="key-kind-legend" tabindex="-1">What the key can reach</legend>${error('key-kind')}
${v.accountScopes.length > 0 ? html`<div class="radio"><input type="radio" id="key-kind-account" name="kind" value="account"${projectChosen ? null : html` checked`}><label for="key-kind-account">Every project you are a member of, with these scopes:</label></div>
<ul class="scope-choices">${v.accountScopes.map((s) => html`<li><input type="checkbox" id="scope-${s}" name="scopes" value="${s}"${(problem ? problem.scopes.includes(s) : s === 'read') ? html` checked` : null}><label for="scope-${s}"><code>${s}</code></label></li>`)}</ul>` : null}
${projectChoice}
</fieldset>
<button type="submit" class="button button-primary">Create key</button>
</form></section>`;
}

/** The new key, shown this once: the answer to the POST that made it, never stored where a GET could show it again. */
export function keyShownOnce(v: { name: string; key: string; expiresAt: string; doneHref: string }): Html {
  return html`<section class="panel narrow-panel once" aria-labelledby="key-title">
<h2 id="key-title">API key ${v.name} created</h2>
<p class="warning-text"><strong>Copy the key now: it is shown this once.</strong> Vigil keeps only its hash, so it cannot show it again. Store it in a password manager or your secret store.</p>
<div class="copy-row"><code id="new-api-key">${v.key}</code><button type="button" class="button button-secondary button-small" data-copy="new-api-key" hidden>Copy</button></div>
<p class="hint">It expires ${utc(v.expiresAt)}.</p>
<p><a class="button button-primary" href="${v.doneHref}">Done, I have copied it</a></p>
</section>`;
}

export function revokeKeyConfirmation(v: { viewer: Viewer; key: ApiKeyDocument; isSession: boolean; action: string; cancelHref: string }): Html {
  return html`<section class="panel narrow-panel" aria-labelledby="revoke-title">
<h2 id="revoke-title">Revoke the key ${v.key.name}?</h2>
<p>Anything using <code>${v.key.key_preview}</code> stops working at once. This cannot be undone.</p>
${v.isSession ? html`<p class="warning-text"><strong>This is the key you signed in with: revoking it signs you out.</strong></p>` : null}
<form method="post" action="${v.action}" class="form-actions">${csrfField(v.viewer)}<button type="submit" class="button button-warning">Revoke the key</button> <a href="${v.cancelHref}">Cancel</a></form>
</section>`;
}
