import type { MaintenanceWindowDocument } from '../../../projections/maintenance-windows.js';
import { isOver, nextStartAfter, occurrenceAt } from '../../domain/maintenance/window.js';
import { windowOf } from '../../queries/maintenance.js';
import { withoutMilliseconds } from './timestamps.js';

const time = (iso: string | null) => (iso === null ? null : withoutMilliseconds(iso));

/** A window as the API shows it, with what it does at `now`. */
export function maintenanceWindowBody(doc: MaintenanceWindowDocument, now: string) {
  const window = windowOf(doc);
  const current = occurrenceAt(window, now);
  return {
    id: doc.id,
    project_id: doc.project_id,
    name: doc.name,
    kind: doc.rrule === null ? ('one_off' as const) : ('recurring' as const),
    /** Null: every monitor of the project. */
    monitor_ids: doc.monitor_ids,
    starts_at: time(doc.starts_at),
    ends_at: time(doc.ends_at),
    rrule: doc.rrule,
    timezone: doc.timezone,
    duration_seconds: doc.duration_seconds,
    status: current ? ('active' as const) : isOver(window, now) ? ('over' as const) : ('upcoming' as const),
    active_now: current !== null,
    /** The end of the occurrence under way, when one is. */
    current_ends_at: time(current?.ends_at ?? null),
    next_starts_at: time(nextStartAfter(window, now)),
    ended_at: time(doc.ended_at),
    scheduled_at: withoutMilliseconds(doc.scheduled_at),
    updated_at: withoutMilliseconds(doc.updated_at),
  };
}
