import type { EventStore, RecordedEvent } from '../eventstore/event-store.js';
import { monitorStream, pingStream } from '../domain/monitors/monitor.js';
import { INCIDENT_STATUSES, type IncidentStatus } from '../domain/monitors/incidents.js';
import { toProjectedEvent } from '../projector/projected-event.js';
import { type Filter, type FindOptions, type Range, type ReadModelStore, type Scalar, type StoredDocument, isRange } from '../readstore/read-model-store.js';
import type { IncidentDocument } from '../../projections/incidents.js';
import { type IncidentHistoryDocument, incidentAt, incidentHistoryProjection } from '../../projections/incident-history.js';
import { type MonitorDocument, monitorsProjection } from '../../projections/monitors.js';

/**
 * A project's incidents as they stood at `asOf`: `filter` as for today's (project_id, and any of
 * monitor_id, status, event), newest first, one page of them and how many there were.
 *
 * Read from the incident history (projections/incident-history.ts), whose versions are what a
 * replay of the log up to `asOf` makes of each incident: one indexed query for the page and one
 * for the count, whatever the length of the log, and none of today's incidents read model.
 */
export async function incidentsAsOf(
  readModels: ReadModelStore,
  filter: Filter,
  asOf: string,
  page: { page: number; limit: number },
): Promise<{ docs: IncidentDocument[]; total: number }> {
  const { status, ...rest } = filter;
  const existing = { ...rest, exists_from: { $lte: asOf }, exists_until: { $gt: asOf } };
  const filters = statusesAt(status, asOf).map((held) => ({ ...existing, ...held }));
  const collection = incidentHistoryProjection.collection.name;
  const sort: FindOptions['sort'] = [['started_at', -1]];
  const skip = (page.page - 1) * page.limit;
  const [found, counts] = await Promise.all([
    filters.length === 1
      ? readModels.find<IncidentHistoryDocument>(collection, filters[0], { sort, skip, limit: page.limit })
      : // Statuses held at that moment by disjoint sets of incidents: their pages merged as one.
        Promise.all(filters.map((f) => readModels.find<IncidentHistoryDocument>(collection, f, { sort, limit: skip + page.limit }))).then((pages) =>
          pages.flat().sort(newestFirst).slice(skip, skip + page.limit),
        ),
    Promise.all(filters.map((f) => readModels.count(collection, f))),
  ]);
  return { docs: found.map((stored) => incidentAt(stored.doc, asOf)!), total: counts.reduce((sum, n) => sum + n, 0) };
}

/** As the store orders `started_at` descending: then by id. */
function newestFirst(a: StoredDocument<IncidentHistoryDocument>, b: StoredDocument<IncidentHistoryDocument>): number {
  if (a.doc.started_at !== b.doc.started_at) return a.doc.started_at < b.doc.started_at ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The conditions, each a filter of its own, under which an incident held one of `statuses` at
 * `asOf`. A status is a stretch of time (OPEN until past_open_from, ACKNOWLEDGED until
 * resolved_from, RESOLVED from then on), so statuses next to each other make one condition, and
 * OPEN with RESOLVED two.
 */
function statusesAt(status: Scalar | Range | undefined, asOf: string): Filter[] {
  const wanted = status === undefined ? INCIDENT_STATUSES : isRange(status) ? (status.$in ?? INCIDENT_STATUSES) : [status];
  const held = INCIDENT_STATUSES.map((s) => wanted.includes(s));
  const reached: Record<IncidentStatus, string | null> = { OPEN: null, ACKNOWLEDGED: 'past_open_from', RESOLVED: 'resolved_from' };
  const filters: Filter[] = [];
  for (let first = 0; first < held.length; first++) {
    if (!held[first] || held[first - 1]) continue;
    let last = first;
    while (held[last + 1]) last += 1;
    const from = reached[INCIDENT_STATUSES[first]!];
    const until = last + 1 < INCIDENT_STATUSES.length ? reached[INCIDENT_STATUSES[last + 1]!] : null;
    filters.push({ ...(from ? { [from]: { $lte: asOf } } : {}), ...(until ? { [until]: { $gt: asOf } } : {}) });
  }
  return filters;
}

/**
 * The monitor as it stood at `asOf`: the events of its own two streams recorded by then, folded by
 * the monitors projection as a replay would (its document in and out of JSON, as a store keeps
 * it). Null if it did not exist then. What it reads is this monitor's log, not the whole log's.
 */
export async function monitorAsOf(events: EventStore, monitorId: string, asOf: string): Promise<MonitorDocument | null> {
  const [monitor, pings] = await Promise.all([events.readStream(monitorStream(monitorId)), events.readStream(pingStream(monitorId))]);
  const handled = new Set<string>(monitorsProjection.handles);
  let doc: MonitorDocument | null = null;
  for (const event of mergedByPosition(monitor, pings)) {
    if (event.created > asOf || !handled.has(event.type)) continue;
    doc = monitorsProjection.apply(doc, toProjectedEvent(event), monitorId);
  }
  return doc === null ? null : (JSON.parse(JSON.stringify(doc)) as MonitorDocument);
}

/** Two streams' events (each in order) as the log has them. */
function* mergedByPosition(a: readonly RecordedEvent[], b: readonly RecordedEvent[]): Generator<RecordedEvent> {
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i]!.position < b[j]!.position)) yield a[i++]!;
    else yield b[j++]!;
  }
}
