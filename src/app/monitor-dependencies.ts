import { type DependencyGraph, type DependencyNode, MAX_DEPENDENCY_DEPTH, dependenciesOf } from '../domain/monitors/dependencies.js';
import { type MonitorCommand, type MonitorState, mergeConfig, monitorStream } from '../domain/monitors/monitor.js';
import type { CommandContext } from './context.js';
import type { StreamRead } from './stream-read.js';

/**
 * A command that sets `depends_on`, with the monitors it reaches read from their streams (up to
 * the depth a chain may have), and those streams: the decision (cycles, the project, the limits)
 * is made on them, and the append checks that none moved meanwhile, so two changes that together
 * close a cycle cannot both be recorded. A command that changes no dependency reads nothing.
 */
export async function withDependencyGraph(context: CommandContext, command: MonitorCommand, state: MonitorState): Promise<{ command: MonitorCommand; read: StreamRead[] }> {
  let wanted: string[];
  if (command.type === 'CreateMonitor') wanted = dependenciesOf(command.config);
  else if ((command.type === 'UpdateMonitor' || command.type === 'ChangeMonitor') && command.patch.depends_on !== undefined && state.config !== null) wanted = dependenciesOf(mergeConfig(state.config, command.patch));
  else return { command, read: [] };
  const before = dependenciesOf(state.config);
  if (wanted.every((id) => before.includes(id))) return { command, read: [] };
  const { graph, read } = await readDependencyGraph(context, wanted);
  return { command: { ...command, dependencies: graph }, read };
}

/** Breadth-first from `roots` along each monitor's `depends_on`, one level deeper than a chain may go. */
async function readDependencyGraph(context: CommandContext, roots: readonly string[]): Promise<{ graph: DependencyGraph; read: StreamRead[] }> {
  const graph: Record<string, DependencyNode> = {};
  const read: StreamRead[] = [];
  let level = [...new Set(roots)];
  for (let depth = 0; depth <= MAX_DEPENDENCY_DEPTH && level.length > 0; depth += 1) {
    const next: string[] = [];
    for (const id of level) {
      if (graph[id]) continue;
      const loaded = await context.monitorStates.load(context.events, id);
      const { lifecycle, projectId, config } = loaded.state;
      graph[id] = { project_id: projectId, name: config?.name ?? id, lifecycle, depends_on: dependenciesOf(config) };
      // A monitor's settings are in its own stream. One never created, or deleted, has none to
      // check (its stream may be gone, and ids are not reused).
      if (lifecycle === 'active') read.push({ streamName: monitorStream(id), expectedRevision: loaded.monitorRevision });
      if (lifecycle === 'active') next.push(...graph[id].depends_on.filter((dependency) => !graph[dependency]));
    }
    level = [...new Set(next)];
  }
  return { graph, read };
}
