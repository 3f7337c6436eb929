import type { UserDocument } from '../../../projections/users.js';
import type { SignInMethod } from '../../domain/identity/sign-ins.js';
import { relativeTime, utc } from '../format.js';
import { type Fragment, type Html, html } from '../html.js';
import { type Viewer, csrfField, page, timeAgo } from '../layout.js';
import type { ConsoleSession } from '../session-store.js';

export const METHOD_NAMES: Record<SignInMethod, string> = {
  api_key: 'API key',
  password: 'Password',
  passkey: 'Passkey',
  oidc: 'Single sign-on',
  setup: 'First-run setup',
  invitation: 'Invitation',
  reset: 'Password reset',
};

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
}

function sessionsSection(view: AccountView): Html {
  const { viewer, sessions, currentRef, now } = view;
  return html`<section class="panel account-section" aria-labelledby="sessions">
<h2 id="sessions">Sessions</h2>
<p class="hint">Where you are signed in. Ending a session signs that browser out at its next request.</p>
<div class="table-wrap"><table>
<caption class="visually-hidden">Your sessions</caption>
<thead><tr><th scope="col">Signed in with</th><th scope="col">From</th><th scope="col" class="hide-narrow">Browser</th><th scope="col">Started</th><th scope="col">Last seen</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
<tbody>${sessions.map((s) => html`<tr>
<td>${METHOD_NAMES[s.method]}${s.secondFactor ? html` <span class="muted">+ ${s.secondFactor}</span>` : null}${s.ref === currentRef ? html` <strong class="this-session">(this session)</strong>` : null}</td>
<td>${s.clientAddress ?? html`<span class="muted">unknown</span>`}</td>
<td class="hide-narrow user-agent">${s.userAgent ?? html`<span class="muted">unknown</span>`}</td>
<td><time datetime="${s.createdAt}" title="${s.createdAt}">${utc(s.createdAt)}</time></td>
<td>${timeAgo(s.lastSeenAt, now, relativeTime)}</td>
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
${view.sections}`,
  });
}
