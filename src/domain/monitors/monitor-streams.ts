/** Where a monitor's events are kept. */
export const monitorStream = (monitorId: string) => `monitor-${monitorId}`;
/** Pings live apart from the monitor so that retention can truncate them alone. */
export const pingStream = (monitorId: string) => `pings-${monitorId}`;
/** An uptime monitor's hourly check summaries, apart so that they are kept to a window of their own (check-hours.ts). */
export const checkHoursStream = (monitorId: string) => `checkhours-${monitorId}`;

const OBSERVATIONS: ReadonlySet<string> = new Set(['PingReceived', 'CheckCompleted', 'CheckInMissed', 'RunOverdue', 'CheckInUnheard', 'RunUnheard']);

/**
 * The monitor's observations go to its pings stream, where retention applies to all alike: pings,
 * check results, and the deadlines that passed without a ping (so that a timer fire and a check-in
 * racing it contend for one stream). Everything else (what follows from them: health, incidents,
 * pages; the monitor's settings) goes to its own, and the hourly check summaries to theirs.
 */
export const isObservation = (event: { type: string }): boolean => OBSERVATIONS.has(event.type);

export const isCheckSummary = (event: { type: string }): boolean => event.type === 'ChecksSummarized';
