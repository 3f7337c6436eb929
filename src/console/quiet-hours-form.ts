import type { QuietHours } from '../domain/notifications/quiet-hours.js';
import { formList } from './forms.js';

export const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;


/**
 * Quiet hours as the channel form gives them, for the API's codec to judge: null when "Hold pages
 * during quiet hours" is not ticked. Days are numbers when they are (the codec names any that is not).
 */
export function quietHoursFromForm(form: Record<string, unknown>): unknown {
  if (form['quiet_enabled'] === undefined) return null;
  return {
    days: formList(form['quiet_day']).map((day) => (/^\d$/.test(day) ? Number(day) : day)),
    start: String(form['quiet_start'] ?? '').trim(),
    end: String(form['quiet_end'] ?? '').trim(),
    time_zone: String(form['quiet_time_zone'] ?? '').trim(),
  };
}

/** Stored quiet hours as the form shows them (`quiet_days`: the ticked days, comma separated). */
export function quietHoursValues(quiet: QuietHours | null): Record<string, string> {
  if (!quiet) return {};
  return { quiet_enabled: 'true', quiet_days: quiet.days.join(','), quiet_start: quiet.start, quiet_end: quiet.end, quiet_time_zone: quiet.time_zone };
}

/** A refused form's ticked days, kept as typed. */
export const typedQuietDays = (form: Record<string, unknown>): string => formList(form['quiet_day']).join(',');

/** The form field a `quiet_hours.<field>` message names, as the page's ids have it. */
export function quietHoursField(message: string): string | null {
  const field = /^quiet_hours(?:\.(days|start|end|time_zone))?/.exec(message);
  if (!field) return null;
  return `quiet-hours-${(field[1] ?? 'on').replace('_', '-')}`;
}

/** "quiet_hours.start: a time ..." in the form's words. */
export const quietHoursWords = (message: string): string =>
  message.replace(/^quiet_hours\.days(\[\d+\])?/, 'Quiet hours days').replace(/^quiet_hours\.start/, 'Quiet hours from').replace(/^quiet_hours\.end/, 'Quiet hours until')
    .replace(/^quiet_hours\.time_zone/, 'Quiet hours time zone').replace(/^quiet_hours/, 'Quiet hours');
