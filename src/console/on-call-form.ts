import { instantOfWallTime, isTimeZone, wallTimeAsUtcMs } from '../domain/monitors/schedule.js';
import type { OnCallOverride } from '../domain/on-call/rotation.js';
import { formList, formText } from './forms.js';

/** How many override rows the form offers: those stored plus this many empty ones. */
export const NEW_OVERRIDE_ROWS = 2;

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** A `datetime-local` value read in the schedule's zone, as ISO-8601 UTC; what was typed when it is not one (the codec names it). */
export function instantOfLocal(local: string, timeZone: string): string {
  const m = LOCAL.exec(local.trim());
  if (!m || !isTimeZone(timeZone)) return local;
  return new Date(instantOfWallTime(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5])), timeZone)).toISOString();
}

/** An instant as a `datetime-local` value in the schedule's zone. */
export function localOfInstant(iso: string, timeZone: string): string {
  const zone = isTimeZone(timeZone) ? timeZone : 'UTC';
  return new Date(wallTimeAsUtcMs(new Date(iso), zone)).toISOString().slice(0, 16);
}

/** The ticked members in the order their "order" numbers give (ties, and blanks last, in the list's order). */
function orderedParticipants(form: Record<string, unknown>): string[] {
  const orderOf = (id: string) => {
    const typed = formText(form[`order_${id}`]).trim();
    return typed !== '' && Number.isFinite(Number(typed)) ? Number(typed) : Number.MAX_SAFE_INTEGER;
  };
  return formList(form['participant']).map((id, i) => ({ id, order: orderOf(id), i })).sort((a, b) => a.order - b.order || a.i - b.i).map((p) => p.id);
}

/**
 * The schedule form as the API's body: participants are the ticked members in the order their
 * "order" numbers give (ties in the list's order); an override row counts once a person is chosen
 * in it, its times read in the schedule's zone.
 */
export function scheduleBodyFromForm(form: Record<string, unknown>): Record<string, unknown> {
  const timeZone = formText(form['time_zone']).trim();
  const participants = orderedParticipants(form);
  const users = formList(form['override_user']);
  const froms = formList(form['override_from']);
  const untils = formList(form['override_until']);
  const overrides = users.flatMap((user, i) => (user === '' ? [] : [{ user_id: user, from: instantOfLocal(froms[i] ?? '', timeZone), until: instantOfLocal(untils[i] ?? '', timeZone) }]));
  const days = formText(form['rotation_days']).trim();
  return {
    name: formText(form['name']).trim(),
    time_zone: timeZone,
    handoff_time: formText(form['handoff_time']).trim(),
    rotation: /^\d{1,3}$/.test(days) ? Number(days) : days,
    starts_on: formText(form['starts_on']).trim(),
    participants,
    overrides,
  };
}

/** What the form shows: a stored schedule's settings, or what was typed. */
export interface ScheduleFormValues {
  name: string;
  time_zone: string;
  handoff_time: string;
  rotation_days: string;
  starts_on: string;
  /** Ticked members, and the order number each shows. */
  participants: string[];
  overrides: { user_id: string; from: string; until: string }[];
}

export function formValuesOf(schedule: { name: string; time_zone: string; handoff_time: string; rotation_days: number; starts_on: string; participants: string[]; overrides: OnCallOverride[] }): ScheduleFormValues {
  return {
    name: schedule.name, time_zone: schedule.time_zone, handoff_time: schedule.handoff_time, rotation_days: String(schedule.rotation_days), starts_on: schedule.starts_on,
    participants: schedule.participants,
    overrides: schedule.overrides.map((o) => ({ user_id: o.user_id, from: localOfInstant(o.from, schedule.time_zone), until: localOfInstant(o.until, schedule.time_zone) })),
  };
}

export function typedFormValues(form: Record<string, unknown>): ScheduleFormValues {
  const users = formList(form['override_user']);
  const froms = formList(form['override_from']);
  const untils = formList(form['override_until']);
  return {
    name: formText(form['name']), time_zone: formText(form['time_zone']), handoff_time: formText(form['handoff_time']), rotation_days: formText(form['rotation_days']), starts_on: formText(form['starts_on']),
    participants: orderedParticipants(form),
    overrides: users.map((user_id, i) => ({ user_id, from: froms[i] ?? '', until: untils[i] ?? '' })).filter((o) => o.user_id !== ''),
  };
}
