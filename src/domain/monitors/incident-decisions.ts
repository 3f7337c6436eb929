import { clearSuppressed } from './maintenance-suppression.js';
import { invalid, notFound } from '../errors.js';
import type { IncidentKind, UserActor } from './incidents.js';
import type { MonitorCommandOf } from './monitor-commands.js';
import type { IncidentResolvedData, MonitorEvent } from './monitor-events.js';
import { type MonitorState, openIncidentOf } from './monitor-state.js';

/** Resolves the open incident of each kind in `kinds`, if any. */
export function resolveOpen(
  state: MonitorState,
  kinds: readonly IncidentKind[],
  now: string,
  by: Pick<IncidentResolvedData, 'by_kind' | 'reason'> & Partial<UserActor>,
): MonitorEvent[] {
  return [...clearSuppressed(state, kinds, now, by.reason ?? by.by_kind), ...kinds.flatMap((kind) => {
    const incidentId = openIncidentOf(state, kind);
    if (!incidentId) return [];
    return [
      {
        type: 'IncidentResolved' as const,
        data: {
          monitor_id: state.monitorId,
          project_id: state.projectId,
          incident_id: incidentId,
          resolved_at: now,
          by_kind: by.by_kind,
          user_id: by.user_id ?? null,
          email: by.email ?? null,
          api_key_id: by.api_key_id ?? null,
          reason: by.reason,
        },
      },
    ];
  })];
}

export function acknowledgeIncident(state: MonitorState, command: MonitorCommandOf<'AcknowledgeIncident'>): MonitorEvent[] {
  const incident = state.incidents.get(command.incident_id);
  if (!incident) throw notFound('incident not found');
  if (incident.status !== 'OPEN') throw invalid(`only an OPEN incident can be acknowledged; this one is ${incident.status}`);
  const ids = { monitor_id: state.monitorId, project_id: state.projectId };
  return [{ type: 'IncidentAcknowledged', data: { ...ids, incident_id: command.incident_id, acknowledged_at: command.now, ...command.by } }];
}

export function resolveIncident(state: MonitorState, command: MonitorCommandOf<'ResolveIncident'>): MonitorEvent[] {
  const incident = state.incidents.get(command.incident_id);
  if (!incident) throw notFound('incident not found');
  if (incident.status === 'RESOLVED') throw invalid('the incident is already RESOLVED');
  const ids = { monitor_id: state.monitorId, project_id: state.projectId };
  return [{ type: 'IncidentResolved', data: { ...ids, incident_id: command.incident_id, resolved_at: command.now, by_kind: 'user', ...command.by, reason: null } }];
}
