import type { EmailClaimEvent } from './identity/email-claim.js';
import type { UserEvent } from './identity/user.js';
import type { MonitorEvent } from './monitors/monitor.js';
import type { SlugClaimEvent } from './monitors/slug-claim.js';
import type { ProjectEvent } from './projects/project.js';

/** Every event Vigil records, across all stream types. */
export type VigilEvent = UserEvent | EmailClaimEvent | ProjectEvent | MonitorEvent | SlugClaimEvent;
export type VigilEventType = VigilEvent['type'];
