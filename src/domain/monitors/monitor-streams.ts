/** Where a monitor's events are kept. */
export const monitorStream = (monitorId: string) => `monitor-${monitorId}`;
/** Pings live apart from the monitor so that retention can truncate them alone. */
export const pingStream = (monitorId: string) => `pings-${monitorId}`;
