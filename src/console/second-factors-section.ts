import type { SecondFactorsDocument } from '../../projections/second-factors.js';
import { RECOVERY_CODE_COUNT } from '../domain/identity/second-factors.js';
import type { AccountSection } from './kit.js';
import { html } from './html.js';
import { FACTORS_PATH } from './pages/second-factors.js';

const METHOD_NAMES = { totp: 'authenticator app', passkey: 'passkey' } as const;

/** The account page's "Second factors" section: what is set up, and the way to the page that changes it. */
export const secondFactorsSection: AccountSection = {
  id: 'second-factors',
  title: 'Second factors',
  async render(kit, ctx) {
    const doc = (await kit.deps.readModels.get<SecondFactorsDocument>('second_factors', ctx.state.session.userId))?.doc ?? null;
    const factors = doc?.factors ?? [];
    return html`<section class="panel account-section" aria-labelledby="second-factors">
<h2 id="second-factors">Second factors</h2>
${factors.length === 0
  ? html`<p>None: signing in needs only your password. Add an authenticator app or a passkey so that a stolen password is not enough.</p>`
  : html`<ul>${factors.map((f) => html`<li><strong>${f.name}</strong> <span class="muted">(${METHOD_NAMES[f.method]})</span></li>`)}</ul>
<p>${doc?.recovery_codes_left ?? 0} of ${RECOVERY_CODE_COUNT} recovery codes left.</p>`}
<p><a class="button button-secondary" href="${FACTORS_PATH}">Manage second factors</a></p>
</section>`;
  },
};
