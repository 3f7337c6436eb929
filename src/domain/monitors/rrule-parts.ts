/** The frequencies a monitor's RRULE may have: daily or coarser, finer ones are what cron is for. */
const FREQUENCIES = ['YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY'] as const;
const FINER = ['HOURLY', 'MINUTELY', 'SECONDLY'];
const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];

/** Numeric list parts: their range, and whether counting from the end (-1 the last) is allowed. */
const NUMBER_LISTS: Record<string, { min: number; max: number; fromEnd: boolean }> = {
  // RFC 5545 allows 60 for a leap second; JavaScript time has none, and rrule reads it as the next minute.
  BYSECOND: { min: 0, max: 59, fromEnd: false },
  BYMINUTE: { min: 0, max: 59, fromEnd: false },
  BYHOUR: { min: 0, max: 23, fromEnd: false },
  BYMONTH: { min: 1, max: 12, fromEnd: false },
  BYMONTHDAY: { min: 1, max: 31, fromEnd: true },
  BYYEARDAY: { min: 1, max: 366, fromEnd: true },
  BYWEEKNO: { min: 1, max: 53, fromEnd: true },
  BYSETPOS: { min: 1, max: 366, fromEnd: true },
};

const PARTS = ['FREQ', 'UNTIL', 'COUNT', 'INTERVAL', 'BYDAY', 'WKST', ...Object.keys(NUMBER_LISTS)];

/** A rule's parts by name, names and values in upper case (rrule reads `freq=daily` too). */
export function ruleParts(rule: string): Map<string, string> {
  const parts = new Map<string, string>();
  for (const part of rule.trim().slice('RRULE:'.length).split(';')) {
    const at = part.indexOf('=');
    parts.set(part.slice(0, at).toUpperCase(), part.slice(at + 1).toUpperCase());
  }
  return parts;
}

/**
 * Why an `RRULE:…` is not one a monitor can keep, or null. rrule reads what it does not understand
 * as something else (BYHOUR=99 as 03:00 every other day, INTERVAL=0 as never, INTERVAL=-1 as a walk
 * that never ends), so every part is checked first: known, given once, in range, and allowed with the
 * rule's FREQ as RFC 5545 has it.
 */
export function ruleProblem(rule: string): string | null {
  const body = rule.trim().slice('RRULE:'.length);
  if (/[\r\n]/.test(body)) return 'schedule: an RRULE is a single line';
  const parts = new Map<string, string>();
  for (const part of body.split(';')) {
    if (part === '') return 'schedule: RRULE has an empty part (two semicolons, or one at the end)';
    const at = part.indexOf('=');
    if (at < 1) return `schedule: RRULE part ${part} must be NAME=VALUE`;
    const name = part.slice(0, at).toUpperCase();
    if (name === 'DTSTART' || name === 'TZID') {
      return "schedule: an RRULE takes no DTSTART or TZID: it counts from 2020-01-01 in the monitor's timezone";
    }
    if (!PARTS.includes(name)) return `schedule: RRULE has an unknown part ${name}; the parts are ${PARTS.join(', ')}`;
    if (parts.has(name)) return `schedule: RRULE gives ${name} more than once`;
    parts.set(name, part.slice(at + 1));
  }
  return freqProblem(parts) ?? countProblem(parts) ?? listProblem(parts) ?? combinationProblem(parts) ?? expansionProblem(parts);
}

/**
 * The most occurrences a rule may have in one period of its FREQ (a day, week, month or year).
 * rrule gives a period's occurrences one by one, so the work of finding the next one grows with
 * them: a YEARLY rule on every second of every day walked 86,400 a day from January 1st, and froze
 * the server for minutes. A look-up walks at most an INTERVAL of periods and two days, so this
 * keeps every look-up of a rule accepted within `MAX_OCCURRENCES_WALKED` (rrule-schedule.ts). Frequent
 * times are what cron is for.
 */
export const MAX_OCCURRENCES_PER_PERIOD = 500;
/** A COUNT is counted from the 2020 anchor, so a look-up walks up to COUNT occurrences. */
export const MAX_COUNT = 1_000;

const PERIOD_NAMES: Record<string, string> = { DAILY: 'day', WEEKLY: 'week', MONTHLY: 'month', YEARLY: 'year' };

/**
 * At most how many occurrences one period of the rule has, from its parts alone: the days it can
 * pick in a period times the times of day it gives each (BYHOUR × BYMINUTE × BYSECOND), or its
 * BYSETPOS count when fewer. An upper bound (a BYDAY and a BYMONTHDAY together count as the
 * smaller), and a part left out counts as rrule fills it in: from the anchor, one value.
 */
export function occurrencesPerPeriod(parts: Map<string, string>): number {
  const count = (name: string) => parts.get(name)?.split(',').length ?? null;
  const times = (count('BYHOUR') ?? 1) * (count('BYMINUTE') ?? 1) * (count('BYSECOND') ?? 1);
  const picked = count('BYSETPOS');
  const all = daysPerPeriod(parts) * times;
  return picked === null ? all : Math.min(all, picked);
}

function daysPerPeriod(parts: Map<string, string>): number {
  const count = (name: string) => parts.get(name)?.split(',').length ?? null;
  const byday = parts.get('BYDAY')?.split(',') ?? null;
  const ordinals = byday?.filter((value) => /\d/.test(value)).length ?? 0;
  const weekdays = (byday?.length ?? 0) - ordinals;
  // rrule fills in the anchor's day (January 1st, a Wednesday) when no part picks days.
  const picksDays = ['BYWEEKNO', 'BYYEARDAY', 'BYMONTHDAY', 'BYDAY'].some((name) => parts.has(name));
  switch (parts.get('FREQ')?.toUpperCase()) {
    case 'DAILY':
      return 1;
    case 'WEEKLY':
      return byday === null ? 1 : Math.min(7, byday.length);
    case 'MONTHLY': {
      if (!picksDays) return 1;
      const bounds = [31, count('BYMONTHDAY') ?? Infinity, byday === null ? Infinity : weekdays * 5 + ordinals];
      return Math.min(...bounds);
    }
    default: {
      const months = count('BYMONTH');
      if (!picksDays) return months ?? 1;
      const bounds = [
        Math.min(366, (months ?? 12) * 31),
        count('BYYEARDAY') ?? Infinity,
        (count('BYWEEKNO') ?? Infinity) * 7,
        (count('BYMONTHDAY') ?? Infinity) * (months ?? 12),
        // With BYMONTH an ordinal (1MO) picks a day in each of those months, else one in the year.
        byday === null ? Infinity : weekdays * 53 + ordinals * (months ?? 1),
      ];
      return Math.min(...bounds);
    }
  }
}

function expansionProblem(parts: Map<string, string>): string | null {
  const seconds = parts.get('BYSECOND')?.split(',') ?? [];
  if (seconds.length > 1) {
    return `schedule: RRULE BYSECOND takes one value, got ${seconds.length}: occurrences less than a minute apart are not a schedule to keep; use BYMINUTE`;
  }
  const count = parts.get('COUNT');
  if (count !== undefined && Number(count) > MAX_COUNT) return `schedule: RRULE COUNT must be at most ${MAX_COUNT}, got ${count}`;
  const occurrences = occurrencesPerPeriod(parts);
  if (occurrences <= MAX_OCCURRENCES_PER_PERIOD) return null;
  const period = PERIOD_NAMES[parts.get('FREQ')?.toUpperCase() ?? ''] ?? 'period';
  return `schedule: RRULE has up to ${occurrences} occurrences a ${period} (its days times BYHOUR, BYMINUTE and BYSECOND values); at most ${MAX_OCCURRENCES_PER_PERIOD}: use fewer values, a finer FREQ, or a cron expression for frequent times`;
}

function freqProblem(parts: Map<string, string>): string | null {
  const freq = parts.get('FREQ')?.toUpperCase();
  if (freq === undefined) return 'schedule: RRULE needs a FREQ (YEARLY, MONTHLY, WEEKLY or DAILY)';
  if (FINER.includes(freq)) return `schedule: RRULE FREQ=${freq} is finer than daily; use a cron expression for that`;
  if (!(FREQUENCIES as readonly string[]).includes(freq)) return `schedule: RRULE FREQ must be YEARLY, MONTHLY, WEEKLY or DAILY, got ${freq}`;
  const wkst = parts.get('WKST');
  if (wkst !== undefined && !WEEKDAYS.includes(wkst.toUpperCase())) return `schedule: RRULE WKST must be one of ${WEEKDAYS.join(', ')}, got ${wkst}`;
  return null;
}

function countProblem(parts: Map<string, string>): string | null {
  for (const name of ['INTERVAL', 'COUNT']) {
    const value = parts.get(name);
    if (value === undefined) continue;
    if (!/^[+-]?\d+$/.test(value)) return `schedule: RRULE ${name} must be a whole number, got ${value}`;
    if (Number(value) < 1) return `schedule: RRULE ${name} must be at least 1, got ${value}`;
  }
  const until = parts.get('UNTIL');
  if (until !== undefined) {
    if (parts.has('COUNT')) return 'schedule: RRULE takes COUNT or UNTIL, not both';
    if (!isUntil(until)) return `schedule: RRULE UNTIL must be a date such as 20271231 or a UTC time such as 20271231T235959Z, got ${until}`;
  }
  return null;
}

function isUntil(value: string): boolean {
  const match = /^(\d{4})(\d\d)(\d\d)(?:T(\d\d)(\d\d)(\d\d)Z?)?$/i.exec(value);
  if (!match) return false;
  const [year, month, day, hour = 0, minute = 0, second = 0] = match.slice(1).map((part) => (part === undefined ? undefined : Number(part)));
  const date = new Date(Date.UTC(year!, month! - 1, day, hour, minute, second));
  // Date.UTC rolls 20270231 over into March: a date that reads back differently does not exist.
  return date.getUTCMonth() === month! - 1 && date.getUTCDate() === day && date.getUTCHours() === hour && date.getUTCMinutes() === minute && date.getUTCSeconds() === second;
}

function listProblem(parts: Map<string, string>): string | null {
  for (const [name, range] of Object.entries(NUMBER_LISTS)) {
    const list = parts.get(name);
    if (list === undefined) continue;
    const expected = range.fromEnd ? `${range.min} to ${range.max} or -${range.max} to -${range.min}` : `${range.min} to ${range.max}`;
    for (const value of list.split(',')) {
      const shaped = range.fromEnd ? /^[+-]?\d{1,3}$/.test(value) : /^\d{1,2}$/.test(value);
      const size = Math.abs(Number(value));
      if (!shaped || size < range.min || size > range.max) {
        return `schedule: RRULE ${name} values must be ${expected}, got ${value === '' ? 'an empty value' : value}`;
      }
    }
  }
  const byday = parts.get('BYDAY');
  if (byday !== undefined) {
    for (const value of byday.split(',')) {
      const match = /^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/i.exec(value);
      if (!match) return `schedule: RRULE BYDAY values must be weekdays such as MO, 1MO (the first Monday) or -1FR (the last Friday), got ${value === '' ? 'an empty value' : value}`;
      if (match[1] === undefined) continue;
      const freq = parts.get('FREQ')?.toUpperCase();
      if (freq !== 'MONTHLY' && freq !== 'YEARLY') return `schedule: RRULE BYDAY ordinals such as ${value} need FREQ=MONTHLY or FREQ=YEARLY`;
      const most = freq === 'MONTHLY' ? 5 : 53;
      const nth = Math.abs(Number(match[1]));
      if (nth < 1 || nth > most) return `schedule: RRULE BYDAY ordinals must be 1 to ${most} or -${most} to -1 with FREQ=${freq}, got ${value}`;
    }
  }
  return null;
}

/** RFC 5545's rules on which parts go with which FREQ. */
function combinationProblem(parts: Map<string, string>): string | null {
  const freq = parts.get('FREQ')?.toUpperCase();
  if (parts.has('BYWEEKNO') && freq !== 'YEARLY') return 'schedule: RRULE BYWEEKNO is only allowed with FREQ=YEARLY';
  if (parts.has('BYYEARDAY') && freq !== 'YEARLY') return 'schedule: RRULE BYYEARDAY is only allowed with FREQ=YEARLY';
  if (parts.has('BYMONTHDAY') && freq === 'WEEKLY') return 'schedule: RRULE BYMONTHDAY is not allowed with FREQ=WEEKLY';
  if (parts.has('BYWEEKNO') && /\d/.test(parts.get('BYDAY') ?? '')) return 'schedule: RRULE BYDAY ordinals are not allowed with BYWEEKNO';
  const selects = [...parts.keys()].some((name) => name.startsWith('BY') && name !== 'BYSETPOS');
  if (parts.has('BYSETPOS') && !selects) return 'schedule: RRULE BYSETPOS picks from the set other BY… parts make, and this rule has none';
  return null;
}
