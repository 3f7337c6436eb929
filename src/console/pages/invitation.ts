import { PASSWORD_LENGTH } from '../../app/passwords.js';
import type { InvitationStanding } from '../../domain/projects/invitations.js';
import { utc } from '../format.js';
import { type Html, html } from '../html.js';
import { type Viewer, page } from '../layout.js';
import { type FieldErrors, errorSummary, formField } from './form-fields.js';

export interface InvitationFacts {
  token: string;
  projectName: string;
  email: string;
  role: string;
  invitedBy: string;
  expiresAt: string;
}

/** Who opened the link: nobody signed in, the invited person, or someone else. */
export type Opener =
  | { kind: 'signed-out'; csrfToken: string; errors: FieldErrors; name: string }
  | { kind: 'invitee'; viewer: Viewer }
  | { kind: 'someone-else'; viewer: Viewer };

function intro(facts: InvitationFacts): Html {
  return html`<h1>Join ${facts.projectName}</h1>
<p class="lede">${facts.invitedBy} invited <strong class="wrap-anywhere">${facts.email}</strong> to the project ${facts.projectName} as <span class="role role-${facts.role.toLowerCase()}">${facts.role}</span>.</p>
<p class="hint">The invitation works once and expires ${utc(facts.expiresAt)}.</p>`;
}

/** An open invitation, as whoever opened its link sees it. */
export function invitationPage(facts: InvitationFacts, opener: Opener): Html {
  const base = `/invitations/${facts.token}`;
  if (opener.kind === 'invitee') {
    return page({
      title: `Join ${facts.projectName}`,
      viewer: opener.viewer,
      body: html`<div class="signin"><div class="panel">${intro(facts)}
<form method="post" action="${base}/accept"><input type="hidden" name="csrf_token" value="${opener.viewer.csrfToken}">
<button type="submit" class="button button-primary">Join ${facts.projectName} as ${facts.role}</button></form>
</div></div>`,
    });
  }
  if (opener.kind === 'someone-else') {
    return page({
      title: `Join ${facts.projectName}`,
      viewer: opener.viewer,
      body: html`<div class="signin"><div class="panel">${intro(facts)}
<p class="warning-text">You are signed in as <strong class="wrap-anywhere">${opener.viewer.email}</strong>. This invitation is for ${facts.email}: only the account with that address can accept it.</p>
<form method="post" action="${base}/switch"><input type="hidden" name="csrf_token" value="${opener.viewer.csrfToken}">
<button type="submit" class="button button-primary">Sign out and continue as ${facts.email}</button></form>
<p class="hint">If ${facts.email} is another address of yours, ask for an invitation to ${opener.viewer.email} instead.</p>
</div></div>`,
    });
  }
  const { errors } = opener;
  return page({
    title: Object.keys(errors).length > 0 ? `Error: Join ${facts.projectName}` : `Join ${facts.projectName}`,
    viewer: null,
    body: html`<div class="signin">
${errorSummary(errors)}
<div class="panel">${intro(facts)}
<h2>Have an account with ${facts.email}?</h2>
<p><a class="button button-secondary" href="/sign-in?next=${encodeURIComponent(base)}">Sign in to accept</a></p>
<h2>New to Vigil?</h2>
<p>Create your account with ${facts.email}; you join the project at once.</p>
<form method="post" action="${base}/account" novalidate>
<input type="hidden" name="csrf_token" value="${opener.csrfToken}">
<div class="field"><span class="label-like">Email address</span><p class="fixed-value wrap-anywhere" id="invited-email">${facts.email}</p><p class="hint">The invitation is for this address, so the account is too.</p></div>
${formField({ id: 'name', name: 'name', label: 'Your name', type: 'text', autocomplete: 'name', value: opener.name }, errors)}
${formField({ id: 'password', name: 'password', label: 'Password', type: 'password', autocomplete: 'new-password', hint: `At least ${PASSWORD_LENGTH.min} characters. A passphrase of a few words is easy to remember and hard to guess.` }, errors)}
${formField({ id: 'password-again', name: 'password_again', label: 'Password again', type: 'password', autocomplete: 'new-password' }, errors)}
<button type="submit" class="button button-primary">Create account and join</button>
</form>
</div></div>`,
  });
}

const GONE: Record<Exclude<InvitationStanding, 'open'> | 'unknown', { title: string; text: string }> = {
  expired: { title: 'This invitation has expired', text: 'Invitations work for 7 days. Ask whoever invited you for a new one.' },
  revoked: { title: 'This invitation was revoked', text: 'It no longer works. Ask the project\'s managers if you should still join.' },
  accepted: { title: 'This invitation has been used', text: 'An invitation works once. If it was you who accepted it, sign in: the project is on your list.' },
  unknown: { title: 'This invitation link does not work', text: 'Check that you copied the whole link, or ask whoever invited you for a new one.' },
};

/** A link that no longer (or never) works, saying why in words a person can act on. */
export function invitationGonePage(reason: keyof typeof GONE, projectName: string | null, viewer: Viewer | null): Html {
  const { title, text } = GONE[reason];
  return page({
    title,
    viewer,
    body: html`<div class="signin"><div class="panel">
<h1>${title}</h1>
${projectName ? html`<p class="lede">It was an invitation to ${projectName}.</p>` : null}
<p>${text}</p>
<p><a href="${viewer ? '/' : '/sign-in'}">${viewer ? 'Go to your projects' : 'Sign in'}</a></p>
</div></div>`,
  });
}
