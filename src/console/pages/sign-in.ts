import { type Html, html } from '../html.js';
import { page } from '../layout.js';
import { ssoButton } from './sso.js';

export interface SignInView {
  /** Where to go once signed in (a console path, already checked). */
  next: string | null;
  error: string | null;
  /** Why the previous session ended, when it did. */
  notice: string | null;
  /** VIGIL_OIDC_NAME when single sign-on is set up: the page offers "Sign in with <name>". */
  sso?: string | null;
}

export function signInPage({ next, error, notice, sso = null }: SignInView): Html {
  return page({
    title: error ? 'Error: Sign in' : 'Sign in',
    viewer: null,
    body: html`<div class="signin">
${notice ? html`<div class="notice" role="status">${notice}</div>` : null}
${error
  ? html`<div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex="-1">
<h2 id="error-summary-title">There is a problem</h2>
<ul><li><a href="#api-key">${error}</a></li></ul>
</div>`
  : null}
<div class="panel">
<h1>Sign in to Vigil</h1>
<p class="lede">Use an API key. You see and can do exactly what the key allows.</p>
<form method="post" action="/sign-in" novalidate>
${next ? html`<input type="hidden" name="next" value="${next}">` : null}
<div class="field${error ? ' field-error' : ''}">
<label for="api-key">API key</label>
<p class="hint" id="api-key-hint">The key you created with <code>vigil keys create</code> or through the API.</p>
${error ? html`<p class="error-message" id="api-key-error"><span class="visually-hidden">Error:</span> ${error}</p>` : null}
<input type="password" id="api-key" name="api_key" autocomplete="off" spellcheck="false" aria-describedby="api-key-hint${error ? ' api-key-error' : ''}" required>
</div>
<button type="submit" class="button button-primary">Sign in</button>
</form>
${sso ? ssoButton(sso, next) : null}
</div>
</div>`,
  });
}
