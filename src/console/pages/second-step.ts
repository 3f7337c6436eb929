import { type Html, html } from '../html.js';
import { page } from '../layout.js';
import { passkeyScripts } from '../assets.js';

export const SECOND_STEP_PATH = '/sign-in/second-factor';

export interface SecondStepView {
  csrfToken: string;
  /** The passkey authentication options (their challenge kept server side), when the account has passkeys. */
  passkeyOptions: string | null;
  hasTotp: boolean;
  hasRecoveryCodes: boolean;
  /** Which form the error is about, and what it says. */
  problem: { form: 'passkey' | 'totp' | 'recovery'; message: string } | null;
}

const csrf = (token: string) => html`<input type="hidden" name="csrf_token" value="${token}">`;

function inlineError(v: SecondStepView, form: 'totp' | 'recovery', id: string): Html | null {
  return v.problem?.form === form ? html`<p class="error-message" id="${id}-error"><span class="visually-hidden">Error:</span> ${v.problem.message}</p>` : null;
}

/** The sign-in's second step: a passkey, a code from the authenticator app, or a recovery code. */
export function secondStepPage(v: SecondStepView): Html {
  const target = { totp: 'totp-code', recovery: 'recovery-code', passkey: 'passkey-button' } as const;
  return page({
    title: v.problem ? 'Error: Second step' : 'Second step',
    viewer: null,
    scripts: v.passkeyOptions ? passkeyScripts() : [],
    body: html`<div class="signin second-step">
${v.problem
  ? html`<div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex="-1">
<h2 id="error-summary-title">There is a problem</h2>
<ul><li><a href="#${target[v.problem.form]}">${v.problem.message}</a></li></ul>
</div>`
  : null}
<div class="second-step-head">
<h1>One more step</h1>
<p class="lede">Your account asks for a second factor. Use any one of these.</p>
</div>
${v.passkeyOptions
  ? html`<section class="panel" aria-labelledby="passkey-title">
<h2 id="passkey-title">Use a passkey</h2>
<p>The passkey on this device, your phone or a security key.</p>
<form method="post" action="${SECOND_STEP_PATH}/passkey" data-passkey="authenticate" data-passkey-options="${v.passkeyOptions}">
${csrf(v.csrfToken)}
<input type="hidden" name="response" value="">
<p class="hint" data-passkey-status role="status">${v.problem?.form === 'passkey' ? v.problem.message : ''}</p>
<noscript><p class="warning-text">A passkey needs JavaScript: use a code instead.</p></noscript>
<button type="submit" id="passkey-button" class="button button-primary">Use a passkey</button>
</form>
</section>`
  : null}
${v.hasTotp
  ? html`<section class="panel" aria-labelledby="totp-title">
<h2 id="totp-title">Enter a code from your authenticator app</h2>
<form method="post" action="${SECOND_STEP_PATH}/totp" novalidate>
${csrf(v.csrfToken)}
<div class="field${v.problem?.form === 'totp' ? ' field-error' : ''}">
<label for="totp-code">Code from the app</label>
${inlineError(v, 'totp', 'totp-code')}
<input type="text" id="totp-code" name="code" inputmode="numeric" pattern="[0-9 ]*" maxlength="8" autocomplete="one-time-code" spellcheck="false"${v.problem?.form === 'totp' ? html` aria-describedby="totp-code-error"` : null}>
</div>
<button type="submit" class="button ${v.passkeyOptions ? 'button-secondary' : 'button-primary'}">Verify the code</button>
</form>
</section>`
  : null}
${v.hasRecoveryCodes
  ? html`<section class="panel" aria-labelledby="recovery-title">
<h2 id="recovery-title">Or use a recovery code</h2>
<form method="post" action="${SECOND_STEP_PATH}/recovery-code" novalidate>
${csrf(v.csrfToken)}
<div class="field${v.problem?.form === 'recovery' ? ' field-error' : ''}">
<label for="recovery-code">Recovery code</label>
<p class="hint" id="recovery-code-hint">One of the codes you saved when you set up your second factor. Each works once.</p>
${inlineError(v, 'recovery', 'recovery-code')}
<input type="text" id="recovery-code" name="code" autocomplete="off" spellcheck="false" aria-describedby="recovery-code-hint${v.problem?.form === 'recovery' ? ' recovery-code-error' : ''}">
</div>
<button type="submit" class="button button-secondary">Use the recovery code</button>
</form>
</section>`
  : null}
<form method="post" action="${SECOND_STEP_PATH}/cancel">${csrf(v.csrfToken)}<button type="submit" class="button button-secondary">Cancel and start again</button></form>
</div>`,
  });
}
