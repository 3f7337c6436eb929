import type { MonitorDocument } from '../../projections/monitors.js';
import { isUptimeType } from '../domain/monitors/schedule.js';

/**
 * What the public may know of a monitor right now: up, down, paused, new (never pinged or
 * checked) or late (a job whose expected check-in has passed and whose grace period is running:
 * not yet a missed check-in, as Healthchecks' "late"). Derived from the monitor's read model and
 * `now`, as the dashboard's "was due" is.
 */
export type PublicState = 'up' | 'late' | 'down' | 'paused' | 'new';

/** Worst first: what a project badge or a page's banner reports when its monitors differ. */
const SEVERITY: Record<PublicState, number> = { down: 4, late: 3, up: 2, new: 1, paused: 0 };

/** `checked`: for an uptime monitor, whether it has a check result yet (jobs count their pings). */
export function publicState(monitor: MonitorDocument, checked: boolean, now: Date): PublicState {
  if (monitor.paused) return 'paused';
  if (monitor.status === 'DOWN') return 'down';
  if (isUptimeType(monitor.type) ? !checked : monitor.total_pings_received === 0) return 'new';
  if (!isUptimeType(monitor.type) && monitor.next_expected_at !== null && Date.parse(monitor.next_expected_at) < now.getTime()) return 'late';
  return 'up';
}

/** The worst of several states; null for none. */
export function worstState(states: readonly PublicState[]): PublicState | null {
  return states.reduce<PublicState | null>((worst, s) => (worst === null || SEVERITY[s] > SEVERITY[worst] ? s : worst), null);
}

/** shields.io's named colours, as its own badges use them. */
export const BADGE_COLOURS: Record<PublicState, string> = { up: 'brightgreen', late: 'orange', down: 'red', paused: 'lightgrey', new: 'blue' };
