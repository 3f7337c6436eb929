import rrule from 'rrule';
import { CRON_FORMAT } from './cron-schedule.js';
import { impossibleMonthDays } from './month-days.js';
import { MAX_OCCURRENCES_PER_PERIOD, ruleParts, ruleProblem } from './rrule-parts.js';
import { HORIZON_MS, HORIZON_YEARS } from './schedule-horizon.js';
import { instantOfWallTime, wallTimeAsUtcMs } from './wall-time.js';

const { RRule, rrulestr } = rrule;
const DAY_MS = 86_400_000;

export const isRule = (schedule: string) => /^RRULE:/i.test(schedule.trim());

/**
 * An RFC 5545 rule (`RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;BYHOUR=18;BYMINUTE=0`) for
 * calendars cron cannot say. Daily or coarser only: finer rules are what cron is for, and rrule
 * walks every occurrence from the anchor to find the next one.
 *
 * The rule is read in wall time (its anchor and occurrences are the monitor zone's wall clock,
 * written as UTC): rrule with a TZID turns every occurrence it walks into an instant through two
 * Intl formats, so a look-up is walked in wall time and only the occurrences near `from` are
 * placed in the zone (`instantOfWallTime`).
 * why: see bench/NOTES.md#rrule-look-ups
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
 * one from its anchor to the next, and from 2020 a daily rule has thousands to walk.
 * why: see bench/NOTES.md#rrule-look-ups
 */
function anchorNear(near: Date, freq: number, interval: number): string {
  const start = Date.UTC(2020, 0, 1);
  const before = new Date(near.getTime() - 2 * DAY_MS);
  if (before.getTime() <= start) return ANCHOR;
  const pad = (n: number) => String(n).padStart(2, '0');
  const day = (date: Date) => `${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}T000000`;
  if (freq === RRule.YEARLY || freq === RRule.MONTHLY) {
    const months = (before.getUTCFullYear() - 2020) * 12 + before.getUTCMonth();
    const period = freq === RRule.YEARLY ? 12 * interval : interval;
    return day(new Date(Date.UTC(2020, Math.floor(months / period) * period, 1)));
  }
  const days = Math.floor((before.getTime() - start) / DAY_MS);
  const period = freq === RRule.WEEKLY ? 7 * interval : interval;
  return day(new Date(start + Math.floor(days / period) * period * DAY_MS));
}

/** The shortest a period of each rrule frequency (YEARLY 0 … DAILY 3) can be, in days. */
const SHORTEST_PERIOD_DAYS = [365, 28, 7, 1];

class PastHorizon extends Error {}

/**
 * The most occurrences one look-up walks from the rule's anchor before it gives up and answers
 * that there is none. A rule accepted now has at most MAX_OCCURRENCES_PER_PERIOD a period and at
 * most MAX_COUNT in all, and is anchored at most an INTERVAL of periods and two days before
 * `from` (COUNT rules at 2020), so it never comes near: this is for rules kept before those limits,
 * such as a YEARLY one on 324 minutes of every day, which would otherwise walk from January 1st on
 * every ping.
 * why: see bench/NOTES.md#rrule-look-ups
 */
export const MAX_OCCURRENCES_WALKED = 5 * MAX_OCCURRENCES_PER_PERIOD;

/**
 * The rule's first occurrence (a wall time) after `fromWallTime` that `wanted` takes, looked for
 * up to HORIZON_YEARS ahead at least, and through at most MAX_OCCURRENCES_WALKED occurrences. A
 * rule with no occurrence at all (a February 30th) has rrule walk period by period to the year
 * 9999, the event loop blocked throughout (why: see bench/NOTES.md#rrule-look-ups). rrule reads the
 * rule's `interval` twice a period (iter and DateTime.add), so counting those reads stops the walk
 * past the horizon; rrule hands each occurrence to the callback, which stops it after the last one
 * it may walk.
 */
function firstOccurrence(rule: InstanceType<typeof RRule>, fromWallTime: number, wanted: (wallTime: Date) => boolean): Date | null {
  const { interval, freq, dtstart } = rule.options;
  const periodMs = (SHORTEST_PERIOD_DAYS[freq] ?? 1) * interval * DAY_MS;
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

/** Why an RRULE is no JOB_CRON schedule (see scheduleProblem), or null when it is one. */
export function ruleScheduleProblem(schedule: string, zone: string, now: Date): string | null {
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
export function nextOfRule(schedule: string, timezone: string, from: Date): Date | null {
  const fromWallTime = wallTimeAsUtcMs(from, timezone);
  const rule = rruleFor(schedule, new Date(fromWallTime));
  const after = (wallTime: Date) => instantOfWallTime(wallTime.getTime(), timezone) > from.getTime();
  const found = rule ? firstOccurrence(rule, fromWallTime - GAP_MS, after) : null;
  return found && new Date(instantOfWallTime(found.getTime(), timezone));
}

/** The longest a clock change skips (an hour; half an hour on Lord Howe Island). */
const GAP_MS = 3_600_000;
