import type { MonitorEvent } from './monitor-events.js';
import type { MonitorState } from './monitor-state.js';
import type { PagingCircumstances } from './circumstances.js';
import { markedUpstream } from './dependencies.js';
import { withMaintenance, withRepagesHeld } from './maintenance-suppression.js';
import { withPages } from './paging.js';

/** What every paging policy is told about the decision beside the events decided so far. */
export interface PagingDecision {
  state: MonitorState;
  now: string;
  /** What the application found outside the monitor's streams (circumstances.ts); undefined: it did not look. */
  circumstances: PagingCircumstances | undefined;
  /** The timer is looking at the monitor (and it is not paused): a repage may fall due. */
  repageDue: boolean;
  repageAfterSeconds: number;
}

/** One link of the chain: the events decided so far, as this policy changes them. */
export type PagingPolicy = (decided: readonly MonitorEvent[], decision: PagingDecision) => MonitorEvent[];

/**
 * The monitor decider's paging policies, applied in this order to what its command decided
 * (monitor.ts). The order is the rules':
 *
 * 1. Maintenance first: inside a window an incident that would open is suppressed, and outside
 *    one a problem held back before opens under its own id; what opens is known only after this.
 * 2. Then upstream circumstances: an incident that does open, while a monitor it depends on is
 *    DOWN, is marked caused upstream, which pages nobody.
 * 3. Then repeats: inside a window, a repage falling due is held until it ends.
 * 4. Pages last, about the incidents the links before let open, acknowledge or resolve, and the
 *    repages due: surge protection counts only what is really paged.
 */
export const pagingPolicies: readonly PagingPolicy[] = [
  function suppressedInMaintenance(decided, { state, circumstances }) {
    return withMaintenance(state, decided, circumstances?.maintenance ?? null);
  },
  function upstreamCaused(decided, { circumstances }) {
    return circumstances?.upstreamDown ? markedUpstream(decided, circumstances.upstreamDown) : [...decided];
  },
  function repagesHeldInMaintenance(decided, { state, circumstances, repageDue, now }) {
    return repageDue ? withRepagesHeld(state, decided, circumstances?.maintenance ?? null, now) : [...decided];
  },
  function paged(decided, { state, repageDue, repageAfterSeconds, now }) {
    // Nothing decided and no repage to look for: nothing to page about.
    if (state.config === null || (decided.length === 0 && !repageDue)) return [...decided];
    return withPages(state, state.config, decided, { now, repageAfterSeconds, repageDue });
  },
];

/** The events a command decided, through every paging policy in turn. */
export function withPagingPolicies(decided: readonly MonitorEvent[], decision: PagingDecision): MonitorEvent[] {
  return pagingPolicies.reduce<MonitorEvent[]>((events, policy) => policy(events, decision), [...decided]);
}
