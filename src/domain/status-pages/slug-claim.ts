import type { Decider, DomainEvent } from '../decider.js';
import { conflict } from '../errors.js';

/**
 * A status page's slug is its public address (`/status/<slug>`), so it is unique across every
 * project. As monitor slugs are within a project, each slug is claimed in a stream of its own,
 * so the uniqueness holds on EventStoreDB too.
 */
export type StatusPageSlugEvent =
  | DomainEvent<'StatusPageSlugClaimed', { slug: string; status_page_id: string; project_id: string; claimed_at: string }>
  | DomainEvent<'StatusPageSlugReleased', { slug: string; status_page_id: string; project_id: string; released_at: string }>;

export type StatusPageSlugCommand =
  /** `holderGone`: the current holder no longer uses the slug (its page was deleted, moved to another slug, or never created). */
  | { type: 'ClaimStatusPageSlug'; slug: string; status_page_id: string; project_id: string; holderGone: boolean; now: string }
  | { type: 'ReleaseStatusPageSlug'; slug: string; status_page_id: string; project_id: string; now: string };

export interface StatusPageSlugState {
  holder: string | null;
}

export const statusPageSlugStream = (slug: string) => `statuspageslug-${slug}`;

export const statusPageSlugDecider: Decider<StatusPageSlugCommand, StatusPageSlugState, StatusPageSlugEvent> = {
  initialState: () => ({ holder: null }),
  evolve(state, event) {
    switch (event.type) {
      case 'StatusPageSlugClaimed':
        return { holder: event.data.status_page_id };
      case 'StatusPageSlugReleased':
        return state.holder === event.data.status_page_id ? { holder: null } : state;
      default: {
        const exhaustive: never = event;
        return exhaustive;
      }
    }
  },
  decide(command, state) {
    const { slug, status_page_id, project_id, now } = command;
    switch (command.type) {
      case 'ClaimStatusPageSlug':
        if (state.holder === status_page_id) return [];
        // Says nothing of whose it is: the slug may be another project's.
        if (state.holder !== null && !command.holderGone) throw conflict(`the status page address ${slug} is taken; choose another slug`);
        return [{ type: 'StatusPageSlugClaimed', data: { slug, status_page_id, project_id, claimed_at: now } }];
      case 'ReleaseStatusPageSlug':
        return state.holder === status_page_id ? [{ type: 'StatusPageSlugReleased', data: { slug, status_page_id, project_id, released_at: now } }] : [];
      default: {
        const exhaustive: never = command;
        return exhaustive;
      }
    }
  },
};
