import type { SecondFactorEntry, SecondFactorsDocument } from '../../../projections/second-factors.js';
import { RECOVERY_CODE_COUNT } from '../../domain/identity/second-factors.js';
import { relativeTime, utc } from '../format.js';
import { type Fragment, type Html, html } from '../html.js';
import { type Viewer, csrfField, page, timeAgo } from '../layout.js';
import { passkeyScripts } from '../assets.js';
import { FRESH_SIGN_IN_MS } from '../reauthentication.js';

export const FACTORS_PATH = '/account/second-factors';

/** A problem with the form just sent: shown in the summary and beside the field it names. */
export interface FormProblem {
  field: string;
  message: string;
}

function errorSummary(problem: FormProblem | null): Html | null {
  if (!problem) return null;
  return html`<div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex="-1">
<h2 id="error-summary-title">There is a problem</h2>
<ul><li><a href="#${problem.field}">${problem.message}</a></li></ul>
</div>`;
}

/** A labelled input, with its hint and the problem that names it. */
function field(options: { id: string; name: string; label: string; type?: string; hint?: string; value?: string; autocomplete?: string; problem: FormProblem | null; extra?: Fragment }): Html {
  const { id, name, label, type = 'text', hint, value = '', autocomplete = 'off', problem } = options;
  const error = problem?.field === id ? problem.message : null;
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter((x) => x !== null).join(' ');
  return html`<div class="field${error ? ' field-error' : ''}">
<label for="${id}">${label}</label>
${hint ? html`<p class="hint" id="${id}-hint">${hint}</p>` : null}
${error ? html`<p class="error-message" id="${id}-error"><span class="visually-hidden">Error:</span> ${error}</p>` : null}
<input type="${type}" id="${id}" name="${name}" value="${value}" autocomplete="${autocomplete}" spellcheck="false"${described ? html` aria-describedby="${described}"` : null}${options.extra ?? null}>
</div>`;
}

/** Changes to how a person signs in need a recent sign-in: past it, this instead of the forms. */
export function signInAgainPanel(viewer: Viewer): Html {
  return html`<section class="panel warning-panel" aria-labelledby="again-title">
<h2 id="again-title">Sign in again to make changes</h2>
<p>You signed in more than ${FRESH_SIGN_IN_MS / 60_000} minutes ago. Changes to how you sign in need a recent sign-in, with your second factor if you have one.</p>
<form method="post" action="${FACTORS_PATH}/sign-in-again">${csrfField(viewer)}<button type="submit" class="button button-primary">Sign in again</button></form>
</section>`;
}

const METHOD_NAMES = { totp: 'Authenticator app', passkey: 'Passkey' } as const;

function factorRow(factor: SecondFactorEntry, now: Date, fresh: boolean): Html {
  return html`<tr>
<td><strong>${factor.name}</strong></td>
<td>${METHOD_NAMES[factor.method]}${factor.transports.length > 0 ? html` <span class="muted">(${factor.transports.join(', ')})</span>` : null}</td>
<td class="hide-narrow">${timeAgo(factor.added_at, now, relativeTime)}</td>
<td>${timeAgo(factor.last_used_at, now, relativeTime)}</td>
<td>${fresh ? html`<a href="${FACTORS_PATH}/${factor.factor_id}/remove" aria-label="Remove ${factor.name}">Remove</a>` : null}</td>
</tr>`;
}

export interface FactorsView {
  viewer: Viewer;
  notice: string | null;
  factors: SecondFactorsDocument | null;
  /** The passkey registration options the page's script hands the browser (their challenge is kept server side). */
  registrationOptions: string | null;
  problem: FormProblem | null;
  /** What the passkey form held when it came back with a problem. */
  passkeyName?: string;
  /** Whether the session signed in recently enough to change anything (reauthentication.ts). */
  fresh: boolean;
  now: Date;
}

/** The account's "Second factors" section: what is set up, and the forms to add, remove and renew. */
export function secondFactorsPage(v: FactorsView): Html {
  const factors = v.factors?.factors ?? [];
  const hasTotp = factors.some((f) => f.method === 'totp');
  return page({
    title: v.problem ? 'Error: Second factors' : 'Second factors',
    viewer: v.viewer,
    notice: v.notice,
    crumbs: [{ label: 'Account', href: '/account' }, { label: 'Second factors' }],
    scripts: passkeyScripts(),
    body: html`<div class="page-head"><div><h1>Second factors</h1>
<p class="lede">After your password, Vigil can ask for a code from an authenticator app or for a passkey, so that a stolen password is not enough to sign in.</p></div></div>
${errorSummary(v.problem)}
${v.fresh ? null : signInAgainPanel(v.viewer)}
<section class="panel" aria-labelledby="factors-title">
<h2 id="factors-title">Your second factors</h2>
${factors.length === 0
  ? html`<p class="empty">You have no second factor: signing in needs only your password.</p>`
  : html`<div class="table-wrap"><table><caption class="visually-hidden">Second factors</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Kind</th><th scope="col" class="hide-narrow">Added</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${factors.map((f) => factorRow(f, v.now, v.fresh))}</tbody></table></div>`}
</section>
<div class="grid-2">
<section class="panel" aria-labelledby="totp-title">
<h2 id="totp-title">Authenticator app</h2>
${hasTotp
  ? html`<p>An authenticator app is set up. To move it to another phone, remove it and set it up again.</p>`
  : html`<p>Any app that shows six-digit codes (1Password, Aegis, Google Authenticator, Authy…).</p>
${v.fresh ? html`<p><a class="button button-primary" href="${FACTORS_PATH}/totp">Set up an authenticator app</a></p>` : null}`}
</section>
<section class="panel" aria-labelledby="passkey-title">
<h2 id="passkey-title">Passkeys</h2>
<p>A passkey lives in this device, your phone or a security key, and proves it is you with a touch or your fingerprint.</p>
${v.fresh && v.registrationOptions !== null
  ? html`<form method="post" action="${FACTORS_PATH}/passkeys" data-passkey="register" data-passkey-options="${v.registrationOptions}" novalidate>
${csrfField(v.viewer)}
<input type="hidden" name="response" value="">
${field({ id: 'passkey-name', name: 'name', label: 'Name of the passkey', hint: 'So you can tell it from the others, e.g. “Work laptop”.', value: v.passkeyName ?? '', problem: v.problem })}
<p class="hint" data-passkey-status role="status"></p>
<noscript><p class="warning-text">Adding a passkey needs JavaScript.</p></noscript>
<button type="submit" class="button button-secondary">Add a passkey</button>
</form>`
  : null}
</section>
</div>
<section class="panel" aria-labelledby="codes-title">
<h2 id="codes-title">Recovery codes</h2>
${v.factors && factors.length > 0
  ? html`<p>${v.factors.recovery_codes_left} of ${RECOVERY_CODE_COUNT} codes left${v.factors.recovery_codes_generated_at ? html`, made ${utc(v.factors.recovery_codes_generated_at)}` : null}. Each works once, in place of your second factor, if you lose it.</p>
${v.fresh ? html`<form method="post" action="${FACTORS_PATH}/recovery-codes" novalidate>
${csrfField(v.viewer)}
<button type="submit" class="button button-secondary" id="new-codes">Make new recovery codes</button>
</form>` : null}`
  : html`<p>You get ${RECOVERY_CODE_COUNT} recovery codes when you add your first second factor.</p>`}
</section>`,
  });
}

export interface TotpSetupView {
  viewer: Viewer;
  /** The seed in base32, shown for typing in. */
  secret: string;
  /** A data: URL of the QR code's SVG. */
  qrCode: string;
  pending: string;
  name: string;
  problem: FormProblem | null;
}

export function totpSetupPage(v: TotpSetupView): Html {
  const spaced = v.secret.replace(/(.{4})/g, '$1 ').trim();
  return page({
    title: v.problem ? 'Error: Set up an authenticator app' : 'Set up an authenticator app',
    viewer: v.viewer,
    crumbs: [{ label: 'Account', href: '/account' }, { label: 'Second factors', href: FACTORS_PATH }, { label: 'Authenticator app' }],
    body: html`<h1>Set up an authenticator app</h1>
${errorSummary(v.problem)}
<section class="panel narrow-panel" aria-labelledby="scan-title">
<h2 id="scan-title">1. Scan the code with your app</h2>
<img class="qr-code" src="${v.qrCode}" width="200" height="200" alt="QR code holding the set-up key shown below">
<p>Or type this key into the app (time-based, six digits, every 30 seconds):</p>
<div class="copy-row"><code id="totp-secret">${spaced}</code><button type="button" class="button button-secondary button-small" data-copy="totp-secret" hidden>Copy</button></div>
</section>
<section class="panel narrow-panel" aria-labelledby="confirm-title">
<h2 id="confirm-title">2. Enter the code it shows</h2>
<form method="post" action="${FACTORS_PATH}/totp" novalidate>
${csrfField(v.viewer)}
<input type="hidden" name="pending" value="${v.pending}">
${field({ id: 'totp-code', name: 'code', label: 'Code from the app', hint: 'Six digits.', autocomplete: 'one-time-code', problem: v.problem, extra: html` inputmode="numeric" pattern="[0-9 ]*" maxlength="8"` })}
${field({ id: 'totp-name', name: 'name', label: 'Name', hint: 'Which app or phone, e.g. “Aegis on my phone”.', value: v.name, problem: v.problem })}
<div class="form-actions"><button type="submit" class="button button-primary">Turn on the authenticator app</button> <a href="${FACTORS_PATH}">Cancel</a></div>
</form>
</section>`,
  });
}

/** The new recovery codes, shown this once. */
export function recoveryCodesPage(viewer: Viewer, codes: readonly string[], firstFactor: string | null): Html {
  return page({
    title: 'Your recovery codes',
    viewer,
    crumbs: [{ label: 'Account', href: '/account' }, { label: 'Second factors', href: FACTORS_PATH }, { label: 'Recovery codes' }],
    body: html`<section class="panel narrow-panel once" aria-labelledby="codes-title">
${firstFactor ? html`<div class="notice" role="status">${firstFactor}</div>` : null}
<h1 id="codes-title">Your recovery codes</h1>
<p class="warning-text"><strong>Save these codes now: they are shown this once.</strong> Vigil keeps only their hashes. If you lose your second factor, each code lets you sign in once in its place. Any codes you had before no longer work.</p>
<div class="copy-row"><pre id="recovery-codes" class="recovery-codes">${codes.join('\n')}</pre><button type="button" class="button button-secondary button-small" data-copy="recovery-codes" hidden>Copy</button></div>
<p><a class="button button-primary" href="${FACTORS_PATH}">Done, I have saved them</a></p>
</section>`,
  });
}

export function removeFactorPage(v: { viewer: Viewer; factor: SecondFactorEntry; isLast: boolean; problem: FormProblem | null }): Html {
  const action = `${FACTORS_PATH}/${v.factor.factor_id}/remove`;
  return page({
    title: v.problem ? 'Error: Remove a second factor' : 'Remove a second factor',
    viewer: v.viewer,
    crumbs: [{ label: 'Account', href: '/account' }, { label: 'Second factors', href: FACTORS_PATH }, { label: 'Remove' }],
    body: html`<section class="panel narrow-panel" aria-labelledby="remove-title">
<h1 id="remove-title">Remove ${v.factor.name}?</h1>
${v.problem ? html`<div class="error-summary" role="alert"><h2>There is a problem</h2><p>${v.problem.message}</p></div>` : null}
<p>${METHOD_NAMES[v.factor.method]} added ${utc(v.factor.added_at)}. It will no longer be accepted when you sign in.</p>
${v.isLast ? html`<p class="warning-text"><strong>This is your last second factor.</strong> Once it is removed, signing in needs only your password, and your recovery codes stop working.</p>` : null}
<form method="post" action="${action}" novalidate>
${csrfField(v.viewer)}
${v.isLast ? html`<input type="hidden" name="confirm_last" value="yes">` : null}
<div class="form-actions"><button type="submit" class="button button-warning">${v.isLast ? 'Remove my last second factor' : 'Remove it'}</button> <a href="${FACTORS_PATH}">Cancel</a></div>
</form>
</section>`,
  });
}
