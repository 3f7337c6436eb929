import { type IncomingPing, type PingReceivedData, type UnheardObservation, pingStream } from '../domain/monitors/monitor.js';
import type { EventStore, RecordedEvent } from '../eventstore/event-store.js';
import { decodeEvent } from '../event-codecs/decode.js';
import type { Range, Scalar } from '../readstore/read-model-store.js';
import { type AuditEventDocument, actorOf } from '../../projections/audit-events.js';

/**
 * A ping as the ping history shows it. There is no read model of pings: a monitor's ping history
 * is its stream of pings in the log, `pings-<monitor>`, which retention already keeps to the newest
 * `retention_count` and deletion removes, read through the log's own (stream, revision) index. A
 * copy of each ping in a read model (a collection of its own, then the history's entries) had cost
 * a ping more pages written than the log itself: each copy needs its own per-monitor index, and
 * retention deletes an old entry there on every ping.
 *
 * Read from the log, the history holds a ping as soon as it is acknowledged: read-your-writes
 * without waiting for the projector.
 */
export interface PingRecord extends IncomingPing, Pick<PingReceivedData, 'monitor_id' | 'project_id' | 'duration_assertion' | 'started_at'> {
  /** The ping's revision in its stream: orders the history and names what retention drops. */
  seq: number;
  /** When it was received. */
  created_at: string;
  /** Where the log recorded it: orders it among the monitor's other events. */
  position: number;
}

/** A ping-history field a query may filter on (undefined: no condition), as on any read model's. */
export type PingFilter = { [field in 'event' | 'run_id' | 'exit_code' | 'duration_assertion' | 'created_at']?: Scalar | Range | undefined };

function pingOf(recorded: RecordedEvent, d: PingReceivedData): PingRecord {
  return {
    ping_id: d.ping_id,
    monitor_id: d.monitor_id,
    project_id: d.project_id,
    seq: recorded.revision,
    position: recorded.position,
    run_id: d.run_id,
    event: d.event,
    exit_code: d.exit_code,
    duration_ms: d.duration_ms,
    duration_assertion: d.duration_assertion,
    message: d.message,
    payload: d.payload,
    payload_truncated: d.payload_truncated,
    payload_bytes: d.payload_bytes,
    request_ip: d.request_ip,
    request_ua: d.request_ua,
    started_at: d.started_at,
    created_at: d.received_at,
  };
}

/** A ping as the log recorded it, and its data decoded. */
export interface RecordedPing {
  recorded: RecordedEvent;
  data: PingReceivedData;
}

/**
 * The monitor's pings the log keeps, newest first: at most its retention_count. Other events its
 * stream may hold are not pings. Each is decoded through its codec, as everywhere events leave the log.
 */
export async function recordedPings(events: EventStore, monitorId: string): Promise<RecordedPing[]> {
  const recorded = await events.readStream(pingStream(monitorId), { direction: 'backwards' });
  const pings: RecordedPing[] = [];
  for (const event of recorded) {
    if (event.type !== 'PingReceived') continue;
    const decoded = decodeEvent(event);
    if (decoded.type === 'PingReceived') pings.push({ recorded: event, data: decoded.data });
  }
  return pings;
}

/**
 * A ping as an entry of the history read model would hold it (it holds none: see
 * projections/audit-events.ts), for what shows pings among the monitor's other events.
 */
export function historyEntryOfPing({ recorded, data }: RecordedPing): AuditEventDocument {
  return {
    id: `${recorded.streamName}@${recorded.revision}`,
    event_id: recorded.id,
    position: recorded.position,
    stream: recorded.streamName,
    revision: recorded.revision,
    type: recorded.type,
    time: recorded.created,
    actor: actorOf(recorded.metadata),
    project_id: data.project_id,
    monitor_id: data.monitor_id,
    incident_id: null,
    data: data as unknown as Record<string, unknown>,
  };
}

/** The monitor's ping history: what the log keeps of its pings, newest first. */
export async function keptPings(events: EventStore, monitorId: string): Promise<PingRecord[]> {
  return (await recordedPings(events, monitorId)).map((ping) => pingOf(ping.recorded, ping.data));
}

/** Whether a value meets a condition as a read model's filter means it (see read-model-store.ts). */
function meets(value: Scalar, condition: Scalar | Range): boolean {
  if (condition === null || typeof condition !== 'object') return value === condition;
  if (condition.$in !== undefined && !condition.$in.includes(value)) return false;
  if (condition.$ne !== undefined && value === condition.$ne) return false;
  if (value === null || typeof value === 'boolean') return condition.$gt === undefined && condition.$gte === undefined && condition.$lt === undefined && condition.$lte === undefined;
  if (condition.$gt !== undefined && !(value > condition.$gt)) return false;
  if (condition.$gte !== undefined && !(value >= condition.$gte)) return false;
  if (condition.$lt !== undefined && !(value < condition.$lt)) return false;
  if (condition.$lte !== undefined && !(value <= condition.$lte)) return false;
  return true;
}

export function pingMatches(ping: PingRecord, filter: PingFilter): boolean {
  for (const field of ['event', 'run_id', 'exit_code', 'duration_assertion', 'created_at'] as const) {
    const condition = filter[field];
    if (condition !== undefined && !meets(ping[field], condition)) return false;
  }
  return true;
}

/** A page of a monitor's ping history, newest first, and how many pings match in all. */
export async function pingPage(events: EventStore, monitorId: string, filter: PingFilter, page: { page: number; limit: number }) {
  const matching = (await keptPings(events, monitorId)).filter((ping) => pingMatches(ping, filter));
  const from = (page.page - 1) * page.limit;
  return { pings: matching.slice(from, from + page.limit), total: matching.length };
}

export async function getPing(events: EventStore, monitorId: string, pingId: string): Promise<PingRecord | null> {
  return (await keptPings(events, monitorId)).find((ping) => ping.ping_id === pingId) ?? null;
}

/** The newest pings since a time, newest first. */
export async function recentPings(events: EventStore, monitorId: string, since: string, limit: number): Promise<PingRecord[]> {
  return (await keptPings(events, monitorId)).filter((ping) => ping.created_at >= since).slice(0, limit);
}

/**
 * The monitor's newest observations of what Vigil could not hear (slots and runs during an outage
 * of its own), newest first, from its pings stream: why no incident opened for them.
 */
export async function recentUnheard(events: EventStore, monitorId: string, limit: number): Promise<UnheardObservation[]> {
  const unheard: UnheardObservation[] = [];
  for (const event of await events.readStream(pingStream(monitorId), { direction: 'backwards' })) {
    if (event.type !== 'CheckInUnheard' && event.type !== 'RunUnheard') continue;
    const decoded = decodeEvent(event);
    if (decoded.type === 'CheckInUnheard' || decoded.type === 'RunUnheard') unheard.push(decoded);
    if (unheard.length >= limit) break;
  }
  return unheard;
}
