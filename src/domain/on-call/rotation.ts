import { instantOfWallTime, isTimeZone, wallTimeAsUtcMs } from '../monitors/schedule.js';

/** Someone standing in for the rotation from `from` until `until` (ISO-8601 UTC, end not included). */
export interface OnCallOverride {
  user_id: string;
  from: string;
  until: string;
}

/**
 * A rotation of project members: from `starts_on` at `handoff_time` (wall time in `time_zone`),
 * each participant in turn is on call for `rotation_days` days, the hand-off always at the same
 * wall time (09:00 stays 09:00 across a clock change). Overrides win over the rotation.
 */
export interface OnCallRotation {
  time_zone: string;
  handoff_time: string;
  rotation_days: number;
  participants: string[];
  starts_on: string;
  overrides: OnCallOverride[];
}

export interface OnCallShift {
  user_id: string;
  from: string;
  until: string;
  /** Whether an override put them there rather than the rotation. */
  override: boolean;
}

const DAY_MS = 86_400_000;
const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The wall time (as UTC ms) of the k-th hand-off: starts_on plus k rotations, at the hand-off time. */
function handoffWall(rotation: OnCallRotation, k: number): number {
  const [, y, m, d] = DATE.exec(rotation.starts_on) ?? [];
  const [, hh, mm] = HH_MM.exec(rotation.handoff_time) ?? [];
  return Date.UTC(Number(y), Number(m) - 1, Number(d) + k * rotation.rotation_days, Number(hh), Number(mm));
}

const handoffAt = (rotation: OnCallRotation, k: number) => instantOfWallTime(handoffWall(rotation, k), rotation.time_zone);

/** The rotation's own shift holding `atMs`: who, and from which hand-off to the next; null before it starts or without participants. */
function rotationShift(rotation: OnCallRotation, atMs: number): { user_id: string; from: number; until: number } | null {
  if (rotation.participants.length === 0 || rotation.rotation_days < 1) return null;
  const wall = wallTimeAsUtcMs(new Date(atMs), rotation.time_zone);
  let k = Math.floor((wall - handoffWall(rotation, 0)) / (rotation.rotation_days * DAY_MS));
  // The wall-time estimate is off by one around a clock change: settle on the instants themselves.
  while (k > 0 && handoffAt(rotation, k) > atMs) k -= 1;
  while (handoffAt(rotation, k + 1) <= atMs) k += 1;
  if (k < 0 || handoffAt(rotation, k) > atMs) return null;
  return { user_id: rotation.participants[k % rotation.participants.length]!, from: handoffAt(rotation, k), until: handoffAt(rotation, k + 1) };
}

/**
 * Who is on call at `at`, from when until when; null when nobody is (before the rotation starts,
 * or with no participants and no override). An override holding `at` wins (the one listed last, if
 * several do); a rotation shift is cut short where an override starts and begins where one ends.
 */
export function onCallAt(rotation: OnCallRotation, at: string): OnCallShift | null {
  if (!isTimeZone(rotation.time_zone)) return null;
  const atMs = Date.parse(at);
  const overrides = rotation.overrides.map((o) => ({ user_id: o.user_id, from: Date.parse(o.from), until: Date.parse(o.until) })).filter((o) => o.from < o.until);
  const standing = overrides.filter((o) => o.from <= atMs && atMs < o.until).at(-1);
  if (standing) return { user_id: standing.user_id, from: new Date(standing.from).toISOString(), until: new Date(standing.until).toISOString(), override: true };
  const shift = rotationShift(rotation, atMs);
  if (!shift) return null;
  const from = Math.max(shift.from, ...overrides.filter((o) => o.until <= atMs).map((o) => o.until));
  const until = Math.min(shift.until, ...overrides.filter((o) => o.from > atMs).map((o) => o.from));
  return { user_id: shift.user_id, from: new Date(from).toISOString(), until: new Date(until).toISOString(), override: false };
}

/** Who is on call now and the shifts after, `count` in all (fewer when nobody is on call in between). */
export function onCallShifts(rotation: OnCallRotation, at: string, count: number): OnCallShift[] {
  const shifts: OnCallShift[] = [];
  let cursor = at;
  for (let i = 0; i < count; i += 1) {
    const shift = onCallAt(rotation, cursor);
    if (!shift) break;
    shifts.push(shift);
    cursor = shift.until;
  }
  return shifts;
}

/** What is wrong with a rotation's settings, naming the field; null when nothing is. Membership is the caller's to check. */
export function rotationProblem(rotation: OnCallRotation): string | null {
  if (!isTimeZone(rotation.time_zone)) return 'time_zone: not a time zone this server knows (an IANA name such as Europe/Berlin)';
  if (!HH_MM.test(rotation.handoff_time)) return 'handoff_time: a time of day as HH:MM, 00:00 to 23:59';
  if (!Number.isInteger(rotation.rotation_days) || rotation.rotation_days < 1 || rotation.rotation_days > 90) return 'rotation: daily, weekly or a whole number of days from 1 to 90';
  const date = DATE.exec(rotation.starts_on);
  if (!date || new Date(Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3]))).toISOString().slice(0, 10) !== rotation.starts_on) return 'starts_on: a date as YYYY-MM-DD';
  if (rotation.participants.length > 50) return 'participants: at most 50 people';
  const twice = rotation.participants.findIndex((id, i) => rotation.participants.indexOf(id) !== i);
  if (twice >= 0) return `participants[${twice}]: listed twice`;
  if (rotation.overrides.length > 100) return 'overrides: at most 100';
  for (const [i, o] of rotation.overrides.entries()) {
    if (Number.isNaN(Date.parse(o.from))) return `overrides[${i}].from: a time as ISO-8601`;
    if (Number.isNaN(Date.parse(o.until))) return `overrides[${i}].until: a time as ISO-8601`;
    if (Date.parse(o.until) <= Date.parse(o.from)) return `overrides[${i}].until: must be after from`;
  }
  return null;
}
