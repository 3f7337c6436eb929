/** Where a monitor's events are kept. */
export const monitorStream = (monitorId: string) => `monitor-${monitorId}`;
/** Pings live apart from the monitor so that retention can truncate them alone. */
export const pingStream = (monitorId: string) => `pings-${monitorId}`;

/**
 * The monitor's observations, pings and check results, go to its pings stream, where retention
 * applies to both alike; everything else (decisions, incidents, pages, summaries) to its own.
 */
export const isObservation = (event: { type: string }): boolean => event.type === 'PingReceived' || event.type === 'CheckCompleted';
