import { instantOfWallTime, isTimeZone, wallTimeAsUtcMs } from '../monitors/schedule.js';

/**
 * A weekly window in a zone when a channel is not to be paged: on each of `days` (0 = Sunday ..
 * 6 = Saturday, the day the window starts) from `start` to `end`, wall time. An `end` before its
 * `start` runs past midnight into the next day; an `end` equal to its `start` is the whole day.
 */
export type QuietHours = { days: number[]; start: string; end: string; time_zone: string };

const DAY_MS = 86_400_000;
const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/;

const minutesOf = (time: string): number => {
  const match = HH_MM.exec(time);
  return match ? Number(match[1]) * 60 + Number(match[2]) : 0;
};

/** The windows (as instants) that start on the wall day `day` (days since 1970 in the zone), if it is one of `days`. */
function windowStartingOn(quiet: QuietHours, day: number): { from: number; until: number } | null {
  if (!quiet.days.includes(new Date(day * DAY_MS).getUTCDay())) return null;
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  const endDay = end <= start ? day + 1 : day;
  // Wall times are placed in the zone one by one: a window from 22:00 to 07:00 across a clock
  // change lasts eight or ten hours, and a start inside a spring-forward gap is when the gap ends.
  return {
    from: instantOfWallTime(day * DAY_MS + start * 60_000, quiet.time_zone),
    until: instantOfWallTime(endDay * DAY_MS + end * 60_000, quiet.time_zone),
  };
}

/** The end of the window holding `atMs`, if one does: the window that started on the wall day before or on this one. */
function windowEndAt(quiet: QuietHours, atMs: number): number | null {
  const today = Math.floor(wallTimeAsUtcMs(new Date(atMs), quiet.time_zone) / DAY_MS);
  for (const day of [today - 1, today]) {
    const window = windowStartingOn(quiet, day);
    if (window && window.from <= atMs && atMs < window.until) return window.until;
  }
  return null;
}

/**
 * The instant the quiet hours holding `at` end (ISO-8601 UTC), or null when `at` is outside them.
 * Windows that meet (Monday and Tuesday all day) are one stretch: it ends when the last one does.
 */
export function quietUntil(quiet: QuietHours, at: string): string | null {
  if (quiet.days.length === 0 || !isTimeZone(quiet.time_zone)) return null;
  let until = windowEndAt(quiet, Date.parse(at));
  if (until === null) return null;
  for (let i = 0; i < 7; i += 1) {
    const next = windowEndAt(quiet, until);
    if (next === null || next <= until) break;
    until = next;
  }
  return new Date(until).toISOString();
}

/** What is wrong with quiet hours as given, naming the field under `prefix` (`quiet_hours.start: ...`); null when nothing is. */
export function quietHoursProblem(quiet: QuietHours, prefix = 'quiet_hours'): string | null {
  if (quiet.days.length === 0) return `${prefix}.days: name at least one day (0 = Sunday .. 6 = Saturday)`;
  const badDay = quiet.days.findIndex((day) => !Number.isInteger(day) || day < 0 || day > 6);
  if (badDay >= 0) return `${prefix}.days[${badDay}]: a day is a whole number from 0 (Sunday) to 6 (Saturday)`;
  if (new Set(quiet.days).size !== quiet.days.length) return `${prefix}.days: a day is listed twice`;
  if (!HH_MM.test(quiet.start)) return `${prefix}.start: a time of day as HH:MM, 00:00 to 23:59`;
  if (!HH_MM.test(quiet.end)) return `${prefix}.end: a time of day as HH:MM, 00:00 to 23:59`;
  if (!isTimeZone(quiet.time_zone)) return `${prefix}.time_zone: not a time zone this server knows (an IANA name such as Europe/Berlin)`;
  return null;
}

/** The wall time of day an instant shows in a zone, as HH:MM: how a held page's end is told. */
export function wallClock(at: string, timeZone: string): string {
  const zone = isTimeZone(timeZone) ? timeZone : 'UTC';
  return new Date(wallTimeAsUtcMs(new Date(at), zone)).toISOString().slice(11, 16);
}
