import { ALL_EVENT_TYPES } from '../src/domain/events.js';
import { shownUptime } from '../src/domain/monitors/monitor-config.js';
import type { ProjectedEvent, Projection, Target } from '../src/projector/projection.js';
import { SECRET_FIELDS, withoutSecrets } from '../src/audit/secret-fields.js';

export interface AuditEventDocument {
  id: string;
  event_id: string;
  position: number;
  stream: string;
  revision: number;
  type: string;
  time: string;
  actor: { kind: string; user_id: string | null; api_key_id: string | null };
  project_id: string | null;
  monitor_id: string | null;
  incident_id: string | null;
  data: Record<string, unknown>;
}

/** Fields that hold secrets or their stand-ins; the history shows that they changed, not what to. */
const REDACTED = ['config_sealed', 'key_hash', 'ping_key', 'badge_key', ...SECRET_FIELDS];

/**
 * Most events carry no secret: their data goes into the entry as it is (nothing changes it after),
 * which spares a copy of every event's data during a rebuild. A monitor's settings show its
 * header values masked, as the API does: sealed, or recorded as sent before they were sealed.
 */
function redact(event: ProjectedEvent): Record<string, unknown> {
  // `?.`: the history takes whatever the log holds, and never fails on it.
  if ((event.type === 'MonitorCreated' || event.type === 'MonitorUpdated') && event.data.config?.uptime) {
    return { ...event.data, config: { ...event.data.config, uptime: shownUptime(event.data.config.uptime) } };
  }
  return withoutSecrets(event.data as unknown as Record<string, unknown>, REDACTED);
}

const docId = (stream: string, revision: number) => `${stream}@${revision}`;

const text = (value: unknown) => (typeof value === 'string' ? value : null);

/**
 * Observations leave the log with retention (the pings stream's max count): pings, check results,
 * missed slots and overdue runs; the entries of those that have one follow (pings have none), so a
 * rebuild matches. Each carries the
 * retention_count it was recorded under. Not those recorded in the monitor's own stream before they
 * were kept with the pings (a check's `check_number` or a deadline's `counters` null): that stream
 * is never truncated, and the entry `retention_count` back in it is any event of the monitor.
 * Hourly check summaries leave theirs the same way, each carrying its stream's window
 * (`summaries_kept`; null on those in the monitor's own stream).
 */
function retentionOf(event: ProjectedEvent): number | null {
  switch (event.type) {
    case 'PingReceived':
      return event.data.retention_count;
    case 'CheckCompleted':
      return event.data.check_number === null ? null : event.data.retention_count;
    case 'CheckInMissed':
    case 'RunOverdue':
      return event.data.counters?.retention_count ?? null;
    case 'ChecksSummarized':
      return event.data.summaries_kept;
    case 'CheckInUnheard':
    case 'RunUnheard':
      return event.data.counters.retention_count;
    default:
      return null;
  }
}

/**
 * The entries retention has dropped by the time this observation is kept: every one `retention`
 * or more back in its stream, not only the one just before the window. Observations appended
 * together (missed slots caught up after a stop, more of them than the window holds) leave the
 * log before the projector reads them, and with them the drops they would have asked for.
 */
function droppedObservations(event: ProjectedEvent): Target {
  const retention = retentionOf(event);
  if (retention === null || event.revision < retention) return {};
  return { where: { stream: event.streamName, revision: { $lte: event.revision - retention } } };
}

/** Who recorded an event, as its metadata says: the history shows it beside each event. */
export function actorOf(metadata: Record<string, unknown>): AuditEventDocument['actor'] {
  return { kind: text(metadata['kind']) ?? 'system', user_id: text(metadata['user_id']), api_key_id: text(metadata['api_key_id']) };
}

/**
 * Every recorded event but the pings, as the history API shows it: type, time, actor and data with
 * secrets redacted. A monitor's pings are read from their stream in the log instead, which
 * retention keeps to its window (src/queries/pings.ts): an entry here for each would cost a ping
 * more pages written than its append to the log (a per-monitor key and index entry, and retention
 * deleting the one 200 pings back), for a copy of what the log's (stream, revision) index finds.
 * Events that leave the log with a deleted monitor's streams leave the history too; the project
 * keeps `ProjectMonitorRemoved`.
 */
export const auditEventsProjection: Projection<AuditEventDocument> = {
  name: 'audit_events',
  version: 5,
  collection: {
    name: 'audit_events',
    // Most entries have no incident, and a project's or a user's none of a monitor: they take no room in those two.
    // (stream, revision): what retention drops is found by range, however many entries it is.
    indexes: [
      { fields: ['project_id', 'position'] },
      { fields: ['monitor_id', 'position'], sparse: true },
      { fields: ['incident_id', 'position'], sparse: true },
      { fields: ['stream', 'revision'] },
    ],
  },
  // Pings only for what retention drops with them (other observations kept with the pings). Not
  // the Ping API's confirmations that it is listening: one every few seconds, of which the log
  // keeps only the last; the outages they reveal are recorded, and have entries. Nor a key's
  // uses: the log keeps each key's last, and the key's document says when that was.
  handles: ALL_EVENT_TYPES.filter((type) => type !== 'ListeningConfirmed' && type !== 'ApiKeyUsed'),
  // An entry records one event and is only deleted after: no need to read it before writing.
  fromEventAlone: true,
  targets(event): Target {
    // Every event in a monitor's streams carries its monitor_id: filtering on it too lets the store
    // search that index instead of reading every entry there is.
    if (event.type === 'MonitorDeleted') {
      // The monitor's own streams leave the log; the pages about its incidents stay, in theirs.
      const monitor_id = event.data.monitor_id;
      return { where: { monitor_id, stream: { $in: [`monitor-${monitor_id}`, `pings-${monitor_id}`, `checkhours-${monitor_id}`] } } };
    }
    // A ping has no entry of its own; the observation retention drops as it is kept goes.
    if (event.type === 'PingReceived') return droppedObservations(event);
    const own = [docId(event.streamName, event.revision)];
    if (event.type === 'MonitorUpdated' && event.data.last_ping_seq !== null) {
      const monitor_id = event.data.monitor_id;
      const keptFrom = event.data.last_ping_seq - event.data.config.retention_count;
      return { ids: own, where: { monitor_id, stream: `pings-${monitor_id}`, revision: { $lte: keptFrom } } };
    }
    return { ids: own, ...droppedObservations(event) };
  },
  apply(_doc, event, id) {
    if (event.type === 'MonitorDeleted' || event.type === 'PingReceived' || id !== docId(event.streamName, event.revision)) return null;
    const data = event.data as unknown as Record<string, unknown>;
    return {
      id,
      event_id: event.id,
      position: event.position,
      stream: event.streamName,
      revision: event.revision,
      type: event.type,
      time: event.created,
      actor: actorOf(event.metadata),
      project_id: text(data['project_id']),
      monitor_id: text(data['monitor_id']),
      incident_id: text(data['incident_id']),
      data: redact(event),
    };
  },
};
