import type { IncidentKind } from '../src/domain/monitors/incidents.js';
import type { ProjectedEvent, Projection } from '../src/projector/projection.js';
import { type IncidentDocument, incidentsProjection } from './incidents.js';

/** Sorts after every ISO-8601 time ('~' follows the digits): the end of an interval not over yet. */
export const NOT_YET = '~';

/** The incident as one event left it, from the time the log recorded that event on. */
export interface IncidentVersion {
  /** The event's `created`: the time an `as_of` compares with. */
  from: string;
  /** Null for a version read back from an archived timeline: its event left the log with its monitor. */
  position: number | null;
  /** Null from the event that removed it (its project's deletion) on. */
  incident: IncidentDocument | null;
}

/**
 * Every version an incident went through, and when it held which status: what `GET
 * /v1/incidents?as_of=` reads (src/audit/as-of.ts), instead of replaying the log.
 *
 * The times are those of the log (`created`), as a replay up to `as_of` would select the events,
 * and each version is what the incidents projection itself makes of the event (`apply` below), so
 * the answer is the replay's. An incident's status only moves forward, OPEN to ACKNOWLEDGED to
 * RESOLVED (the monitor's decider refuses anything else), so two moments say which status it held
 * when; with its existence they are columns, and a query at a moment filters, counts and pages in
 * the store.
 */
export interface IncidentHistoryDocument {
  [key: string]: unknown;
  id: string;
  project_id: string;
  monitor_id: string;
  event: IncidentKind;
  started_at: string;
  /** From its first version until the one that removed it (NOT_YET while it exists). */
  exists_from: string;
  exists_until: string;
  /** When it was first other than OPEN (acknowledged, or resolved at once), and when RESOLVED; NOT_YET for not yet. */
  past_open_from: string;
  resolved_from: string;
  versions: IncidentVersion[];
}

export const incidentHistoryProjection: Projection<IncidentHistoryDocument> = {
  name: 'incident_history',
  version: 2,
  collection: {
    name: 'incident_history',
    indexes: [
      // A project's incidents newest first, with what a moment's filter reads beside them: the
      // count, and the rows of a page, are found in the index.
      { fields: ['project_id', 'started_at', 'exists_from', 'exists_until', 'past_open_from', 'resolved_from', 'event', 'monitor_id'] },
      { fields: ['monitor_id'] },
    ],
  },
  handles: incidentsProjection.handles,
  targets: (event) => incidentsProjection.targets(event),
  apply(doc, event, id) {
    const latest = doc?.versions.at(-1)?.incident ?? null;
    const next = incidentsProjection.apply(latest, event, id);
    // Before its monitor's streams are hard-deleted, an incident is archived whole into its own
    // stream, with its timeline: the log then holds its lifecycle only there, so its history is
    // read back from that timeline (made from the same events, stamped with the same times) and
    // not from the versions held so far, which a rebuild would not have.
    if (event.type === 'IncidentArchived') return next === null ? null : history(withVersion(archivedVersions(event, id), event, next));
    if (doc === null) return next === null ? null : history([version(event, next)]);
    // A change that changes nothing (a monitor update that keeps its name and slug) is no version.
    if (JSON.stringify(next) === JSON.stringify(latest)) return doc;
    return history([...doc.versions, version(event, next)]);
  },
};

function version(event: ProjectedEvent, incident: IncidentDocument | null): IncidentVersion {
  return { from: event.created, position: event.position, incident };
}

/** The versions with the one `event` made, unless that changes nothing. */
function withVersion(versions: IncidentVersion[], event: ProjectedEvent, incident: IncidentDocument): IncidentVersion[] {
  const latest = versions.at(-1)?.incident ?? null;
  return JSON.stringify(latest) === JSON.stringify(incident) ? versions : [...versions, version(event, incident)];
}

/** The events of an incident's lifecycle, as its timeline records them (type, the log's time, data as recorded). */
const LIFECYCLE = new Set<string>(['IncidentOpened', 'IncidentAcknowledged', 'IncidentResolved']);

/**
 * The versions an archived incident went through before it was archived: its timeline's own
 * lifecycle entries (each the event as recorded, at the log's time) folded by the incidents
 * projection. The monitor's renames are not in a timeline: those versions carry its name when
 * the incident opened. Nothing before its opening (an archive without it): no versions.
 */
function archivedVersions(archive: Extract<ProjectedEvent, { type: 'IncidentArchived' }>, id: string): IncidentVersion[] {
  // `apply` never throws: an entry without its event's data is not folded.
  const entries = archive.data.timeline.filter((e) => LIFECYCLE.has(String(e['type'])) && typeof e['data'] === 'object' && e['data'] !== null);
  if (entries[0]?.['type'] !== 'IncidentOpened') return [];
  const versions: IncidentVersion[] = [];
  let incident: IncidentDocument | null = null;
  for (const entry of entries) {
    const event = { ...archive, type: entry['type'], data: entry['data'], created: String(entry['at']) } as unknown as ProjectedEvent;
    const next = incidentsProjection.apply(incident, event, id);
    if (next === null || JSON.stringify(next) === JSON.stringify(incident)) continue;
    versions.push({ from: event.created, position: null, incident: next });
    incident = next;
  }
  return versions;
}

/**
 * The history of these versions, with the moments its queries filter on. The first version is
 * the incident (a history starts with one); a later one is null once it is gone, and none comes
 * back after that (an archive starts the history over).
 */
function history(versions: IncidentVersion[]): IncidentHistoryDocument {
  const present = versions.filter((v): v is IncidentVersion & { incident: IncidentDocument } => v.incident !== null);
  const latest = present.at(-1)?.incident;
  if (!latest) throw new Error('an incident history needs a version of the incident');
  const firstTime = (holds: (incident: IncidentDocument) => boolean) => present.find((v) => holds(v.incident))?.from ?? NOT_YET;
  return {
    id: latest.id,
    project_id: latest.project_id,
    monitor_id: latest.monitor_id,
    event: latest.event,
    started_at: latest.started_at,
    exists_from: versions[0]!.from,
    exists_until: versions.find((v) => v.incident === null)?.from ?? NOT_YET,
    past_open_from: firstTime((incident) => incident.status !== 'OPEN'),
    resolved_from: firstTime((incident) => incident.status === 'RESOLVED'),
    versions,
  };
}

/** The incident as it stood at `asOf`: its last version from then or before; null if it did not exist. */
export function incidentAt(history: IncidentHistoryDocument, asOf: string): IncidentDocument | null {
  let found: IncidentDocument | null = null;
  for (const v of history.versions) {
    if (v.from > asOf) break;
    found = v.incident;
  }
  return found;
}
