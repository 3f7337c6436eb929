import type { AuditEventDocument } from '../../projections/audit-events.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';

/** One check of an uptime monitor, as its log on the monitor page shows it. */
export interface CheckLogEntry {
  checkedAt: string;
  isUp: boolean;
  statusCode: number | null;
  responseTimeMs: number;
  error: string | null;
}

const numberOrNull = (value: unknown) => (typeof value === 'number' ? value : null);

/**
 * The monitor's newest checks, newest first, from its history (the read model
 * `GET /v1/monitors/<id>/events?type=CheckCompleted` lists): as many as retention keeps.
 */
export async function recentChecks(readModels: ReadModelStore, monitorId: string, limit: number): Promise<CheckLogEntry[]> {
  const found = await readModels.find<AuditEventDocument>('audit_events', { monitor_id: monitorId, type: 'CheckCompleted' }, { sort: [['position', -1]], limit });
  return found.map(({ doc }) => ({
    checkedAt: typeof doc.data['checked_at'] === 'string' ? doc.data['checked_at'] : doc.time,
    isUp: doc.data['is_up'] === true,
    statusCode: numberOrNull(doc.data['status_code']),
    responseTimeMs: numberOrNull(doc.data['response_time_ms']) ?? 0,
    error: typeof doc.data['error'] === 'string' ? doc.data['error'] : null,
  }));
}
