import { invalid } from '../errors.js';
import type { MonitorConfig } from './monitor-config.js';
import type { MonitorEvent } from './monitor.js';

/** How many monitors one may depend on directly. */
export const MAX_DEPENDENCIES = 20;
/** How long a chain of dependencies may be, counted from the monitor itself. */
export const MAX_DEPENDENCY_DEPTH = 10;

/** A monitor the application read to judge a change of `depends_on`: what the decision needs of it. */
export interface DependencyNode {
  project_id: string;
  name: string;
  lifecycle: 'absent' | 'active' | 'deleted';
  depends_on: string[];
}

/**
 * Every monitor reachable from the `depends_on` being set, as the application read them (each
 * from its own stream, whose revision the append then checks), keyed by id. A monitor not in it
 * was not reached: the application stops reading at the depth limit.
 */
export type DependencyGraph = Readonly<Record<string, DependencyNode>>;

export const dependenciesOf = (config: MonitorConfig | null): string[] => config?.depends_on ?? [];

/**
 * Refuses a `depends_on` that names the monitor itself, a monitor that is not in its project, one
 * too many, a chain too deep, or an edge that closes a cycle; every refusal names the field. Only
 * edges being added are checked for existence: one kept from before whose monitor was deleted
 * since stays harmless (a deleted dependency is never DOWN) and is no reason to refuse an
 * unrelated change.
 */
export function assertDependencies(monitor: { id: string; project_id: string; name: string }, dependsOn: readonly string[], before: readonly string[], graph: DependencyGraph | undefined): void {
  if (dependsOn.length > MAX_DEPENDENCIES) throw invalid(`depends_on: at most ${MAX_DEPENDENCIES} monitors`);
  if (dependsOn.includes(monitor.id)) throw invalid('depends_on: a monitor cannot depend on itself');
  const added = dependsOn.filter((id) => !before.includes(id));
  if (added.length === 0) return;
  if (graph === undefined) throw new Error('a change of depends_on is decided with the dependency graph read');
  const named = (id: string) => (id === monitor.id ? monitor.name : graph[id]?.name ?? id);
  for (const id of added) {
    const node = graph[id];
    if (!node || node.lifecycle !== 'active' || node.project_id !== monitor.project_id) throw invalid(`depends_on: monitor ${id} does not exist in this project`);
  }
  // Depth-first from each dependency along what it depends on: reaching the monitor itself closes a cycle.
  const edges = (id: string): readonly string[] => (id === monitor.id ? dependsOn : graph[id]?.lifecycle === 'active' ? graph[id]!.depends_on : []);
  const walk = (id: string, path: string[]): void => {
    if (path.length > MAX_DEPENDENCY_DEPTH) {
      throw invalid(`depends_on: a chain of dependencies may be at most ${MAX_DEPENDENCY_DEPTH} monitors deep (${path.map(named).join(' → ')} …)`);
    }
    for (const next of edges(id)) {
      if (next === monitor.id) throw invalid(`depends_on would form a cycle: ${[...path, next].map((n) => `"${named(n)}"`).join(' → ')}`);
      if (!path.includes(next)) walk(next, [...path, next]);
    }
  };
  walk(monitor.id, [monitor.id]);
}

/**
 * The incidents just opened, marked as caused upstream: each `IncidentOpened` is followed by an
 * `IncidentCausedUpstream` naming the dependency that is DOWN. Nobody is paged about such an
 * incident (see withPages), nor about its acknowledgement or resolution.
 */
export function markedUpstream(decided: readonly MonitorEvent[], upstream: { monitor_id: string; name: string }): MonitorEvent[] {
  return decided.flatMap((event): MonitorEvent[] =>
    event.type !== 'IncidentOpened'
      ? [event]
      : [
          event,
          {
            type: 'IncidentCausedUpstream',
            data: {
              monitor_id: event.data.monitor_id,
              project_id: event.data.project_id,
              incident_id: event.data.incident_id,
              upstream_monitor_id: upstream.monitor_id,
              upstream_monitor_name: upstream.name,
              at: event.data.started_at,
            },
          },
        ],
  );
}

/** Whether the incident opened among `decided` was marked caused upstream there. */
export function causedUpstream(decided: readonly MonitorEvent[], incidentId: string): boolean {
  return decided.some((event) => event.type === 'IncidentCausedUpstream' && event.data.incident_id === incidentId);
}
