import type { PingRecord } from '../../queries/pings.js';

/** How much of a payload the history list shows; the full one is a request away. */
export const PAYLOAD_PREVIEW_CHARS = 256;

/** Exactly the 14 keys clients expect, no others. */
export function pingBody(doc: PingRecord, options: { fullPayload: boolean } = { fullPayload: false }) {
  return {
    id: doc.ping_id,
    run_id: doc.run_id,
    event: doc.event,
    exit_code: doc.exit_code,
    duration_ms: doc.duration_ms,
    duration_assertion: doc.duration_assertion,
    message: doc.message,
    payload: doc.payload === null || options.fullPayload ? doc.payload : doc.payload.slice(0, PAYLOAD_PREVIEW_CHARS),
    payload_truncated: doc.payload_truncated,
    payload_bytes: doc.payload_bytes,
    request_ip: doc.request_ip,
    request_ua: doc.request_ua,
    started_at: doc.started_at,
    created_at: doc.created_at,
  };
}
