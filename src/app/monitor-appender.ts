import type { MonitorCommand, MonitorEvent } from '../domain/monitors/monitor.js';
import type { AppendResult, EventToAppend } from '../eventstore/event-store.js';
import type { StreamCheck } from './stream-appender.js';
import type { LoadedMonitor } from './monitor-states.js';

/** One attempt's decision on a monitor, its events sorted by the stream they go to. */
export interface MonitorWrite {
  monitorId: string;
  /** The fold the decision started from, with each stream's revision then. */
  loaded: LoadedMonitor;
  /** Whether that fold was the one this process remembered, unread (see MonitorAppender.checksEveryStream). */
  remembered: boolean;
  /** The command as decided (in its circumstances, knowing Vigil's listening). */
  command: MonitorCommand;
  /** Observations (pings, check results, missed deadlines), for the `pings-` stream. */
  pings: MonitorEvent[];
  /** An uptime monitor's hourly summaries, for its `checkhours-` stream. */
  summaries: MonitorEvent[];
  /** Everything else, for the `monitor-` stream. */
  others: MonitorEvent[];
  /** The streams of other aggregates the decision read, which must be unchanged. */
  read: readonly StreamCheck[];
  /** The events as appended to `stream` at `expectedRevision`, their ids derived from the command. */
  encode: (stream: string, expectedRevision: number | 'no_stream', events: MonitorEvent[]) => EventToAppend[];
}

/** What runMonitorCommand does after an append that failed (MonitorAppender.afterFailure). */
export type MonitorRecovery =
  /** Nothing this attempt decided was recorded: decide again on what is in the store. */
  | { kind: 'decide-again' }
  /** The observations were recorded (`recorded`): decide `command` on the newer state to follow them. */
  | { kind: 'follow-up'; recorded: MonitorEvent[]; command: MonitorCommand }
  /** The observations were recorded and the answer stands on them; `position` is the last written. */
  | { kind: 'stands'; position: number | null };

export const DECIDE_AGAIN: MonitorRecovery = { kind: 'decide-again' };

/**
 * How a monitor's decision reaches its streams, chosen with the Appender (see appender.ts): the
 * loop in runMonitorCommand reads, decides and hands the decision here, and an append that fails
 * is turned into what to do next by rules that belong to the strategy.
 */
export interface MonitorAppender {
  /**
   * Whether the append checks every stream the monitor's fold read (and every other stream the
   * decision read), even those written nothing. Only then may a decision start from the fold this
   * process kept after its last command (a fold others have moved past is refused, nothing is
   * recorded), and the fold after a command is exactly the streams' state, to be remembered.
   */
  readonly checksEveryStream: boolean;
  /** Appends the decision; returns what each append made answered (the command's position is the greatest). */
  append(write: MonitorWrite): Promise<readonly AppendResult[]>;
  /**
   * After `append` failed with `error`: decide again, follow up, or let the answer stand; throws
   * `error` (or what it wraps) when none applies. On the `lastAttempt` nothing is decided again.
   */
  afterFailure(error: unknown, write: MonitorWrite, lastAttempt: boolean): MonitorRecovery;
}
