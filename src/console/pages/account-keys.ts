import type { ApiKeyDocument } from '../../../projections/api-keys.js';
import type { Scope } from '../../domain/access/scopes.js';
import { type Html, html } from '../html.js';
import { type Viewer, page } from '../layout.js';
import { type KeyFormProblem, type KeyRow, createKeyForm, keyShownOnce, keysTable, mayCreateKeys, revokeKeyConfirmation } from './key-parts.js';

export const ACCOUNT_KEYS_PATH = '/account/api-keys';

const crumbs = (last: string, here = true) => [
  { label: 'Projects', href: '/' },
  { label: 'Your account', href: '/account' },
  ...(here ? [{ label: last }] : [{ label: 'API keys', href: ACCOUNT_KEYS_PATH }, { label: last }]),
];

export interface AccountKeysView {
  viewer: Viewer;
  notice: string | null;
  keys: KeyRow[];
  accountScopes: readonly Scope[];
  /** The projects the person may bind a key to (those they manage or own). */
  projects: readonly { id: string; name: string }[];
  maxDays: number;
  /** Whether the session was opened with a key: a new key cannot outlive it. */
  keySession: boolean;
  now: Date;
  problem?: KeyFormProblem | null;
}

/** `/account/api-keys`: every key of the person's, whatever it reaches; made (shown once) and revoked here. */
export function accountKeysPage(v: AccountKeysView): Html {
  const create = mayCreateKeys(v)
    ? createKeyForm({
      viewer: v.viewer, action: ACCOUNT_KEYS_PATH, accountScopes: v.accountScopes, projects: v.projects, maxDays: v.maxDays,
      maxDaysHint: v.keySession ? ': a new key cannot outlive the key you signed in with.' : '.', problem: v.problem ?? null,
    })
    : html`<section class="panel"><h2>Create an API key</h2><p class="hint">An account key needs a project you own; a key bound to a project needs the MANAGER or OWNER role on it. You have neither yet: create a project, or ask to be made a manager of one.</p></section>`;
  return page({
    title: v.problem ? 'Error: Your API keys' : 'Your API keys',
    viewer: v.viewer,
    notice: v.notice,
    crumbs: crumbs('API keys'),
    body: html`<div class="page-head"><div><h1>Your API keys</h1><p class="lede">For scripts, CI jobs and servers that talk to Vigil's API, and for signing in with a key.</p></div></div>
<section class="panel" aria-labelledby="keys-title"><h2 id="keys-title">Keys</h2>
<p class="hint">The key itself is shown only when it is made; Vigil keeps only its hash. "Last used" is recorded at most once an hour.</p>
${keysTable({ caption: 'Your API keys', rows: v.keys, now: v.now, revokeHref: (key) => `${ACCOUNT_KEYS_PATH}/${key.id}/revoke` })}
</section>
${create}`,
  });
}

export function accountKeyCreatedPage(v: { viewer: Viewer; name: string; key: string; expiresAt: string }): Html {
  return page({ title: 'Key created', viewer: v.viewer, crumbs: crumbs('Key created', false), body: keyShownOnce({ name: v.name, key: v.key, expiresAt: v.expiresAt, doneHref: ACCOUNT_KEYS_PATH }) });
}

export function accountRevokeKeyPage(v: { viewer: Viewer; key: ApiKeyDocument; isSession: boolean }): Html {
  return page({
    title: 'Revoke a key',
    viewer: v.viewer,
    crumbs: crumbs('Revoke a key', false),
    body: revokeKeyConfirmation({ viewer: v.viewer, key: v.key, isSession: v.isSession, action: `${ACCOUNT_KEYS_PATH}/${v.key.id}/revoke`, cancelHref: ACCOUNT_KEYS_PATH }),
  });
}
