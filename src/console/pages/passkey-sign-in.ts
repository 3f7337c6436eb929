import { passkeyScripts } from '../assets.js';
import { type Html, html } from '../html.js';
import { page } from '../layout.js';

export const PASSKEY_SIGN_IN_PATH = '/sign-in/passkey';

/** Signing in with a passkey alone: the browser offers the passkeys it holds for this site. */
export function passkeySignInPage(v: { csrfToken: string; options: string; next: string | null; error: string | null }): Html {
  return page({
    title: v.error ? 'Error: Sign in with a passkey' : 'Sign in with a passkey',
    viewer: null,
    scripts: passkeyScripts(),
    body: html`<div class="signin">
${v.error
  ? html`<div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex="-1">
<h2 id="error-summary-title">There is a problem</h2>
<ul><li><a href="#passkey-button">${v.error}</a></li></ul>
</div>`
  : null}
<div class="panel">
<h1>Sign in with a passkey</h1>
<p class="lede">Use a passkey you added to your account: this device’s, your phone’s or a security key. It asks for your PIN, fingerprint or face, and stands for your password and second factor together.</p>
<form method="post" action="${PASSKEY_SIGN_IN_PATH}" data-passkey="authenticate" data-passkey-options="${v.options}">
<input type="hidden" name="csrf_token" value="${v.csrfToken}">
${v.next ? html`<input type="hidden" name="next" value="${v.next}">` : null}
<input type="hidden" name="response" value="">
<p class="hint" data-passkey-status role="status"></p>
<noscript><p class="warning-text">A passkey needs JavaScript: sign in with your password instead.</p></noscript>
<button type="submit" id="passkey-button" class="button button-primary">Use a passkey</button>
</form>
<p><a href="/sign-in${v.next ? `?next=${encodeURIComponent(v.next)}` : ''}">Sign in with your password instead</a></p>
</div>
</div>`,
  });
}
