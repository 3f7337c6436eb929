import { Cron } from 'croner';
import rrule from 'rrule';

const { RRule, rrulestr } = rrule;

export type MonitorType = 'JOB_CRON' | 'JOB_HEARTBEAT' | 'JOB_BASIC' | 'UPTIME_HTTP';
export const MONITOR_TYPES: readonly MonitorType[] = ['JOB_CRON', 'JOB_HEARTBEAT', 'JOB_BASIC', 'UPTIME_HTTP'];

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

/**
 * An RFC 5545 rule (`RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;BYHOUR=18;BYMINUTE=0`) for
 * calendars cron cannot say, anchored in the monitor's zone. Daily or coarser only: finer rules are
 * what cron is for, and rrule walks every occurrence from the anchor to find the next one.
 */
function rruleFor(schedule: string, timezone: string, near?: Date): InstanceType<typeof RRule> | null {
  const trimmed = schedule.trim();
  if (!/^RRULE:/i.test(trimmed) || /[\r\n]|DTSTART|TZID/i.test(trimmed)) return null;
  const anchoredAt = (anchor: string) => {
    const rule = rrulestr(`DTSTART;TZID=${timezone}:${anchor}\n${trimmed}`);
    return rule instanceof RRule && rule.options.freq <= RRule.DAILY ? rule : null;
  };
  try {
    const rule = anchoredAt(ANCHOR);
    // A COUNT counts from the anchor itself, so only a rule without one may start nearer.
    return rule && near && rule.options.count === null ? anchoredAt(anchorNear(near, rule.options.freq, rule.options.interval)) : rule;
  } catch {
    return null;
  }
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

/** Why a schedule does not suit its monitor type, or null when it does. */
export function scheduleProblem(type: MonitorType, schedule: string, timezone: string): string | null {
  switch (type) {
    case 'JOB_CRON': {
      const zone = isTimeZone(timezone) ? timezone : 'UTC';
      return cronFor(schedule, zone) || rruleFor(schedule, zone)
        ? null
        : 'schedule must be a five-field cron expression (such as "0 3 * * *"), a macro such as @hourly, or an RRULE:… of daily or coarser frequency for JOB_CRON monitors';
    }
    case 'JOB_HEARTBEAT':
    case 'UPTIME_HTTP':
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

/**
 * The rule's next occurrence after `from`, a time in a repeated fall-back hour at its first
 * occurrence, as cron has it (rrule gives the second). One whose first occurrence has passed is
 * already done: the next is the one after it.
 */
function nextOfRule(schedule: string, timezone: string, from: Date): Date | null {
  const rule = rruleFor(schedule, timezone, from);
  let next = rule?.after(from, false) ?? null;
  for (let tries = 0; rule && next && tries < 2; tries++) {
    const first = firstInstantOfWallTime(next, timezone);
    if (first > from) return first;
    next = rule.after(next, false);
  }
  return next;
}

/** The earliest instant that reads as the same wall time in the zone (a fall-back hour repeats it). */
function firstInstantOfWallTime(instant: Date, timezone: string): Date {
  const wall = wallTime(instant, timezone);
  // Clocks go back by an hour, or by half an hour in a few zones (Lord Howe).
  for (const back of [3_600_000, 1_800_000]) {
    const earlier = new Date(instant.getTime() - back);
    if (wallTime(earlier, timezone) === wall) return earlier;
  }
  return instant;
}

function wallTime(instant: Date, timezone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: timezone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' }).format(instant);
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
    case 'UPTIME_HTTP': {
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
