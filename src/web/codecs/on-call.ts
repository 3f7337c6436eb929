import * as t from 'io-ts';
import { Label } from '../labels.js';
import { BodyOf, BoundedString, Checked, Uuid } from '../validation.js';
import { IsoDateTime } from './queries.js';

/** `daily`, `weekly`, or the length of a turn in days. */
export const Rotation = Checked<'daily' | 'weekly' | number>(
  'daily, weekly or a whole number of days from 1 to 90',
  (u) => (u === 'daily' || u === 'weekly' || (typeof u === 'number' && Number.isInteger(u) && u >= 1 && u <= 90)
    ? { ok: true, value: u }
    : { ok: false, message: 'rotation must be daily, weekly or a whole number of days from 1 to 90' }),
  { oneOf: [{ type: 'string', enum: ['daily', 'weekly'] }, { type: 'integer', minimum: 1, maximum: 90 }] },
);

const Participants = Checked<string[]>(
  'an array of at most 50 user ids, in rotation order',
  (u) => {
    if (!Array.isArray(u) || u.length > 50) return { ok: false, message: 'participants must be an array of at most 50 user ids, in rotation order' };
    const bad = u.findIndex((id) => !Uuid.is(id));
    if (bad >= 0) return { ok: false, message: `participants[${bad}] must be a user id (a UUID)` };
    return { ok: true, value: u.map((id: string) => id.toLowerCase()) };
  },
  { type: 'array', items: { type: 'string', format: 'uuid' }, maxItems: 50 },
);

const Override = t.type({ user_id: Uuid, from: IsoDateTime('from'), until: IsoDateTime('until') });

const Fields = {
  time_zone: BoundedString(1, 100),
  handoff_time: BoundedString(5, 5),
  rotation: Rotation,
  participants: Participants,
  starts_on: BoundedString(10, 10),
  overrides: t.array(Override),
};

export const CreateOnCallScheduleBody = BodyOf(
  { name: Label(1, 100), time_zone: Fields.time_zone, handoff_time: Fields.handoff_time, rotation: Rotation, participants: Participants, starts_on: Fields.starts_on },
  { project_id: Uuid, overrides: Fields.overrides },
);
export const UpdateOnCallScheduleBody = BodyOf({}, { name: Label(1, 100), ...Fields });
