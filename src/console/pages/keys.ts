import type { ApiKeyDocument } from '../../../projections/api-keys.js';
import type { Scope } from '../../domain/access/scopes.js';
import { type Html, html } from '../html.js';
import { type KeyFormProblem, type KeyRow, createKeyForm, keyShownOnce, keysTable, mayCreateKeys, revokeKeyConfirmation } from './key-parts.js';
import { type SettingsFrame, settingsPage } from './settings.js';

export type { KeyRow };

export interface KeysView extends SettingsFrame {
  keys: KeyRow[];
  /** The scopes an account key made here may have: those of the session's key. Empty when it may make none. */
  accountScopes: readonly Scope[];
  /** Whether a key bound to this project may be made here (the project's Owners and Managers). */
  canMintProjectKey: boolean;
  /** The longest lifetime, in days, a new key may have: no longer than the session's key. */
  maxDays: number;
  now: Date;
  keyProblem?: KeyFormProblem | null;
}

export function keysPage(v: KeysView): Html {
  const { project, viewer, now } = v;
  const base = `/projects/${project.id}/settings`;
  const form = { accountScopes: v.accountScopes, projects: v.canMintProjectKey ? [{ id: project.id, name: project.name }] : [] };
  const create = mayCreateKeys(form)
    ? createKeyForm({ viewer, action: `${base}/keys`, ...form, maxDays: v.maxDays, maxDaysHint: ': a new key cannot outlive the key you signed in with.', problem: v.keyProblem ?? null })
    : html`<p class="hint">Creating keys needs an account key of a user who owns a project, or the MANAGER role on this project for a key bound to it.</p>`;
  return settingsPage(v, 'keys', 'API keys', html`<section class="panel" aria-labelledby="keys-title"><h2 id="keys-title">Your API keys</h2>
<p class="hint">Your keys that can reach this project. The key itself is shown only when it is made; Vigil keeps only its hash. <a href="/account/api-keys">All your keys</a></p>
${keysTable({ caption: 'Your API keys', rows: v.keys, now, revokeHref: (key) => `${base}/keys/${key.id}/revoke` })}
</section>
${create}`);
}

export function keyCreatedPage(v: SettingsFrame & { name: string; key: string; expiresAt: string }): Html {
  const base = `/projects/${v.project.id}/settings`;
  return settingsPage({ ...v, notice: null }, 'keys', 'Key created', keyShownOnce({ name: v.name, key: v.key, expiresAt: v.expiresAt, doneHref: `${base}/keys` }));
}

export function revokeKeyPage(v: SettingsFrame & { key: ApiKeyDocument; isSession: boolean }): Html {
  const base = `/projects/${v.project.id}/settings`;
  return settingsPage(v, 'keys', 'Revoke a key', revokeKeyConfirmation({ viewer: v.viewer, key: v.key, isSession: v.isSession, action: `${base}/keys/${v.key.id}/revoke`, cancelHref: `${base}/keys` }));
}
