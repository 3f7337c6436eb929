import type { IncidentKind } from './incidents.js';
import type { MonitorEvent } from './monitor-events.js';
import type { MonitorState } from './monitor-state-shape.js';
import type { SuppressionEvent } from './suppression-events.js';

/** The window a monitor's problem arose in, as the decision that held it back found it. */
export interface MaintenanceCover {
  window_id: string;
  name: string;
  ends_at: string;
}

type Suppressed = Extract<SuppressionEvent, { type: 'IncidentSuppressed' }>['data'];

export function evolveSuppression(state: MonitorState, event: SuppressionEvent): MonitorState {
  switch (event.type) {
    case 'IncidentSuppressed': {
      const { incident_id, cause, ping_id, window_id, window_ends_at } = event.data;
      return { ...state, suppressed: new Map(state.suppressed).set(event.data.event, { incident_id, cause, ping_id, window_id, window_ends_at }) };
    }
    case 'SuppressedIncidentCleared':
      return withoutSuppressed(state, event.data.event);
    case 'RepageHeld': {
      const incident = state.incidents.get(event.data.incident_id);
      if (!incident) return state;
      return { ...state, incidents: new Map(state.incidents).set(event.data.incident_id, { ...incident, repageAt: event.data.until }) };
    }
    default: {
      const exhaustive: never = event;
      return exhaustive;
    }
  }
}

/** Once its incident opens (the window over), a problem is no longer held back. */
export function withoutSuppressed(state: MonitorState, kind: IncidentKind): MonitorState {
  if (!state.suppressed.has(kind)) return state;
  const suppressed = new Map(state.suppressed);
  suppressed.delete(kind);
  return { ...state, suppressed };
}

/**
 * The incidents a window held back that are due to be looked at again: those whose window has
 * ended by `now`, or all of them when the timer says a window changed (`review`). Raised as the
 * incident they would have been; deciding in the circumstances then opens each (and pages) or
 * holds it back again.
 */
export function reviewSuppressed(state: MonitorState, now: string, review: boolean, names: { name: string; slug: string }): MonitorEvent[] {
  const events: MonitorEvent[] = [];
  for (const [kind, held] of state.suppressed) {
    if (!review && Date.parse(held.window_ends_at) > Date.parse(now)) continue;
    events.push({
      type: 'IncidentOpened',
      data: {
        monitor_id: state.monitorId, project_id: state.projectId, incident_id: held.incident_id, event: kind, cause: held.cause,
        // Stamped at the window's end, as a missed deadline is at the deadline, however late the timer.
        started_at: Date.parse(held.window_ends_at) < Date.parse(now) ? held.window_ends_at : now, monitor_name: names.name, monitor_slug: names.slug, ping_id: held.ping_id,
      },
    });
  }
  return events;
}

/** Where the decider resolves incidents of `kinds` on recovery: the ones held back are cleared with them. */
export function clearSuppressed(state: MonitorState, kinds: readonly IncidentKind[], now: string, reason: string): MonitorEvent[] {
  return kinds.flatMap((kind): MonitorEvent[] => {
    const held = state.suppressed.get(kind);
    if (!held) return [];
    const data = { monitor_id: state.monitorId, project_id: state.projectId, incident_id: held.incident_id, event: kind, window_id: held.window_id, cleared_at: now, reason };
    return [{ type: 'SuppressedIncidentCleared', data }];
  });
}

/**
 * The decided events as a maintenance window changes them. Inside one, an incident that would open
 * is recorded as suppressed, naming the window, once per window (a further failure in the same
 * window adds nothing, but one the timer raises again to look at it, and a window that moved its
 * end, are recorded anew). Outside any, a problem held back earlier opens under the id it was held
 * back with, so its incident's history starts with the suppression.
 */
export function withMaintenance(state: MonitorState, decided: readonly MonitorEvent[], cover: MaintenanceCover | null): MonitorEvent[] {
  const out: MonitorEvent[] = [];
  for (const event of decided) {
    if (event.type !== 'IncidentOpened') {
      out.push(event);
      continue;
    }
    const held = state.suppressed.get(event.data.event);
    if (cover === null) {
      out.push(held ? { ...event, data: { ...event.data, incident_id: held.incident_id } } : event);
      continue;
    }
    const again = held !== undefined && held.incident_id !== event.data.incident_id;
    if (again && held.window_id === cover.window_id && held.window_ends_at === cover.ends_at) continue;
    const { monitor_id, project_id, event: kind, cause, started_at, monitor_name, monitor_slug, ping_id } = event.data;
    const suppressed: Suppressed = {
      monitor_id, project_id, incident_id: held?.incident_id ?? event.data.incident_id, event: kind, cause, at: started_at, monitor_name, monitor_slug, ping_id,
      window_id: cover.window_id, window_name: cover.name, window_ends_at: cover.ends_at,
    };
    out.push({ type: 'IncidentSuppressed', data: suppressed });
  }
  return out;
}

/**
 * Inside a window nothing pages: a repage falling due is held until the window ends (when the
 * timer fires again and, unless another window covers the monitor then, it goes out).
 */
export function withRepagesHeld(state: MonitorState, decided: readonly MonitorEvent[], cover: MaintenanceCover | null, now: string): MonitorEvent[] {
  if (cover === null) return [...decided];
  const held: MonitorEvent[] = [];
  for (const [incidentId, incident] of state.incidents) {
    if (incident.status !== 'OPEN' || incident.repageAt === null || Date.parse(incident.repageAt) > Date.parse(now)) continue;
    held.push({
      type: 'RepageHeld',
      data: { monitor_id: state.monitorId, project_id: state.projectId, incident_id: incidentId, window_id: cover.window_id, window_name: cover.name, until: cover.ends_at, at: now },
    });
  }
  return [...decided, ...held];
}
