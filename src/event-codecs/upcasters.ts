import type { VigilEventType } from '../domain/events.js';
import type { JsonObject, JsonValue } from '../eventstore/event-store.js';

/** Turns the data of one version of an event type into the next version's; never edits its input. */
export type Upcaster = (data: JsonObject) => JsonObject;

const isObject = (value: JsonValue | undefined): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Version 1 of MonitorCreated and MonitorUpdated was recorded before uptime header values were
 * sealed (SecretBox): such a config has no `uptime_headers_sealed`, and its values are as sent.
 * Version 2 says so: `false`. Events are never edited; this is how an old one is read.
 */
const sealedFlagSaid: Upcaster = (data) => {
  const config = data['config'];
  if (!isObject(config)) return data;
  const uptime = config['uptime'];
  if (!isObject(uptime) || 'uptime_headers_sealed' in uptime) return data;
  return { ...data, config: { ...config, uptime: { ...uptime, uptime_headers_sealed: false } } };
};

/**
 * Version 1 of ProjectMonitorRemoved did not record the monitor's type and creation: once its
 * streams are gone nothing can say them, so version 2 reads them as unknown.
 */
const removedMonitorUnknown: Upcaster = (data) => ({ monitor_type: null, monitor_created_at: null, ...data });

/**
 * Version 1 of CheckCompleted was recorded in the monitor's own stream, never truncated, before
 * checks were numbered and summarized by the hour: `check_number: null` says so.
 */
const unnumberedCheck: Upcaster = (data) => ('check_number' in data ? data : { ...data, check_number: null });

/**
 * Version 1 of CheckInMissed and RunOverdue was recorded in the monitor's own stream, before
 * deadlines were kept with the pings and carried the ping-derived counters: `counters: null`.
 */
const countersNotCarried: Upcaster = (data) => ('counters' in data ? data : { ...data, counters: null });

/**
 * Version 1 of LogIntegrityChecked did not say which project's audit page a console check was run
 * from: `project_id: null`, so that no project's page shows it (a CLI check names none either).
 */
const projectNotSaid: Upcaster = (data) => ('project_id' in data ? data : { ...data, project_id: null });

/**
 * Version 1 of ChecksSummarized was recorded in the monitor's own stream, never truncated, before
 * summaries had a stream and a window of their own and named the hour before them: both null.
 */
const summaryKeptForGood: Upcaster = (data) => ('summaries_kept' in data ? data : { ...data, previous_hour: null, summaries_kept: null });

/**
 * Version 1 of IncidentAcknowledged and IncidentNoteAdded always named the API key the person
 * acted with; version 2 may name none (`api_key_id: null`: a person signed in to the console
 * without a key). A version 1 event is a version 2 event as it is.
 */
const keyAlwaysNamed: Upcaster = (data) => data;

/**
 * Version 1 of ChannelCreated and ChannelUpdated was recorded before channels had quiet hours
 * and before a channel could be a person's own: such a channel has neither.
 */
const channelOfTheProject: Upcaster = (data) => ({ quiet_hours: null, owner_user_id: null, ...data });

/** Keyed by event type, then by the version they read (they write the one after). */
export const UPCASTERS: Partial<Record<VigilEventType, Record<number, Upcaster>>> = {
  MonitorCreated: { 1: sealedFlagSaid },
  MonitorUpdated: { 1: sealedFlagSaid },
  ProjectMonitorRemoved: { 1: removedMonitorUnknown },
  CheckCompleted: { 1: unnumberedCheck },
  ChecksSummarized: { 1: summaryKeptForGood },
  CheckInMissed: { 1: countersNotCarried },
  RunOverdue: { 1: countersNotCarried },
  LogIntegrityChecked: { 1: projectNotSaid },
  IncidentAcknowledged: { 1: keyAlwaysNamed },
  IncidentNoteAdded: { 1: keyAlwaysNamed },
  ChannelCreated: { 1: channelOfTheProject },
  ChannelUpdated: { 1: channelOfTheProject },
};
