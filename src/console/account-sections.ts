import type { ParameterizedContext } from 'koa';
import type { Html } from './html.js';
import type { ConsoleKit } from './routes.js';
import type { ConsoleState } from './signed-in.js';
import { secondFactorsSection } from './second-factors-section.js';
import { accountKeysSection } from './account-keys-section.js';

/**
 * A section of the account page (`/account`), below the name, password and sessions: what a
 * feature adds about the person's own account. Each renders itself (a `<section>` with an `<h2>`
 * whose id is `id`), reading what it needs; its forms post to routes the feature registers itself
 * (`FEATURE_ROUTES` in routes.ts), under `/account/<id>/…`, and come back to `/account#<id>`.
 */
export interface AccountSection {
  id: string;
  title: string;
  render: (kit: ConsoleKit, ctx: ParameterizedContext<ConsoleState>) => Promise<Html>;
}

/** The sections beyond the core ones, in page order: second factors, API keys, … each feature adds its own. */
export const ACCOUNT_SECTIONS: AccountSection[] = [secondFactorsSection, accountKeysSection];
