import * as t from 'io-ts';
import { described } from '../../web/json-schema.js';

/** What the maintenance window operations answer (see responses.ts for why these are codecs). */
const Id = described(t.string, { type: 'string', format: 'uuid' });
const Time = described(t.string, { type: 'string', format: 'date-time' });
const NullableTime = t.union([Time, t.null]);

export const MaintenanceWindow = t.type({
  id: Id,
  project_id: Id,
  name: t.string,
  kind: t.union([t.literal('one_off'), t.literal('recurring')]),
  monitor_ids: t.union([t.array(Id), t.null]),
  starts_at: NullableTime,
  ends_at: NullableTime,
  rrule: t.union([t.string, t.null]),
  timezone: t.union([t.string, t.null]),
  duration_seconds: t.union([t.number, t.null]),
  status: t.union([t.literal('upcoming'), t.literal('active'), t.literal('over')]),
  active_now: t.boolean,
  current_ends_at: NullableTime,
  next_starts_at: NullableTime,
  ended_at: NullableTime,
  scheduled_at: Time,
  updated_at: Time,
});
