import type { IncidentKind, IncidentStatus } from '../src/domain/monitors/incidents.js';
import type { Projection, Target } from '../src/projector/projection.js';

export type IncidentActor =
  | { kind: 'user'; user_id: string; email: string; api_key_id: string | null }
  | { kind: 'system'; reason: string };

export interface IncidentDocument {
  [key: string]: unknown;
  id: string;
  monitor_id: string;
  project_id: string;
  monitor: { id: string; name: string; slug: string; project_id: string };
  event: IncidentKind;
  cause: string;
  status: IncidentStatus;
  started_at: string;
  acknowledged_at: string | null;
  acknowledged_by: IncidentActor | null;
  resolved_at: string | null;
  resolved_by: IncidentActor | null;
  reopened_at: string | null;
  /** The dependency that was DOWN when it opened, so nobody was paged; absent from documents archived before dependencies existed. */
  caused_upstream?: { monitor_id: string; name: string } | null;
}

export const incidentsProjection: Projection<IncidentDocument> = {
  name: 'incidents',
  version: 3,
  collection: {
    name: 'incidents',
    indexes: [{ fields: ['project_id', 'started_at'] }, { fields: ['monitor_id', 'started_at'] }, { fields: ['project_id', 'status'] }],
  },
  // A deleted monitor's incidents stay: they were archived in their own streams first.
  handles: ['IncidentOpened', 'IncidentCausedUpstream', 'IncidentAcknowledged', 'IncidentResolved', 'MonitorUpdated', 'IncidentArchived', 'ProjectDeleted'],
  targets(event): Target {
    switch (event.type) {
      case 'IncidentOpened':
      case 'IncidentCausedUpstream':
      case 'IncidentAcknowledged':
      case 'IncidentResolved':
        return { ids: [event.data.incident_id] };
      case 'MonitorUpdated':
        return { where: { monitor_id: event.data.monitor_id } };
      case 'IncidentArchived':
        return { ids: [event.data.incident_id] };
      case 'ProjectDeleted':
        return { where: { project_id: event.data.project_id } };
      default:
        return { ids: [] };
    }
  },
  apply(doc, event) {
    switch (event.type) {
      case 'IncidentOpened': {
        const d = event.data;
        return {
          id: d.incident_id, monitor_id: d.monitor_id, project_id: d.project_id,
          monitor: { id: d.monitor_id, name: d.monitor_name, slug: d.monitor_slug, project_id: d.project_id },
          event: d.event, cause: d.cause, status: 'OPEN', started_at: d.started_at,
          acknowledged_at: null, acknowledged_by: null, resolved_at: null, resolved_by: null, reopened_at: null, caused_upstream: null,
        };
      }
      case 'IncidentCausedUpstream':
        return doc && { ...doc, caused_upstream: { monitor_id: event.data.upstream_monitor_id, name: event.data.upstream_monitor_name } };
      case 'IncidentAcknowledged': {
        const { acknowledged_at, user_id, email, api_key_id } = event.data;
        return doc && { ...doc, status: 'ACKNOWLEDGED', acknowledged_at, acknowledged_by: { kind: 'user', user_id, email, api_key_id } };
      }
      case 'IncidentResolved': {
        const d = event.data;
        const by: IncidentActor =
          d.by_kind === 'user' && d.user_id && d.email
            ? { kind: 'user', user_id: d.user_id, email: d.email, api_key_id: d.api_key_id }
            : { kind: 'system', reason: d.reason ?? 'SYSTEM' };
        return doc && { ...doc, status: 'RESOLVED', resolved_at: d.resolved_at, resolved_by: by };
      }
      case 'MonitorUpdated':
        // The summary follows the monitor's current name and slug.
        return doc && { ...doc, monitor: { ...doc.monitor, name: event.data.config.name, slug: event.data.config.slug } };
      case 'IncidentArchived':
        // The record as it stood when archived: the same document the lifecycle built.
        return event.data.incident as unknown as IncidentDocument;
      case 'ProjectDeleted':
        return null;
      default:
        return doc;
    }
  },
};
