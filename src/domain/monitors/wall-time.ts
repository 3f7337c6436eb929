const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone.length > 0;
  } catch {
    return false;
  }
}

/**
 * The instant a wall time (written as UTC, in ms) first shows in `timezone`: in a repeated
 * fall-back hour the first of the two; in a spring-forward gap (02:30 in Berlin on the last Sunday
 * of March) none does, and it is when the gap ends (03:00 CEST), as cron has it. Clocks change at
 * most once within a day either side, so the offsets a day before and after are the only two.
 */
export function instantOfWallTime(wallTime: number, timezone: string): number {
  const offsetAt = (instant: number) => wallTimeAsUtcMs(new Date(instant), timezone) - Math.floor(instant / 1000) * 1000;
  const offsets = [offsetAt(wallTime - DAY_MS), offsetAt(wallTime + DAY_MS)];
  const shows = offsets.map((offset) => wallTime - offset).filter((instant) => offsetAt(instant) === wallTime - instant);
  if (shows.length > 0) return Math.min(...shows);
  // In the gap: the first minute on the later offset.
  const [before, after] = offsets as [number, number];
  let [low, high] = [Math.floor((wallTime - after) / MINUTE_MS), Math.ceil((wallTime - before) / MINUTE_MS)];
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (offsetAt(middle * MINUTE_MS) === before) low = middle;
    else high = middle;
  }
  return high * MINUTE_MS;
}

/**
 * One formatter per zone, built once.
 * why: see bench/NOTES.md#a-formatter-per-time-zone
 */
const wallTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** The wall time `instant` shows in `timezone`, read as if it were UTC, in ms. */
export function wallTimeAsUtcMs(instant: Date, timezone: string): number {
  let format = wallTimeFormats.get(timezone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone: timezone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    wallTimeFormats.set(timezone, format);
  }
  const parts = format.formatToParts(instant);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
}
