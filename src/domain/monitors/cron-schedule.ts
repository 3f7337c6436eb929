import { Cron } from 'croner';
import { impossibleMonthDays } from './month-days.js';
import { HORIZON_MS, HORIZON_YEARS } from './schedule-horizon.js';

const CRON_MACROS = ['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@hourly'] as const;

/** A standard five-field expression or a macro; croner evaluates it in the monitor's zone. */
export function cronFor(schedule: string, timezone: string): Cron | null {
  const trimmed = schedule.trim();
  const isMacro = (CRON_MACROS as readonly string[]).includes(trimmed.toLowerCase());
  if (!isMacro && trimmed.split(/\s+/).length !== 5) return null;
  try {
    return new Cron(isMacro ? trimmed.toLowerCase() : trimmed, { timezone, paused: true });
  } catch {
    return null;
  }
}

/** What a JOB_CRON schedule may be, as a problem with one says. */
export const CRON_FORMAT =
  'schedule must be a five-field cron expression (such as "0 3 * * *"), a macro such as @hourly, or an RRULE:… of daily or coarser frequency for JOB_CRON monitors';

/** Why a cron expression or macro is no JOB_CRON schedule (see scheduleProblem), or null when it is one. */
export function cronScheduleProblem(schedule: string, zone: string, now: Date): string | null {
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

function reasonInBrackets(monthDays: { days: number[]; months: number[] } | null): string {
  const reason = monthDays ? impossibleMonthDays(monthDays) : null;
  return ` (${reason ?? 'no date matches it'})`;
}
