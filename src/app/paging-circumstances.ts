import { NO_CIRCUMSTANCES, type PagingCircumstances } from '../domain/monitors/circumstances.js';
import type { MonitorState } from '../domain/monitors/monitor.js';
import type { CommandContext } from './context.js';
import { upstreamFinder } from './upstream-circumstances.js';
import { findMaintenance } from './maintenance-finder.js';
import type { CircumstanceFinder } from './circumstance-finder.js';
import type { StreamRead } from './stream-read.js';

export type { StreamRead } from './stream-read.js';

export interface FoundCircumstances {
  circumstances: PagingCircumstances;
  /** Every stream read to find them, so the decision is conditional on each. */
  read: StreamRead[];
}

/** Each concern that can silence a monitor's pages. Filled in by maintenance windows and dependencies. */
const FINDERS: readonly CircumstanceFinder[] = [findMaintenance, upstreamFinder];

/** What silences `state`'s pages at `now`, and the streams that say so. */
export async function findPagingCircumstances(context: CommandContext, state: MonitorState, now: string, finders: readonly CircumstanceFinder[] = FINDERS): Promise<FoundCircumstances> {
  let circumstances: PagingCircumstances = NO_CIRCUMSTANCES;
  const read: StreamRead[] = [];
  for (const finder of finders) {
    const { read: streams, ...found } = await finder(context, state, now);
    circumstances = { ...circumstances, ...found };
    read.push(...streams);
  }
  return { circumstances, read };
}
