import { PASSWORD_LENGTH } from '../../app/passwords.js';
import { type Html, html } from '../html.js';
import { type Viewer, csrfField } from '../layout.js';
import { type FieldErrors, errorSummary, formField } from './form-fields.js';

export interface AccountCoreView {
  viewer: Viewer;
  name: string;
  /** Whether the account has a password to change. */
  hasPassword: boolean;
  /** Signed in with an API key: such a session never sets a password (a key leaked is not the person). */
  keySession: boolean;
  errors: FieldErrors;
}

/** The name and password sections at the top of the account page. */
export function accountCore(view: AccountCoreView): Html {
  const { viewer, errors } = view;
  return html`${errorSummary(errors)}
<section class="panel account-section" aria-labelledby="profile">
<h2 id="profile">Name</h2>
<form method="post" action="/account/name" novalidate>
${csrfField(viewer)}
${formField({ id: 'name', name: 'name', label: 'Your name', type: 'text', autocomplete: 'name', value: view.name, hint: 'Shown to the people you work with in Vigil.' }, errors)}
<button type="submit" class="button button-secondary">Save name</button>
</form>
</section>
<section class="panel account-section" aria-labelledby="password-heading">
<h2 id="password-heading">Password</h2>
${view.keySession
  ? html`<p>You signed in with an API key. Sign in with your password to change it.</p>`
  : !view.hasPassword
    ? html`<p>Your account has no password. Use <a href="/forgot-password">Forgot your password?</a> to set one, or ask an operator for a link (<code>vigil users reset-password</code>).</p>`
    : html`<p class="hint">Changing it signs you out everywhere else.</p>
<form method="post" action="/account/password" novalidate>
${csrfField(viewer)}
<input type="text" name="username" autocomplete="username" value="${viewer.email}" hidden>
${formField({ id: 'current-password', name: 'current_password', label: 'Current password', type: 'password', autocomplete: 'current-password' }, errors)}
${formField({ id: 'password', name: 'password', label: 'New password', type: 'password', autocomplete: 'new-password', hint: `At least ${PASSWORD_LENGTH.min} characters.` }, errors)}
${formField({ id: 'password-again', name: 'password_again', label: 'New password again', type: 'password', autocomplete: 'new-password' }, errors)}
<button type="submit" class="button button-secondary">Change password</button>
</form>`}
</section>`;
}
