import { PASSWORD_LENGTH } from '../../app/passwords.js';
import { type Html, html } from '../html.js';
import { page } from '../layout.js';
import { type FieldErrors, errorSummary, formField } from './form-fields.js';

export interface SetupView {
  token: string;
  csrfToken: string;
  errors: FieldErrors;
  email: string;
  name: string;
}

/** The first-run page: the first account, made from the link the server printed. */
export function setupPage(view: SetupView): Html {
  const { errors } = view;
  return page({
    title: Object.keys(errors).length > 0 ? 'Error: Create the first account' : 'Create the first account',
    viewer: null,
    body: html`<div class="signin">
${errorSummary(errors)}
<div class="panel">
<h1>Welcome to Vigil</h1>
<p class="lede">Create the first account. It owns a first project, and can invite the rest of the team.</p>
<form method="post" action="/setup" novalidate>
<input type="hidden" name="csrf_token" value="${view.csrfToken}">
<input type="hidden" name="token" value="${view.token}">
${formField({ id: 'name', name: 'name', label: 'Your name', type: 'text', autocomplete: 'name', value: view.name }, errors)}
${formField({ id: 'email', name: 'email', label: 'Email address', type: 'email', autocomplete: 'username', value: view.email, hint: 'You sign in with it.' }, errors)}
${formField({ id: 'password', name: 'password', label: 'Password', type: 'password', autocomplete: 'new-password', hint: `At least ${PASSWORD_LENGTH.min} characters. A passphrase of a few words is easy to remember and hard to guess.` }, errors)}
${formField({ id: 'password-again', name: 'password_again', label: 'Password again', type: 'password', autocomplete: 'new-password' }, errors)}
<button type="submit" class="button button-primary">Create account</button>
</form>
</div>
</div>`,
  });
}
