import { invalid } from '../errors.js';
import type { MonitorConfig } from './monitor-config.js';
import type { MonitorEvent } from './monitor-events.js';

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
  // Depth-first along what each depends on: reaching the monitor itself closes a cycle. Each
  // monitor's depth below it is worked out once, however many paths lead to it.
  const edges = (id: string): readonly string[] => (id === monitor.id ? dependsOn : graph[id]?.lifecycle === 'active' ? graph[id].depends_on : []);
  const below = new Map<string, number>();
  const depthBelow = (id: string, path: string[]): number => {
    const known = below.get(id);
    if (known !== undefined) return known;
    let deepest = 0;
    for (const next of edges(id)) {
      if (next === monitor.id) throw invalid(`depends_on would form a cycle: ${[...path, next].map((n) => `"${named(n)}"`).join(' → ')}`);
      // Another cycle, not through this monitor, was not closed here; the store without a
      // multi-stream append can let one in (docs/guarantees.md). Not followed round again.
      if (path.includes(next)) continue;
      deepest = Math.max(deepest, 1 + depthBelow(next, [...path, next]));
    }
    below.set(id, deepest);
    return deepest;
  };
  for (const id of dependsOn) {
    if (1 + depthBelow(id, [monitor.id, id]) > MAX_DEPENDENCY_DEPTH) {
      throw invalid(`depends_on: a chain of dependencies may be at most ${MAX_DEPENDENCY_DEPTH} monitors deep; through "${named(id)}" it would be deeper`);
    }
  }
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
