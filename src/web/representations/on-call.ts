import type { OnCallScheduleDocument } from '../../../projections/on-call-schedules.js';
import { onCallNowAndNext } from '../../app/on-call.js';

/** `daily` and `weekly` as the API names them; any other length in days. */
export const rotationName = (days: number): 'daily' | 'weekly' | number => (days === 1 ? 'daily' : days === 7 ? 'weekly' : days);
export const rotationDays = (rotation: 'daily' | 'weekly' | number): number => (rotation === 'daily' ? 1 : rotation === 'weekly' ? 7 : rotation);

/** A schedule with who is on call at `now` and who is next (null when nobody is). */
export function onCallScheduleBody(doc: OnCallScheduleDocument, now: string) {
  const [current, next] = onCallNowAndNext(doc, now, 2);
  const shift = (s: typeof current) => (s ? { user_id: s.user_id, from: s.from, until: s.until, override: s.override } : null);
  return {
    id: doc.id, project_id: doc.project_id, name: doc.name, time_zone: doc.time_zone, handoff_time: doc.handoff_time, rotation: rotationName(doc.rotation_days),
    participants: doc.participants, starts_on: doc.starts_on, overrides: doc.overrides,
    on_call_now: shift(current), on_call_next: shift(next),
    created_at: doc.created_at, updated_at: doc.updated_at,
  };
}
