import { dependenciesOf } from '../domain/monitors/dependencies.js';
import { type MonitorState, monitorStream } from '../domain/monitors/monitor.js';
import type { CommandContext } from './context.js';
import type { CircumstanceFinder } from './circumstance-finder.js';
import type { StreamRead } from './stream-read.js';

/**
 * A monitor is DOWN upstream of its dependents while its health is DOWN (a FAILED or MISSED
 * incident made it so) and it is not paused. An open DURATION_* or SSL_EXPIRING incident does not
 * count: the service still answers, so a dependent's failure is its own. Only direct dependencies
 * are looked at, as Better Stack does: a DOWN grandparent makes its child DOWN in turn.
 */
export function isDownUpstream(state: MonitorState): boolean {
  return state.lifecycle === 'active' && state.health === 'DOWN' && !state.paused;
}

/**
 * The first of the monitor's dependencies (in the order set) that is DOWN, each read from its own
 * stream. Found one, the decision rests on that one alone; found none, on every one read.
 */
export const upstreamFinder: CircumstanceFinder = async (context: CommandContext, state: MonitorState) => {
  const read: StreamRead[] = [];
  for (const id of dependenciesOf(state.config)) {
    const loaded = await context.monitorStates.load(context.events, id);
    const dependency = loaded.state;
    // A dependency deleted (its stream may be gone) or never created silences nothing.
    if (dependency.lifecycle !== 'active' || dependency.projectId !== state.projectId) continue;
    const stream = { streamName: monitorStream(id), expectedRevision: loaded.monitorRevision };
    if (isDownUpstream(dependency)) return { upstreamDown: { monitor_id: id, name: dependency.config?.name ?? id }, read: [stream] };
    read.push(stream);
  }
  return { read };
};
