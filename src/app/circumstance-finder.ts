import type { PagingCircumstances } from '../domain/monitors/circumstances.js';
import type { MonitorState } from '../domain/monitors/monitor.js';
import type { CommandContext } from './context.js';
import type { StreamRead } from './stream-read.js';

/** One concern's look at the log: what it found and which streams it read. */
export type CircumstanceFinder = (context: CommandContext, state: MonitorState, now: string) => Promise<Partial<PagingCircumstances> & { read: StreamRead[] }>;
