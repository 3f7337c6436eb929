import * as t from 'io-ts';
import { INCIDENT_KINDS } from '../domain/monitors/incidents.js';
import { NullableNumber, NullableString, nullable, oneOf } from './fields.js';

const Ids = { project_id: t.string, window_id: t.string };
const Settings = {
  name: t.string,
  monitor_ids: nullable(t.array(t.string)),
  starts_at: NullableString,
  ends_at: NullableString,
  rrule: NullableString,
  timezone: NullableString,
  duration_seconds: NullableNumber,
};
const MonitorIds = { monitor_id: t.string, project_id: t.string };

export const maintenanceEventCodecs = {
  MaintenanceWindowScheduled: t.type({ ...Ids, ...Settings, scheduled_at: t.string }),
  MaintenanceWindowUpdated: t.type({ ...Ids, ...Settings, updated_at: t.string }),
  MaintenanceWindowEnded: t.type({ ...Ids, name: t.string, ended_at: t.string, reason: oneOf(['ENDED', 'CANCELLED'], 'MaintenanceEndReason') }),
  IncidentSuppressed: t.type({
    ...MonitorIds,
    incident_id: t.string,
    event: oneOf(INCIDENT_KINDS, 'IncidentKind'),
    cause: t.string,
    at: t.string,
    monitor_name: t.string,
    monitor_slug: t.string,
    ping_id: NullableString,
    window_id: t.string,
    window_name: t.string,
    window_ends_at: t.string,
  }),
  SuppressedIncidentCleared: t.type({ ...MonitorIds, incident_id: t.string, event: oneOf(INCIDENT_KINDS, 'IncidentKind'), window_id: t.string, cleared_at: t.string, reason: t.string }),
  RepageHeld: t.type({ ...MonitorIds, incident_id: t.string, window_id: t.string, window_name: t.string, until: t.string, at: t.string }),
};
