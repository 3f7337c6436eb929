import type { EmailClaimEvent } from './identity/email-claim.js';
import type { UserEvent } from './identity/user.js';
import type { MonitorEvent } from './monitors/monitor.js';
import type { SlugClaimEvent } from './monitors/slug-claim.js';
import type { ChannelEvent } from './notifications/channel.js';
import type { GroupEvent } from './notifications/group.js';
import type { PageEvent } from './notifications/page.js';
import type { ProjectEvent } from './projects/project.js';

/** Every event Vigil records, across all stream types. */
export type VigilEvent = UserEvent | EmailClaimEvent | ProjectEvent | MonitorEvent | SlugClaimEvent | ChannelEvent | GroupEvent | PageEvent;
export type VigilEventType = VigilEvent['type'];
