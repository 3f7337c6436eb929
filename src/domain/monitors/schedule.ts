import { Cron } from 'croner';
import rrule from 'rrule';
import { MAX_OCCURRENCES_PER_PERIOD, ruleParts, ruleProblem } from './rrule-parts.js';

const { RRule, rrulestr } = rrule;

export type MonitorType = 'JOB_CRON' | 'JOB_HEARTBEAT' | 'JOB_BASIC' | UptimeType;
export type UptimeType = 'UPTIME_HTTP' | 'UPTIME_TCP' | 'UPTIME_DNS';
export const UPTIME_TYPES: readonly UptimeType[] = ['UPTIME_HTTP', 'UPTIME_TCP', 'UPTIME_DNS'];
export const MONITOR_TYPES: readonly MonitorType[] = ['JOB_CRON', 'JOB_HEARTBEAT', 'JOB_BASIC', ...UPTIME_TYPES];

/** Monitors Vigil checks itself, on an interval, rather than waiting for their pings. */
export const isUptimeType = (type: MonitorType): type is UptimeType => (UPTIME_TYPES as readonly string[]).includes(type);

const CRON_MACROS = ['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@hourly'] as const;
const INTERVAL = /^(\d{1,7})(s|m|h|d|w)$/;
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;
const MAX_INTERVAL_MS = 365 * UNIT_MS.d;

/** `90s`, `5m`, `1h`, `2d`, `1w` → milliseconds; null when it is not such an interval. */
export function parseInterval(schedule: string): number | null {
  const match = INTERVAL.exec(schedule.trim());
  if (!match) return null;
  const ms = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  return ms >= 1000 && ms <= MAX_INTERVAL_MS ? ms : null;
}

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone.length > 0;
  } catch {
    return false;
  }
}

/** A standard five-field expression or a macro; croner evaluates it in the monitor's zone. */
function cronFor(schedule: string, timezone: string): Cron | null {
  const trimmed = schedule.trim();
  const isMacro = (CRON_MACROS as readonly string[]).includes(trimmed.toLowerCase());
  if (!isMacro && trimmed.split(/\s+/).length !== 5) return null;
  try {
    return new Cron(isMacro ? trimmed.toLowerCase() : trimmed, { timezone, paused: true });
  } catch {
    return null;
  }
}

const isRule = (schedule: string) => /^RRULE:/i.test(schedule.trim());

/**
 * An RFC 5545 rule (`RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;BYHOUR=18;BYMINUTE=0`) for
 * calendars cron cannot say. Daily or coarser only: finer rules are what cron is for, and rrule
 * walks every occurrence from the anchor to find the next one.
 *
 * The rule is read in wall time (its anchor and occurrences are the monitor zone's wall clock,
 * written as UTC): rrule with a TZID turns every occurrence it walks into an instant through two
 * Intl formats, ~0.5 ms each, so a look-up is walked in wall time and only the occurrences near
 * `from` are placed in the zone (`instantOfWallTime`).
 *
 * New rules pass `ruleProblem` first; this reads the ones already in the log as they always were,
 * except an INTERVAL below 1, which rrule reads as never (0) or walks back from forever (-1).
 */
function rruleFor(schedule: string, nearWallTime?: Date): InstanceType<typeof RRule> | null {
  const trimmed = schedule.trim();
  if (!isRule(trimmed) || /[\r\n]|DTSTART|TZID/i.test(trimmed) || timesOfDay(trimmed) > MAX_OCCURRENCES_WALKED) return null;
  const anchoredAt = (anchor: string) => {
    const rule = rrulestr(`DTSTART:${anchor}Z\n${trimmed}`);
    const { freq, interval } = rule instanceof RRule ? rule.options : { freq: NaN, interval: NaN };
    return rule instanceof RRule && freq <= RRule.DAILY && Number.isInteger(interval) && interval >= 1 ? rule : null;
  };
  try {
    const rule = anchoredAt(ANCHOR);
    // A COUNT counts from the anchor itself, so only a rule without one may start nearer.
    return rule && nearWallTime && rule.options.count === null ? anchoredAt(anchorNear(nearWallTime, rule.options.freq, rule.options.interval)) : rule;
  } catch {
    return null;
  }
}

/**
 * The times of day a rule gives each day it picks, its BYHOUR, BYMINUTE and BYSECOND values as
 * written. rrule makes them all before it walks: a rule kept before MAX_OCCURRENCES_PER_PERIOD with
 * more than a look-up may walk is read as having no occurrence, without making them.
 */
function timesOfDay(rule: string): number {
  const parts = ruleParts(rule);
  return ['BYHOUR', 'BYMINUTE', 'BYSECOND'].reduce((product, name) => product * (parts.get(name)?.split(',').length ?? 1), 1);
}

/** Where every rule's occurrences are counted from: the start of 2020, in the monitor's zone. */
const ANCHOR = '20200101T000000';

/**
 * An anchor a few days before `near` that a whole number of the rule's periods (INTERVAL times
 * its frequency) separates from ANCHOR, so the rule keeps the same occurrences; rrule walks each
 * one from its anchor to the next, and from 2020 that took ~0.7 s a call for a daily rule.
 */
function anchorNear(near: Date, freq: number, interval: number): string {
  const start = Date.UTC(2020, 0, 1);
  const before = new Date(near.getTime() - 2 * UNIT_MS.d);
  if (before.getTime() <= start) return ANCHOR;
  const pad = (n: number) => String(n).padStart(2, '0');
  const day = (date: Date) => `${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}T000000`;
  if (freq === RRule.YEARLY || freq === RRule.MONTHLY) {
    const months = (before.getUTCFullYear() - 2020) * 12 + before.getUTCMonth();
    const period = freq === RRule.YEARLY ? 12 * interval : interval;
    return day(new Date(Date.UTC(2020, Math.floor(months / period) * period, 1)));
  }
  const days = Math.floor((before.getTime() - start) / UNIT_MS.d);
  const period = freq === RRule.WEEKLY ? 7 * interval : interval;
  return day(new Date(start + Math.floor(days / period) * period * UNIT_MS.d));
}

/**
 * How far ahead a schedule must have a next time to be accepted, and how far an RRULE's is looked
 * for: far enough for February 29th across a century's skipped leap year (2096 → 2104).
 */
export const HORIZON_YEARS = 8;
const HORIZON_MS = HORIZON_YEARS * 366 * UNIT_MS.d;

/** The shortest a period of each rrule frequency (YEARLY 0 … DAILY 3) can be, in days. */
const SHORTEST_PERIOD_DAYS = [365, 28, 7, 1];

class PastHorizon extends Error {}

/**
 * The most occurrences one look-up walks from the rule's anchor before it gives up and answers
 * that there is none. A rule accepted now has at most MAX_OCCURRENCES_PER_PERIOD a period and at
 * most MAX_COUNT in all, and is anchored at most an INTERVAL of periods and two days before
 * `from` (COUNT rules at 2020), so it never comes near: this is for rules kept before those limits,
 * such as a YEARLY one on 324 minutes of every day, which would otherwise walk from January 1st on
 * every ping. Walked in wall time, the 2,500 take about 0.6 ms.
 */
export const MAX_OCCURRENCES_WALKED = 5 * MAX_OCCURRENCES_PER_PERIOD;

/**
 * The rule's first occurrence (a wall time) after `fromWallTime` that `wanted` takes, looked for
 * up to HORIZON_YEARS ahead at least, and through at most MAX_OCCURRENCES_WALKED occurrences. A
 * rule with no occurrence at all (a February 30th) has rrule walk period by period to the year
 * 9999: 35 s for a daily one, the event loop blocked throughout. rrule reads the rule's `interval`
 * twice a period (iter and DateTime.add), so counting those reads stops the walk past the horizon;
 * rrule hands each occurrence to the callback, which stops it after the last one it may walk.
 */
function firstOccurrence(rule: InstanceType<typeof RRule>, fromWallTime: number, wanted: (wallTime: Date) => boolean): Date | null {
  const { interval, freq, dtstart } = rule.options;
  const periodMs = (SHORTEST_PERIOD_DAYS[freq] ?? 1) * interval * UNIT_MS.d;
  const periods = Math.ceil((fromWallTime + HORIZON_MS - dtstart.getTime()) / periodMs) + 2;
  let reads = 0;
  Object.defineProperty(rule.options, 'interval', {
    configurable: true,
    enumerable: true,
    get: () => {
      reads += 1;
      if (reads > 2 * periods + 1) throw new PastHorizon();
      return interval;
    },
  });
  let found: Date | null = null;
  try {
    rule.all((wallTime, walked) => {
      if (wallTime.getTime() > fromWallTime && wanted(wallTime)) {
        found = wallTime;
        return false;
      }
      return walked + 1 < MAX_OCCURRENCES_WALKED;
    });
    return found;
  } catch (error) {
    if (error instanceof PastHorizon) return null;
    throw error;
  } finally {
    Object.defineProperty(rule.options, 'interval', { value: interval, writable: true, configurable: true, enumerable: true });
  }
}

const CRON_FORMAT =
  'schedule must be a five-field cron expression (such as "0 3 * * *"), a macro such as @hourly, or an RRULE:… of daily or coarser frequency for JOB_CRON monitors';

/**
 * Why a schedule does not suit its monitor type, or null when it does. A JOB_CRON schedule must
 * also have a next time within HORIZON_YEARS of `now`: one that never fires can never be missed.
 */
export function scheduleProblem(type: MonitorType, schedule: string, timezone: string, now: string): string | null {
  switch (type) {
    case 'JOB_CRON': {
      const zone = isTimeZone(timezone) ? timezone : 'UTC';
      return isRule(schedule) ? ruleScheduleProblem(schedule, zone, new Date(now)) : cronScheduleProblem(schedule, zone, new Date(now));
    }
    case 'JOB_HEARTBEAT':
    case 'UPTIME_HTTP':
    case 'UPTIME_TCP':
    case 'UPTIME_DNS':
      return parseInterval(schedule) !== null
        ? null
        : `schedule must be an interval such as 30s, 5m, 1h, 2d or 1w (from 1s to 365d) for ${type} monitors`;
    case 'JOB_BASIC':
      return schedule.trim().length > 0 ? null : 'schedule must not be empty';
    default: {
      const exhaustive: never = type;
      return exhaustive;
    }
  }
}

function cronScheduleProblem(schedule: string, zone: string, now: Date): string | null {
  const trimmed = schedule.trim();
  const fields = trimmed.split(/\s+/);
  const fieldProblem = fields.length === 5 ? cronFieldProblem(fields) : null;
  if (fieldProblem) return fieldProblem;
  const cron = cronFor(trimmed, zone);
  if (!cron) return CRON_FORMAT;
  // croner looks 400 years ahead before it answers null.
  const next = cron.nextRun(now);
  if (next === null) return `schedule: "${trimmed}" never fires${reasonInBrackets(fields.length === 5 ? cronMonthDays(fields) : null)}`;
  if (next.getTime() - now.getTime() > HORIZON_MS) return `schedule: "${trimmed}" does not fire in the next ${HORIZON_YEARS} years (next at ${next.toISOString()})`;
  return null;
}

const CRON_FIELDS = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day-of-month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12 },
  { name: 'day-of-week', min: 0, max: 7 },
] as const;

/** A number out of its field's range, said in the field's own terms (croner counts months from 0 in its message). */
function cronFieldProblem(fields: string[]): string | null {
  for (const [index, field] of fields.entries()) {
    const { name, min, max } = CRON_FIELDS[index]!;
    for (const item of field.split(',')) {
      const [range = '', step] = item.split('/');
      for (const value of range.split('-')) {
        if (!/^\d+$/.test(value)) continue;
        if (Number(value) < min || Number(value) > max) return `schedule: cron ${name} values must be ${min} to ${max}, got ${value}`;
      }
      if (step !== undefined && /^\d+$/.test(step) && Number(step) < 1) return `schedule: cron ${name} steps must be at least 1, got ${item}`;
    }
  }
  return null;
}

/**
 * The days of the month and the months a cron expression names, when its day of the week is any
 * (croner fires on either day field when both are set, and then something always matches).
 */
function cronMonthDays(fields: string[]): { days: number[]; months: number[] } | null {
  if (fields[4] !== '*' && fields[4] !== '?') return null;
  const days = expand(fields[2]!, 1, 31, []);
  const months = expand(fields[3]!, 1, 12, MONTH_ABBREVIATIONS);
  return days && months ? { days, months } : null;
}

const MONTH_ABBREVIATIONS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const LONGEST_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The values a plain cron field (numbers, names, ranges and steps) names; null for L, W, # and the like. */
function expand(field: string, min: number, max: number, names: string[]): number[] | null {
  const valueOf = (token: string) => (/^\d+$/.test(token) ? Number(token) : names.indexOf(token.toUpperCase()) + min);
  const values = new Set<number>();
  for (const item of field.split(',')) {
    const match = /^(\*|\w+)(?:-(\w+))?(?:\/(\d+))?$/.exec(item);
    if (!match) return null;
    const from = match[1] === '*' ? min : valueOf(match[1]!);
    const to = match[2] !== undefined ? valueOf(match[2]) : match[1] === '*' || match[3] !== undefined ? max : from;
    const step = Number(match[3] ?? 1);
    if (from < min || to > max || from > to || step < 1) return null;
    for (let value = from; value <= to; value += step) values.add(value);
  }
  return [...values].sort((a, b) => a - b);
}

/** Why none of `days` falls in any of `months` (February has no 30th), or null when one does. */
function impossibleMonthDays({ days, months }: { days: number[]; months: number[] }): string | null {
  if (days.length === 0 || months.length === 0 || months.some((month) => days.some((day) => day <= LONGEST_MONTH[month - 1]!))) return null;
  const names = months.map((month) => MONTH_NAMES[month - 1]!);
  const ordinals = days.map(ordinal);
  return `${joined(names, 'and')} ${names.length === 1 ? 'has' : 'have'} no ${joined(ordinals, 'or')}`;
}

function reasonInBrackets(monthDays: { days: number[]; months: number[] } | null): string {
  const reason = monthDays ? impossibleMonthDays(monthDays) : null;
  return ` (${reason ?? 'no date matches it'})`;
}

function ordinal(n: number): string {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

function joined(words: string[], conjunction: string): string {
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} ${conjunction} ${words[words.length - 1]}`;
}

function ruleScheduleProblem(schedule: string, zone: string, now: Date): string | null {
  const trimmed = schedule.trim();
  const problem = ruleProblem(trimmed);
  if (problem) return problem;
  if (!rruleFor(trimmed)) return CRON_FORMAT;
  if (nextOfRule(trimmed, zone, now)) return null;
  const parts = ruleParts(trimmed);
  const limit = ['COUNT', 'UNTIL'].find((name) => parts.has(name));
  if (limit !== undefined) {
    const unlimited = `RRULE:${[...parts].filter(([name]) => name !== limit).map(([name, value]) => `${name}=${value}`).join(';')}`;
    if (nextOfRule(unlimited, zone, now)) {
      const counted = limit === 'COUNT' ? ' (occurrences count from 2020-01-01)' : '';
      return `schedule: the RRULE's ${limit}=${parts.get(limit)} is used up${counted}: it has no occurrence after ${now.toISOString()}`;
    }
  }
  const reason = impossibleMonthDays({ days: ruleNumbers(parts, 'BYMONTHDAY') ?? [], months: ruleNumbers(parts, 'BYMONTH') ?? [] });
  return reason ? `schedule: "${trimmed}" never fires (${reason})` : `schedule: "${trimmed}" has no occurrence in the next ${HORIZON_YEARS} years`;
}

/** A numeric list part's values; null when it counts any from the end (-1, the last). */
function ruleNumbers(parts: Map<string, string>, name: string): number[] | null {
  const values = parts.get(name)?.split(',').map(Number) ?? [];
  return values.some((value) => value < 0) ? null : values;
}

/**
 * The rule's next occurrence after `from`, as cron has it: a wall time in a repeated fall-back
 * hour at its first occurrence, one the spring-forward gap skips when the gap ends. Walked in wall
 * time; a wall time up to an hour before `from`'s may still fall after it (the clock went back).
 */
function nextOfRule(schedule: string, timezone: string, from: Date): Date | null {
  const fromWallTime = wallTimeAsUtcMs(from, timezone);
  const rule = rruleFor(schedule, new Date(fromWallTime));
  const after = (wallTime: Date) => instantOfWallTime(wallTime.getTime(), timezone) > from.getTime();
  const found = rule ? firstOccurrence(rule, fromWallTime - GAP_MS, after) : null;
  return found && new Date(instantOfWallTime(found.getTime(), timezone));
}

/** The longest a clock change skips (an hour; half an hour on Lord Howe Island). */
const GAP_MS = 3_600_000;
const MINUTE_MS = 60_000;

/**
 * The instant a wall time (written as UTC, in ms) first shows in `timezone`: in a repeated
 * fall-back hour the first of the two; in a spring-forward gap (02:30 in Berlin on the last Sunday
 * of March) none does, and it is when the gap ends (03:00 CEST), as cron has it. Clocks change at
 * most once within a day either side, so the offsets a day before and after are the only two.
 */
export function instantOfWallTime(wallTime: number, timezone: string): number {
  const offsetAt = (instant: number) => wallTimeAsUtcMs(new Date(instant), timezone) - Math.floor(instant / 1000) * 1000;
  const offsets = [offsetAt(wallTime - UNIT_MS.d), offsetAt(wallTime + UNIT_MS.d)];
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

/** One formatter per zone: building one costs about 0.1 ms. */
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

/** When the next check-in is due after `from`; null for JOB_BASIC, which has no schedule to keep. */
export function nextExpectedAfter(type: MonitorType, schedule: string, timezone: string, from: string): string | null {
  switch (type) {
    case 'JOB_CRON': {
      const cron = cronFor(schedule, timezone);
      const next = cron ? cron.nextRun(new Date(from)) : nextOfRule(schedule, timezone, new Date(from));
      return next ? next.toISOString() : null;
    }
    case 'JOB_HEARTBEAT':
    case 'UPTIME_HTTP':
    case 'UPTIME_TCP':
    case 'UPTIME_DNS': {
      const interval = parseInterval(schedule);
      return interval === null ? null : new Date(Date.parse(from) + interval).toISOString();
    }
    case 'JOB_BASIC':
      return null;
    default: {
      const exhaustive: never = type;
      return exhaustive;
    }
  }
}

/**
 * A check-in this close before a cron slot is early for that slot (clock skew between the job's
 * host and Vigil), not a stray ping: the next expected time is then the slot after it. The window
 * is less than half the gap between slots, so a job running every minute or two is not skipped ahead.
 */
export const EARLY_CHECKIN_MS = 60_000;

export function nextExpectedAfterCheckIn(type: MonitorType, schedule: string, timezone: string, checkinAt: string): string | null {
  const next = nextExpectedAfter(type, schedule, timezone, checkinAt);
  if (type !== 'JOB_CRON' || next === null) return next;
  const following = nextExpectedAfter(type, schedule, timezone, next);
  const early = Date.parse(next) - Date.parse(checkinAt);
  if (following !== null && early <= EARLY_CHECKIN_MS && Date.parse(following) - Date.parse(next) > 2 * EARLY_CHECKIN_MS) return following;
  return next;
}

export function addSeconds(iso: string, seconds: number): string {
  return new Date(Date.parse(iso) + seconds * 1000).toISOString();
}

/** The next `count` expected times from `first` on: what a person checks a schedule against. */
export function upcomingSlots(type: MonitorType, schedule: string, timezone: string, first: string | null, count: number): string[] {
  const slots: string[] = [];
  for (let at = first; at !== null && slots.length < count; at = nextExpectedAfter(type, schedule, timezone, at)) slots.push(at);
  return slots;
}
