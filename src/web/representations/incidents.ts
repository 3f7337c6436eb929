import type { IncidentDocument } from '../../../projections/incidents.js';

export function incidentBody(doc: IncidentDocument) {
  return {
    id: doc.id,
    monitor_id: doc.monitor_id,
    project_id: doc.project_id,
    monitor: doc.monitor,
    event: doc.event,
    cause: doc.cause,
    status: doc.status,
    started_at: doc.started_at,
    acknowledged_at: doc.acknowledged_at,
    acknowledged_by: doc.acknowledged_by,
    resolved_at: doc.resolved_at,
    resolved_by: doc.resolved_by,
    reopened_at: doc.reopened_at,
    // Absent from an incident archived before dependencies existed.
    caused_upstream: doc.caused_upstream ?? null,
  };
}
