import type { MonitorEvent } from './monitor-events.js';

/**
 * What the application found outside the monitor's own streams that changes whether its problems
 * page: a maintenance window covering it, or a monitor it depends on being DOWN. The application
 * looks only when a decision would open an incident or page (rare), reads the streams that hold
 * the answer, and appends conditional on them too; the decider turns the answer into events.
 */
export interface PagingCircumstances {
  /** The maintenance window covering this monitor now, if any. */
  maintenance: { window_id: string; name: string; ends_at: string } | null;
  /** A monitor this one depends on that is DOWN now, if any. */
  upstreamDown: { monitor_id: string; name: string } | null;
}

export const NO_CIRCUMSTANCES: PagingCircumstances = { maintenance: null, upstreamDown: null };

export function hasCircumstances(circumstances: PagingCircumstances | undefined): circumstances is PagingCircumstances {
  return circumstances !== undefined && (circumstances.maintenance !== null || circumstances.upstreamDown !== null);
}

/** Whether a decision's events open an incident or page about a problem: only then do circumstances matter. */
export function wouldRaise(decided: readonly MonitorEvent[]): boolean {
  return decided.some((e) => e.type === 'IncidentOpened' || (e.type === 'PageScheduled' && (e.data.reason === 'opened' || e.data.reason === 'repage')));
}
