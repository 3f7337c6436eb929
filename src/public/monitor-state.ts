import { type MonitorState, worstState } from '../queries/monitor-state.js';

/**
 * What the public may know of a monitor right now: the one state every screen tells
 * (src/queries/monitor-state.ts), in the badge's and the status page's own words.
 */
export type PublicState = MonitorState;

export { worstState };

/** shields.io's named colours, as its own badges use them. */
export const BADGE_COLOURS: Record<PublicState, string> = {
  up: 'brightgreen', degraded: 'yellow', late: 'orange', down: 'red', maintenance: 'blueviolet', paused: 'lightgrey', new: 'blue',
};
