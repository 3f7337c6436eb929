import { type IncomingPing, type PingReceivedData, pingStream } from '../domain/monitors/monitor.js';
import { DOCUMENT_ID, type Filter, type Range, type ReadModelStore, type Scalar } from '../readstore/read-model-store.js';
import { type AuditEventDocument, entriesOfStream } from '../../projections/audit-events.js';
import { pagedFind } from './monitors.js';

/**
 * A ping as the ping history shows it. There is no read model of pings of its own: each ping is
 * read from its entry in the history (audit_events), which retention and deletion already keep in
 * step with the log. A second document per ping, kept in step the same way, had been a third of
 * the projector's writes on the ping path.
 */
export interface PingRecord extends IncomingPing, Pick<PingReceivedData, 'monitor_id' | 'project_id' | 'duration_assertion' | 'started_at'> {
  /** The ping's revision in its stream: orders the history and names what retention drops. */
  seq: number;
  /** When it was received. */
  created_at: string;
}

/** The ping-history fields a query may filter on, and where the history entry keeps each. */
const FIELD_IN_ENTRY = {
  event: 'data.event',
  run_id: 'data.run_id',
  exit_code: 'data.exit_code',
  duration_assertion: 'data.duration_assertion',
  created_at: 'data.received_at',
} as const;

type PingField = keyof typeof FIELD_IN_ENTRY;
const PING_FIELDS = Object.keys(FIELD_IN_ENTRY) as PingField[];

/** Conditions on a ping's fields, as on any read model's (undefined: no condition). */
export type PingFilter = { [field in PingField]?: Scalar | Range | undefined };

/** Newest first: within a monitor's stream of pings, the log's order is the arrival order. */
export const NEWEST_FIRST: [string, -1][] = [['position', -1]];

/** Where the history keeps a monitor's pings that meet the filter. */
export function pingEntries(monitorId: string, filter: PingFilter): Filter {
  // By the ids of its stream of pings (at most retention_count entries, check results included),
  // not by monitor_id: that would go through all the monitor's other events as well.
  const where: Record<string, Scalar | Range> = { [DOCUMENT_ID]: entriesOfStream(pingStream(monitorId)), type: 'PingReceived' };
  for (const field of PING_FIELDS) {
    const condition = filter[field];
    if (condition !== undefined) where[FIELD_IN_ENTRY[field]] = condition;
  }
  return where;
}

function pingOf(entry: AuditEventDocument): PingRecord {
  // The entry's data is the PingReceived event's, as the log holds it (nothing in it is redacted).
  const d = entry.data as unknown as PingReceivedData;
  return {
    ping_id: d.ping_id,
    monitor_id: d.monitor_id,
    project_id: d.project_id,
    seq: entry.revision,
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

/** A page of a monitor's ping history, newest first, and how many pings match in all. */
export async function pingPage(readModels: ReadModelStore, monitorId: string, filter: PingFilter, page: { page: number; limit: number }) {
  const { docs, total } = await pagedFind<AuditEventDocument>(readModels, 'audit_events', pingEntries(monitorId, filter), NEWEST_FIRST, page);
  return { pings: docs.map(pingOf), total };
}

export async function getPing(readModels: ReadModelStore, monitorId: string, pingId: string): Promise<PingRecord | null> {
  const [found] = await readModels.find<AuditEventDocument>('audit_events', { ...pingEntries(monitorId, {}), 'data.ping_id': pingId }, { limit: 1 });
  return found ? pingOf(found.doc) : null;
}

/** The newest pings since a time, newest first. */
export async function recentPings(readModels: ReadModelStore, monitorId: string, since: string, limit: number): Promise<PingRecord[]> {
  const found = await readModels.find<AuditEventDocument>('audit_events', pingEntries(monitorId, { created_at: { $gte: since } }), { sort: NEWEST_FIRST, limit });
  return found.map((s) => pingOf(s.doc));
}
