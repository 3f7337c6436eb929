import * as t from 'io-ts';
import { described } from '../../web/json-schema.js';

const Id = described(t.string, { type: 'string', format: 'uuid' });
const Time = described(t.string, { type: 'string', format: 'date-time' });
const Shift = t.union([t.type({ user_id: Id, from: Time, until: Time, override: t.boolean }), t.null]);

/** An on-call schedule as the API answers it, with who is on call now and next. */
export const OnCallSchedule = t.type({
  id: Id,
  project_id: Id,
  name: t.string,
  time_zone: t.string,
  handoff_time: t.string,
  rotation: t.union([t.string, t.number]),
  participants: t.array(Id),
  starts_on: t.string,
  overrides: t.array(t.type({ user_id: Id, from: Time, until: Time })),
  on_call_now: Shift,
  on_call_next: Shift,
  created_at: Time,
  updated_at: Time,
});
