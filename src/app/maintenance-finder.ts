import { activeWindowFor, maintenanceDecider, maintenanceStream } from '../domain/maintenance/window.js';
import type { MonitorState } from '../domain/monitors/monitor.js';
import { loadState } from './command-handler.js';
import type { CommandContext } from './context.js';
import type { CircumstanceFinder } from './circumstance-finder.js';

/**
 * The maintenance window covering the monitor now, read from its project's windows stream: the
 * decision that holds a problem back is then conditional on that stream, so a window scheduled,
 * changed or ended between the read and the append has the decision made again.
 */
export const findMaintenance: CircumstanceFinder = async (context: CommandContext, state: MonitorState, now: string) => {
  const streamName = maintenanceStream(state.projectId);
  const { state: windows, revision } = await loadState(context.events, streamName, maintenanceDecider);
  return { maintenance: activeWindowFor(windows.windows.values(), state.monitorId, now), read: [{ streamName, expectedRevision: revision }] };
};
