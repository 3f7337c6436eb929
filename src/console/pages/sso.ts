import { type Html, html } from '../html.js';
import { page } from '../layout.js';

/** The sign-in page's way in through the provider: a link (a form's redirect to another site would break the CSP's form-action). */
export function ssoButton(name: string, next: string | null): Html {
  const href = next ? `/sign-in/oidc?${new URLSearchParams({ next }).toString()}` : '/sign-in/oidc';
  return html`<div class="sso">
<p class="sso-or"><span>or</span></p>
<a class="button button-secondary sso-button" href="${href}">Sign in with ${name}</a>
</div>`;
}

export interface SsoRefusal {
  /** The page's heading: what happened, in a few words. */
  title: string;
  /** What happened and what to do, in sentences. */
  explanation: readonly string[];
  /** Where "Try again" starts a new sign-in through the provider; null when trying again cannot help. */
  retry: string | null;
}

/** Single sign-on did not sign the person in: said in words, with a way back. Never JSON. */
export function ssoRefusedPage({ title, explanation, retry }: SsoRefusal): Html {
  return page({
    title,
    viewer: null,
    body: html`<div class="signin">
<div class="panel error-page" role="alert">
<h1>${title}</h1>
${explanation.map((sentence) => html`<p>${sentence}</p>`)}
<p class="actions">${retry ? html`<a class="button button-primary" href="${retry}">Try again</a> ` : null}<a class="button button-secondary" href="/sign-in">Back to sign in</a></p>
</div>
</div>`,
  });
}
