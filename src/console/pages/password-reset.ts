import { PASSWORD_LENGTH } from '../../app/passwords.js';
import { type Html, html } from '../html.js';
import { page } from '../layout.js';
import { type FieldErrors, errorSummary, formField } from './form-fields.js';

export interface ForgotPasswordView {
  /** Whether this Vigil can mail a link (SMTP and VIGIL_PUBLIC_URL set); else an operator prints one. */
  canMail: boolean;
  csrfToken: string;
  errors: FieldErrors;
  email: string;
  /** After a request: the same words whether or not the email names an account. */
  sent: boolean;
}

export function forgotPasswordPage(view: ForgotPasswordView): Html {
  const { errors } = view;
  const body = !view.canMail
    ? html`<p>This Vigil cannot send email, so an operator sets up the reset: ask whoever runs it to print you a link with</p>
<pre><code>vigil users reset-password you@example.com</code></pre>
<p>The link works once, for an hour.</p>`
    : view.sent
      ? html`<div class="notice" role="status">If an account has the email <strong>${view.email}</strong>, a link to set a new password is on its way to it. It works once, for an hour.</div>
<p>Nothing arrived? Check the spam folder, or <a href="/forgot-password">ask again</a>.</p>`
      : html`<p class="lede">We will email you a link to set a new password.</p>
<form method="post" action="/forgot-password" novalidate>
<input type="hidden" name="csrf_token" value="${view.csrfToken}">
${formField({ id: 'email', name: 'email', label: 'Email address', type: 'email', autocomplete: 'username', value: view.email }, errors)}
<button type="submit" class="button button-primary">Email me a link</button>
</form>`;
  return page({
    title: Object.keys(errors).length > 0 ? 'Error: Forgot your password?' : 'Forgot your password?',
    viewer: null,
    body: html`<div class="signin">
${errorSummary(errors)}
<div class="panel">
<h1>Forgot your password?</h1>
${body}
<p class="signin-links"><a href="/sign-in">Back to sign in</a></p>
</div>
</div>`,
  });
}

export interface ResetPasswordView {
  token: string;
  csrfToken: string;
  errors: FieldErrors;
}

export function resetPasswordPage(view: ResetPasswordView): Html {
  const { errors } = view;
  return page({
    title: Object.keys(errors).length > 0 ? 'Error: Set a new password' : 'Set a new password',
    viewer: null,
    body: html`<div class="signin">
${errorSummary(errors)}
<div class="panel">
<h1>Set a new password</h1>
<p class="lede">This signs you out everywhere else.</p>
<form method="post" action="/reset-password" novalidate>
<input type="hidden" name="csrf_token" value="${view.csrfToken}">
<input type="hidden" name="token" value="${view.token}">
${formField({ id: 'password', name: 'password', label: 'New password', type: 'password', autocomplete: 'new-password', hint: `At least ${PASSWORD_LENGTH.min} characters.` }, errors)}
${formField({ id: 'password-again', name: 'password_again', label: 'New password again', type: 'password', autocomplete: 'new-password' }, errors)}
<button type="submit" class="button button-primary">Set password and sign in</button>
</form>
</div>
</div>`,
  });
}
