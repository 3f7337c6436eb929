import type { UserDocument } from '../../../projections/users.js';
import type { SignInMethod } from '../../domain/identity/sign-ins.js';
import { relativeTime, utc } from '../format.js';
import { type Fragment, type Html, html } from '../html.js';
import { type Viewer, csrfField, page, timeAgo } from '../layout.js';
import type { ConsoleSession } from '../../web/session-store.js';

export const METHOD_NAMES: Record<SignInMethod, string> = {
  api_key: 'API key',
  password: 'Password',
  passkey: 'Passkey',
  oidc: 'Single sign-on',
  setup: 'First-run setup',
  invitation: 'Invitation',
  reset: 'Password reset',
};

/** One line of the account's sign-in record, newest first. */
export interface SignInActivity {
  at: string;
  what: 'signed-in' | 'failed' | 'ended';
  method: string | null;
  reason: string | null;
  clientAddress: string | null;
}

const ACTIVITY_WORDS = { 'signed-in': 'Signed in', failed: 'Failed sign-in', ended: 'Session ended' } as const;

const methodName = (method: string | null): string | null => (method !== null && Object.hasOwn(METHOD_NAMES, method) ? METHOD_NAMES[method as SignInMethod] : method);

function activitySection(activity: readonly SignInActivity[], now: Date): Html {
  return html`<section class="panel account-section" aria-labelledby="activity">
<h2 id="activity">Recent sign-in activity</h2>
${activity.length === 0
  ? html`<p class="muted">Nothing yet.</p>`
  : html`<div class="table-wrap"><table>
<caption class="visually-hidden">Your recent sign-ins, failed sign-ins and ended sessions, newest first</caption>
<thead><tr><th scope="col">When</th><th scope="col">What</th><th scope="col">From</th></tr></thead>
<tbody>${activity.map((a) => html`<tr>
<td>${timeAgo(a.at, now, relativeTime)}</td>
<td>${ACTIVITY_WORDS[a.what]}${a.method ? html` <span class="muted">(${methodName(a.method)})</span>` : null}${a.reason ? html` <span class="muted">${a.reason.replace(/_/g, ' ')}</span>` : null}</td>
<td>${a.clientAddress ?? html`<span class="muted">—</span>`}</td>
</tr>`)}</tbody></table></div>`}
</section>`;
}

export interface AccountView {
  viewer: Viewer;
  notice: string | null;
  user: UserDocument | null;
  sessions: readonly ConsoleSession[];
  /** The public reference of the session this page is shown in. */
  currentRef: string;
  now: Date;
  /** Sections other features add (second factors, API keys), already rendered. */
  sections: readonly Html[];
  /** The profile and password sections, when they exist. */
  core?: Fragment;
  /** The newest entries of the account's sign-in record. */
  activity?: readonly SignInActivity[];
}

function sessionsSection(view: AccountView): Html {
  const { viewer, sessions, currentRef, now } = view;
  return html`<section class="panel account-section" aria-labelledby="sessions">
<h2 id="sessions">Sessions</h2>
<p class="hint">Where you are signed in. Ending a session signs that browser out at its next request.</p>
<div class="table-wrap"><table>
<caption class="visually-hidden">Your sessions</caption>
<thead><tr><th scope="col">Signed in with</th><th scope="col">From</th><th scope="col" class="hide-narrow">Browser</th><th scope="col" class="hide-narrow">Started</th><th scope="col" class="hide-narrow">Last seen</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
<tbody>${sessions.map((s) => html`<tr>
<td>${METHOD_NAMES[s.method]}${s.secondFactor ? html` <span class="muted">+ ${s.secondFactor}</span>` : null}${s.ref === currentRef ? html` <strong class="this-session">(this session)</strong>` : null}</td>
<td>${s.clientAddress ?? html`<span class="muted">unknown</span>`}</td>
<td class="hide-narrow user-agent">${s.userAgent ?? html`<span class="muted">unknown</span>`}</td>
<td class="hide-narrow"><time datetime="${s.createdAt}" title="${s.createdAt}">${utc(s.createdAt)}</time></td>
<td class="hide-narrow">${timeAgo(s.lastSeenAt, now, relativeTime)}</td>
<td>${s.ref === currentRef
  ? html`<form method="post" action="/sign-out" class="inline-form">${csrfField(viewer)}<button type="submit" class="button button-small button-secondary">Sign out</button></form>`
  : html`<form method="post" action="/account/sessions/${s.ref}/end" class="inline-form">${csrfField(viewer)}<button type="submit" class="button button-small button-secondary" aria-label="End the ${METHOD_NAMES[s.method]} session from ${s.clientAddress ?? 'an unknown address'}">End</button></form>`}</td>
</tr>`)}</tbody></table></div>
</section>`;
}

export function accountPage(view: AccountView): Html {
  const name = view.user ? `${view.user.first_name} ${view.user.last_name}`.trim() : '';
  return page({
    title: 'Your account',
    viewer: view.viewer,
    notice: view.notice,
    crumbs: [{ label: 'Projects', href: '/' }, { label: 'Your account' }],
    body: html`<div class="page-head"><div><h1>Your account</h1><p class="lede">${name === '' ? view.viewer.email : html`${name} · ${view.viewer.email}`}</p></div></div>
${view.core ?? null}
${sessionsSection(view)}
${view.sections}
${view.activity ? activitySection(view.activity, view.now) : null}`,
  });
}
