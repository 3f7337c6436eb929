import type { AccountSection } from './kit.js';
import { secondFactorsSection } from './second-factors-section.js';
import { accountKeysSection } from './account-keys-section.js';

export type { AccountSection } from './kit.js';

/** The sections beyond the core ones, in page order: second factors, API keys, … each feature adds its own. */
export const ACCOUNT_SECTIONS: AccountSection[] = [secondFactorsSection, accountKeysSection];
