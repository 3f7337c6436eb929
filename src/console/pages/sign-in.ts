import { type Fragment, type Html, html } from '../html.js';
import { page } from '../layout.js';

/** Which field an error belongs to: the error summary links to it, and the field shows it. */
export type SignInField = 'email' | 'password' | 'api-key';

export interface SignInView {
  /** Where to go once signed in (a console path, already checked). */
  next: string | null;
  error: string | null;
  /** The field the error is about; the API key's by default (the form automation uses). */
  errorField?: SignInField;
  /** Why the previous session ended, when it did. */
  notice: string | null;
  /** The pre-session CSRF token (preSessionCsrfToken) the password and API-key forms carry. */
  csrfToken: string;
  /** The email typed, kept when the form comes back with an error. */
  email?: string;
  /** Other ways in, shown under the password form (single sign-on adds its button here). */
  alternatives?: Fragment;
}

function fieldError(view: SignInView, field: SignInField): Html | null {
  return view.error && (view.errorField ?? 'api-key') === field
    ? html`<p class="error-message" id="${field}-error"><span class="visually-hidden">Error:</span> ${view.error}</p>`
    : null;
}

const describedBy = (view: SignInView, field: SignInField, hint: string | null) =>
  [hint, view.error && (view.errorField ?? 'api-key') === field ? `${field}-error` : null].filter(Boolean).join(' ') || null;

export function signInPage(view: SignInView): Html {
  const { next, error, notice } = view;
  const field = view.errorField ?? 'api-key';
  const nextField = next ? html`<input type="hidden" name="next" value="${next}">` : null;
  const fieldClass = (f: SignInField) => `field${error && field === f ? ' field-error' : ''}`;
  return page({
    title: error ? 'Error: Sign in' : 'Sign in',
    viewer: null,
    body: html`<div class="signin">
${notice ? html`<div class="notice" role="status">${notice}</div>` : null}
${error
  ? html`<div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex="-1">
<h2 id="error-summary-title">There is a problem</h2>
<ul><li><a href="#${field}">${error}</a></li></ul>
</div>`
  : null}
<div class="panel">
<h1>Sign in to Vigil</h1>
<form method="post" action="/sign-in/password" novalidate>
<input type="hidden" name="csrf_token" value="${view.csrfToken}">
${nextField}
<div class="${fieldClass('email')}">
<label for="email">Email address</label>
${fieldError(view, 'email')}
<input type="email" id="email" name="email" autocomplete="username" spellcheck="false" value="${view.email ?? ''}"${describedBy(view, 'email', null) ? html` aria-describedby="${describedBy(view, 'email', null)}"` : null} required>
</div>
<div class="${fieldClass('password')}">
<label for="password">Password</label>
${fieldError(view, 'password')}
<input type="password" id="password" name="password" autocomplete="current-password"${describedBy(view, 'password', null) ? html` aria-describedby="${describedBy(view, 'password', null)}"` : null} required>
</div>
<button type="submit" class="button button-primary">Sign in</button>
<p class="signin-links"><a href="/forgot-password">Forgot your password?</a></p>
</form>
<p class="passkey-way"><a href="/sign-in/passkey${next ? `?next=${encodeURIComponent(next)}` : ''}">Sign in with a passkey</a></p>
${view.alternatives ?? null}
</div>
<div class="panel signin-key">
<h2>Sign in with an API key</h2>
<p class="hint">For automation. You see and can do exactly what the key allows.</p>
<form method="post" action="/sign-in" novalidate>
<input type="hidden" name="csrf_token" value="${view.csrfToken}">
${nextField}
<div class="${fieldClass('api-key')}">
<label for="api-key">API key</label>
<p class="hint" id="api-key-hint">The key you created with <code>vigil keys create</code> or through the API.</p>
${fieldError(view, 'api-key')}
<input type="password" id="api-key" name="api_key" autocomplete="off" spellcheck="false" aria-describedby="${describedBy(view, 'api-key', 'api-key-hint')}" required>
</div>
<button type="submit" class="button button-secondary">Sign in with the key</button>
</form>
</div>
</div>`,
  });
}
