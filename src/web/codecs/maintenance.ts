import * as t from 'io-ts';
import { MAX_ONE_OFF_SECONDS, MAX_WINDOW_MONITORS, MAX_WINDOW_NAME, MIN_WINDOW_SECONDS } from '../../domain/maintenance/window.js';
import { withRefinementKeywords } from '../json-schema.js';
import { BodyOf, BoundedString, Integer, Uuid } from '../validation.js';
import { Label } from '../labels.js';
import { IsoDateTime } from './queries.js';

const MonitorIds = withRefinementKeywords(
  t.refinement(t.array(Uuid), (items) => items.length >= 1 && items.length <= MAX_WINDOW_MONITORS, `an array of 1 to ${MAX_WINDOW_MONITORS} monitor ids`),
  { minItems: 1, maxItems: MAX_WINDOW_MONITORS },
);

const Fields = {
  /** Left out (or null): every monitor of the project. */
  monitor_ids: t.union([MonitorIds, t.null]),
  starts_at: IsoDateTime('starts_at'),
  ends_at: IsoDateTime('ends_at'),
  /** One-off: how long from starts_at (instead of ends_at); recurring: how long each occurrence lasts. */
  duration_seconds: Integer(MIN_WINDOW_SECONDS, MAX_ONE_OFF_SECONDS),
  rrule: BoundedString(1, 500),
  timezone: BoundedString(1, 64),
};

export const CreateMaintenanceWindowBody = BodyOf({ name: Label(1, MAX_WINDOW_NAME) }, Fields);
export const UpdateMaintenanceWindowBody = BodyOf({}, { name: Label(1, MAX_WINDOW_NAME), ...Fields });
