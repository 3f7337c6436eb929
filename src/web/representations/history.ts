import type { AuditEventDocument } from '../../../projections/audit-events.js';

/** An entry of the event history, as the REST API lists it and the console's audit page shows it. */
export function eventBody(doc: AuditEventDocument) {
  return { id: doc.event_id, type: doc.type, time: doc.time, actor: doc.actor, stream: doc.stream, revision: doc.revision, data: doc.data };
}
