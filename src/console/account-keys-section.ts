import { listApiKeys } from '../queries/identity.js';
import type { AccountSection } from './kit.js';
import { html } from './html.js';
import { ACCOUNT_KEYS_PATH } from './pages/account-keys.js';

/** The account page's "API keys" section: how many keys are live, and the way to the page that manages them. */
export const accountKeysSection: AccountSection = {
  id: 'api-keys',
  title: 'API keys',
  async render(kit, ctx) {
    const { caller } = ctx.state;
    const now = kit.clock().getTime();
    const keys = await listApiKeys(kit.deps.readModels, caller.userId, caller.kind === 'PROJECT' ? caller.projectId : null);
    const live = keys.filter((k) => k.revoked_at === null && Date.parse(k.expires_at) > now).length;
    return html`<section class="panel account-section" aria-labelledby="api-keys">
<h2 id="api-keys">API keys</h2>
<p>${live === 0 ? 'No live keys.' : live === 1 ? '1 live key.' : `${live} live keys.`} Keys are for scripts, CI jobs and servers that use Vigil's API.</p>
<p><a class="button button-secondary" href="${ACCOUNT_KEYS_PATH}">Manage API keys</a></p>
</section>`;
  },
};
