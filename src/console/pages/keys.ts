import type { ApiKeyDocument } from '../../../projections/api-keys.js';
import type { Scope } from '../../domain/access/scopes.js';
import { relativeTime, utc } from '../format.js';
import { type Html, html } from '../html.js';
import { csrfField } from '../layout.js';
import { type SettingsFrame, settingsPage } from './settings.js';

export interface KeyRow {
  key: ApiKeyDocument;
  /** The key this browser's session signed in with. */
  isSession: boolean;
  canRevoke: boolean;
}

export interface KeysView extends SettingsFrame {
  keys: KeyRow[];
  /** The scopes an account key made here may have: those of the session's key. Empty when it may make none. */
  accountScopes: readonly Scope[];
  /** Whether a key bound to this project may be made here (the project's Owners and Managers). */
  canMintProjectKey: boolean;
  /** The longest lifetime, in days, a new key may have: no longer than the session's key. */
  maxDays: number;
  now: Date;
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

export function keysPage(v: KeysView): Html {
  const { project, viewer, now } = v;
  const base = `/projects/${project.id}/settings`;
  const canCreate = v.accountScopes.length > 0 || v.canMintProjectKey;
  const rows = v.keys.map(({ key, isSession, canRevoke }) => html`<tr data-key-id="${key.id}">
<td><strong>${key.name}</strong>${isSession ? html` <span class="tag">this session</span>` : null}<span class="monitor-slug"><code>${key.key_preview}</code></span></td>
<td>${key.kind === 'ACCOUNT' ? 'Account' : 'This project'}${key.env === 'test' ? ' (test)' : ''}</td>
<td>${key.kind === 'PROJECT' ? html`<span class="muted">read, manage_monitors (fixed)</span>` : key.scopes.length === 0 ? html`<span class="muted">read</span>` : key.scopes.join(', ')}</td>
<td class="nowrap">${utc(key.created_at)}</td>
<td class="nowrap">${utc(key.expires_at)}</td>
<td class="nowrap">${lastUsed(key, now)}</td>
<td>${keyState(key, now)}</td>
<td class="row-actions">${canRevoke && !key.revoked_at ? html`<a class="button button-small button-warning" href="${base}/keys/${key.id}/revoke">Revoke…</a>` : null}</td>
</tr>`);
  const create = canCreate
    ? html`<section class="panel" aria-labelledby="new-key-title"><h2 id="new-key-title">Create an API key</h2>
<form method="post" action="${base}/keys" novalidate>${csrfField(viewer)}
<div class="form-grid">
<div class="field"><label for="key-name">Name</label><input type="text" id="key-name" name="name" maxlength="100" required></div>
<div class="field"><label for="key-days">Expires after (days)</label><input type="number" id="key-days" name="expires_in_days" min="1" max="${v.maxDays}" value="${Math.min(90, v.maxDays)}" aria-describedby="key-days-hint" required>
<p class="hint" id="key-days-hint">1 to ${v.maxDays}: a new key cannot outlive the key you signed in with.</p></div>
</div>
<fieldset class="field"><legend>What the key can reach</legend>
${v.accountScopes.length > 0 ? html`<div class="radio"><input type="radio" id="key-kind-account" name="kind" value="account" checked><label for="key-kind-account">Every project you are a member of, with these scopes:</label></div>
<ul class="scope-choices">${v.accountScopes.map((s) => html`<li><input type="checkbox" id="scope-${s}" name="scopes" value="${s}"${s === 'read' ? html` checked` : null}><label for="scope-${s}"><code>${s}</code></label></li>`)}</ul>` : null}
${v.canMintProjectKey ? html`<div class="radio"><input type="radio" id="key-kind-project" name="kind" value="project"${v.accountScopes.length === 0 ? html` checked` : null}><label for="key-kind-project">Only ${project.name}, to read it and manage its monitors (for a server or CI job)</label></div>` : null}
</fieldset>
<button type="submit" class="button button-primary">Create key</button>
</form></section>`
    : html`<p class="hint">Creating keys needs an account key of a user who owns a project, or the MANAGER role on this project for a key bound to it.</p>`;
  return settingsPage(v, 'keys', 'API keys', html`<section class="panel" aria-labelledby="keys-title"><h2 id="keys-title">Your API keys</h2>
<p class="hint">Your keys that can reach this project. The key itself is shown only when it is made; Vigil keeps only its hash.</p>
${v.keys.length === 0 ? html`<p class="empty">No keys.</p>` : html`<div class="table-wrap"><table>
<caption class="visually-hidden">Your API keys</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Reaches</th><th scope="col">Scopes</th><th scope="col">Created</th><th scope="col">Expires</th><th scope="col">Last used</th><th scope="col">State</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${rows}</tbody></table></div>`}
</section>
${create}`);
}

/** The new key, shown this once: the answer to the POST that made it, never stored where a GET could show it again. */
export function keyCreatedPage(v: SettingsFrame & { name: string; key: string; expiresAt: string }): Html {
  const base = `/projects/${v.project.id}/settings`;
  return settingsPage({ ...v, notice: null }, 'keys', 'Key created', html`<section class="panel narrow-panel once" aria-labelledby="key-title">
<h2 id="key-title">API key ${v.name} created</h2>
<p class="warning-text"><strong>Copy the key now: it is shown this once.</strong> Vigil keeps only its hash, so it cannot show it again. Store it in a password manager or your secret store.</p>
<div class="copy-row"><code id="new-api-key">${v.key}</code><button type="button" class="button button-secondary button-small" data-copy="new-api-key" hidden>Copy</button></div>
<p class="hint">It expires ${utc(v.expiresAt)}.</p>
<p><a class="button button-primary" href="${base}/keys">Done, I have copied it</a></p>
</section>`);
}

export function revokeKeyPage(v: SettingsFrame & { key: ApiKeyDocument; isSession: boolean }): Html {
  const base = `/projects/${v.project.id}/settings`;
  return settingsPage(v, 'keys', 'Revoke a key', html`<section class="panel narrow-panel" aria-labelledby="revoke-title">
<h2 id="revoke-title">Revoke the key ${v.key.name}?</h2>
<p>Anything using <code>${v.key.key_preview}</code> stops working at once. This cannot be undone.</p>
${v.isSession ? html`<p class="warning-text"><strong>This is the key you signed in with: revoking it signs you out.</strong></p>` : null}
<form method="post" action="${base}/keys/${v.key.id}/revoke" class="form-actions">${csrfField(v.viewer)}<button type="submit" class="button button-warning">Revoke the key</button> <a href="${base}/keys">Cancel</a></form>
</section>`);
}
