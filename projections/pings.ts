import type { DurationAssertion, PingKind } from '../src/domain/monitors/pings.js';
import type { Projection, Target } from '../src/projector/projection.js';

export interface PingDocument {
  [key: string]: unknown;
  id: string;
  ping_id: string;
  monitor_id: string;
  project_id: string;
  /** The ping's revision in its stream: orders the history and names what retention drops. */
  seq: number;
  run_id: string | null;
  event: PingKind;
  exit_code: number | null;
  duration_ms: number | null;
  duration_assertion: DurationAssertion | null;
  message: string | null;
  payload: string | null;
  payload_truncated: boolean;
  payload_bytes: number | null;
  request_ip: string | null;
  request_ua: string | null;
  started_at: string | null;
  created_at: string;
}

const docId = (monitorId: string, seq: number) => `${monitorId}:${seq}`;

/**
 * The ping history. It keeps exactly what the event store keeps: each new ping drops the one
 * `retention_count` places behind it, as the stream's maxCount does in the log.
 */
export const pingsProjection: Projection<PingDocument> = {
  name: 'pings',
  version: 2,
  collection: {
    name: 'pings',
    // No index on (monitor_id, created_at): a monitor keeps at most 1,000 pings, so a date filter
    // reads them through (monitor_id, seq), and at a paced 1,200 pings/s that index was 7–9% of
    // the bytes written per ping (bench:pings --paced-rate 1200).
    indexes: [{ fields: ['monitor_id', 'seq'] }, { fields: ['ping_id'] }],
  },
  // Check results share the stream (and its maxCount) with pings, so they push old pings out too.
  handles: ['PingReceived', 'CheckCompleted', 'MonitorUpdated', 'MonitorDeleted'],
  targets(event): Target {
    switch (event.type) {
      case 'PingReceived':
      case 'CheckCompleted': {
        const dropped = event.revision - event.data.retention_count;
        const own = event.type === 'PingReceived' ? [docId(event.data.monitor_id, event.revision)] : [];
        return { ids: [...own, ...(dropped >= 0 ? [docId(event.data.monitor_id, dropped)] : [])] };
      }
      case 'MonitorUpdated': {
        const { last_ping_seq, config, monitor_id } = event.data;
        return last_ping_seq === null ? { ids: [] } : { where: { monitor_id, seq: { $lte: last_ping_seq - config.retention_count } } };
      }
      case 'MonitorDeleted':
        return { where: { monitor_id: event.data.monitor_id } };
      default:
        return { ids: [] };
    }
  },
  apply(doc, event, id) {
    if (event.type !== 'PingReceived') return null;
    const d = event.data;
    if (id !== docId(d.monitor_id, event.revision)) return null;
    return {
      id,
      ping_id: d.ping_id,
      monitor_id: d.monitor_id,
      project_id: d.project_id,
      seq: event.revision,
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
  },
};
