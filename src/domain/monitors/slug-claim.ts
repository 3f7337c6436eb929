import type { Decider, DomainEvent } from '../decider.js';
import { invalid } from '../errors.js';

/**
 * Slugs are unique within a project. As with email addresses, each (project, slug) is claimed in
 * a stream of its own, so the uniqueness holds on EventStoreDB too.
 */
export type SlugClaimEvent =
  | DomainEvent<'SlugClaimed', { project_id: string; slug: string; monitor_id: string; claimed_at: string }>
  | DomainEvent<'SlugReleased', { project_id: string; slug: string; monitor_id: string; released_at: string }>;

export type SlugClaimCommand =
  /** `holderGone`: the current holder's monitor no longer exists (its creation failed or it was deleted). */
  | { type: 'ClaimSlug'; project_id: string; slug: string; monitor_id: string; holderGone: boolean; now: string }
  | { type: 'ReleaseSlug'; project_id: string; slug: string; monitor_id: string; now: string };

export interface SlugClaimState {
  holder: string | null;
}

export const slugClaimStream = (projectId: string, slug: string) => `monitorslug-${projectId}-${slug}`;

export const slugClaimDecider: Decider<SlugClaimCommand, SlugClaimState, SlugClaimEvent> = {
  initialState: () => ({ holder: null }),
  evolve(state, event) {
    switch (event.type) {
      case 'SlugClaimed':
        return { holder: event.data.monitor_id };
      case 'SlugReleased':
        return state.holder === event.data.monitor_id ? { holder: null } : state;
      default: {
        const exhaustive: never = event;
        return exhaustive;
      }
    }
  },
  decide(command, state) {
    const { project_id, slug, monitor_id, now } = command;
    switch (command.type) {
      case 'ClaimSlug':
        if (state.holder === monitor_id) return [];
        if (state.holder !== null && !command.holderGone) throw invalid(`slug ${slug} is already used by another monitor in this project`);
        return [{ type: 'SlugClaimed', data: { project_id, slug, monitor_id, claimed_at: now } }];
      case 'ReleaseSlug':
        return state.holder === monitor_id ? [{ type: 'SlugReleased', data: { project_id, slug, monitor_id, released_at: now } }] : [];
      default: {
        const exhaustive: never = command;
        return exhaustive;
      }
    }
  },
};

const ALREADY_A_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A slug from a name: lowercase letters, digits and single hyphens, at most 50 characters. */
export function slugify(name: string): string {
  // A name that is a slug already comes out of the steps below as it went in; a job that reports
  // by its slug (a Sentry check-in, every time) is spared them.
  if (name.length <= 50 && ALREADY_A_SLUG.test(name)) return name;
  const slug = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50)
    .replace(/-+$/, '');
  return slug || 'monitor';
}
