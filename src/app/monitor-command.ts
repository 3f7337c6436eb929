import { randomUUID } from 'node:crypto';
import { type MonitorCommand, type MonitorEvent, type MonitorState, monitorDecider, monitorStream } from '../domain/monitors/monitor.js';
import { checkHoursStream, isCheckSummary, isObservation } from '../domain/monitors/monitor-streams.js';
import { DomainError } from '../domain/errors.js';
import type { AppendResult } from '../eventstore/event-store.js';
import { type Actor, toAppendable, withEventIds } from './command-handler.js';
import type { LoadedMonitor } from './monitor-states.js';
import type { MonitorWrite } from './monitor-appender.js';
import type { CommandContext } from './context.js';
import { type StreamRead, findPagingCircumstances } from './paging-circumstances.js';
import { hasCircumstances, wouldRaise } from '../domain/monitors/circumstances.js';
import { withDependencyGraph } from './monitor-dependencies.js';
import { findListening } from './listening.js';
import { needsListening } from '../domain/monitors/expire-deadlines.js';
import { recordIncidentEvidence } from './incident-evidence.js';

export interface MonitorOutcome {
  events: MonitorEvent[];
  state: MonitorState;
  /** Log position of the last event written, for read-your-writes. */
  position: number | null;
}

const MAX_ATTEMPTS = 8;

/**
 * Runs a command against a monitor: read (fold its streams), decide, append with retry. The
 * decision's events go to the pings stream (the ping or check result, if any), an uptime monitor's
 * `checkhours-` stream (its hourly summaries) and the monitor stream (everything else), each with
 * its expected revision. How they are appended, and what a failed append leaves to do, is the
 * MonitorAppender's, chosen once where the stores are wired (appender.ts): on the embedded store
 * one append checks every stream, and the decision may start from the fold this process kept; on
 * EventStoreDB the observation goes first, and a race lost after it is followed up
 * (FollowUpDeadlines) or left to the next ping. Either way, a decision refused is made again on
 * what is in the store, up to MAX_ATTEMPTS times.
 */
export async function runMonitorCommand(
  context: CommandContext,
  command: MonitorCommand | ((loaded: LoadedMonitor) => MonitorCommand),
  actor: Actor,
  monitorId: string = typeof command === 'function' ? '' : command.monitor_id,
): Promise<MonitorOutcome> {
  const appender = context.appender.monitor;
  // A ping's events take their ids from it; any other command's from an id of its own.
  const commandId = typeof command !== 'function' && command.type === 'ReceivePing' ? command.ping.ping_id : randomUUID();
  const encode: MonitorWrite['encode'] = (stream, expectedRevision, toAppend) => withEventIds(commandId, stream, expectedRevision, toAppend.map((e) => toAppendable(e, actor)));
  return context.streamLocks.run(monitorStream(monitorId), async () => {
    let current = command;
    // Observations an earlier attempt recorded (a follow-up's; see MonitorRecovery).
    let recorded: MonitorEvent[] = [];
    // The summaries' window an earlier attempt set (see widenSummaryWindow).
    let windowSet: number | null = null;
    for (let attempt = 1; ; attempt += 1) {
      // Read: the fold kept after this process's last command, where the append checks it.
      const remembered = attempt === 1 && appender.checksEveryStream ? context.monitorStates.remembered(monitorId) : undefined;
      const loaded = remembered ?? (await context.monitorStates.load(context.events, monitorId));
      // Decide.
      const graph = await withDependencyGraph(context, typeof current === 'function' ? current(loaded) : current, loaded.state);
      const inCircumstances = await decideInCircumstances(context, graph.command, loaded.state);
      const { events } = inCircumstances;
      if (events.length === 0) return { events: recorded, state: loaded.state, position: null };
      const write: MonitorWrite = {
        monitorId,
        loaded,
        remembered: remembered !== undefined,
        command: graph.command,
        pings: events.filter(isObservation),
        summaries: events.filter(isCheckSummary),
        others: events.filter((e) => !isObservation(e) && !isCheckSummary(e)),
        read: [...graph.read, ...inCircumstances.read],
        encode,
      };
      windowSet = await widenSummaryWindow(context, monitorId, loaded.state, write.summaries, windowSet);
      // Append, with retry.
      let results: readonly AppendResult[];
      try {
        results = await appender.append(write);
      } catch (error) {
        context.monitorStates.forget(monitorId);
        const recovery = appender.afterFailure(error, write, attempt >= MAX_ATTEMPTS);
        if (recovery.kind === 'stands') return { events: [...recorded, ...write.pings], state: loaded.state, position: recovery.position };
        if (recovery.kind === 'follow-up') {
          recorded = recovery.recorded;
          current = recovery.command;
        }
        continue;
      }
      const position = results.length === 0 ? null : Math.max(...results.map((r) => r.position));
      return finish(events, write, position);
    }

    async function finish(decided: MonitorEvent[], write: MonitorWrite, position: number | null): Promise<MonitorOutcome> {
      const { loaded } = write;
      const state = decided.reduce(monitorDecider.evolve, loaded.state);
      const events = [...recorded, ...decided];
      // With every revision checked, the fold after this command is exactly the streams' state.
      // Otherwise the next load reads just the events appended here.
      if (appender.checksEveryStream) {
        const revisions = { monitorRevision: after(loaded.monitorRevision, write.others.length), pingRevision: after(loaded.pingRevision, write.pings.length), summaryRevision: after(loaded.summaryRevision, write.summaries.length) };
        context.monitorStates.remember(monitorId, { state, ...revisions });
      }
      // Evidence first recorded with the incident, where ping retention cannot reach it.
      const evidence = await recordIncidentEvidence(context, monitorId, events, state, actor);
      return { events, state, position: evidence ?? position };
    }
  });
}

/**
 * Decides `command`; should that open an incident or page, looks for what silences the monitor's
 * pages (a maintenance window, a dependency DOWN) and decides again in those circumstances. Only
 * then is anything read beyond the monitor's own streams: a ping that changes nothing costs nothing
 * more. `read`: the streams consulted, which the append must find unchanged. (On a store without a
 * multi-stream append, EventStoreDB, they cannot be checked: docs/guarantees.md.)
 */
async function decideInCircumstances(context: CommandContext, given: MonitorCommand, state: MonitorState): Promise<{ events: MonitorEvent[]; read: StreamRead[] }> {
  const heard = await decideAsHeard(context, given, state);
  const { command, events } = heard;
  const circumstantial = command.type === 'ReceivePing' || command.type === 'ExpireDeadlines' || command.type === 'FollowUpDeadlines' || command.type === 'RecordCheck';
  if (!circumstantial || !wouldRaise(events)) return heard;
  const found = await findPagingCircumstances(context, state, command.now);
  const read = [...heard.read, ...found.read];
  if (!hasCircumstances(found.circumstances)) return { events, read };
  return { events: monitorDecider.decide({ ...command, circumstances: found.circumstances }, state), read };
}

/**
 * Decides `command`; should a timer fire find a slot missed or a run overdue, reads Vigil's own
 * outages and decides again knowing them (a deadline Vigil could not have heard met is unheard,
 * not missed). A fire that finds nothing passed reads nothing more. `read`: the outages stream.
 */
async function decideAsHeard(context: CommandContext, command: MonitorCommand, state: MonitorState): Promise<{ command: MonitorCommand; events: MonitorEvent[]; read: StreamRead[] }> {
  const events = monitorDecider.decide(command, state);
  if (command.type !== 'ExpireDeadlines' || command.listening !== undefined || !needsListening(events)) return { command, events, read: [] };
  const { listening, read } = await findListening(context);
  const knowing = { ...command, listening };
  return { command: knowing, events: monitorDecider.decide(knowing, state), read };
}

/**
 * Sets the window of the monitor's summaries stream before the first summary that carries a larger
 * one is appended (as the pings' window is set before the monitor that keeps them): a crash between
 * leaves a window that keeps more, never less. `before`: the window an earlier attempt of the same
 * command set, on a fold another process had moved past; it is set again to the larger of what the
 * stream's newest summary says and what this fold decided, lest it stay narrower than the
 * summaries in the stream. Returns the window this command last set, if any.
 */
async function widenSummaryWindow(context: CommandContext, monitorId: string, state: MonitorState, summaries: MonitorEvent[], before: number | null): Promise<number | null> {
  const decided = Math.max(0, ...summaries.map((e) => (e.type === 'ChecksSummarized' ? (e.data.summaries_kept ?? 0) : 0)));
  const recorded = state.lastSummary?.kept ?? 0;
  const wanted = before === null ? decided : Math.max(decided, recorded);
  if (wanted === 0 || (before === null ? wanted <= recorded : wanted === before)) return before;
  await context.events.setStreamMaxCount(checkHoursStream(monitorId), wanted);
  return wanted;
}

/** A stream's revision once `appended` more events are in it. */
function after(revision: number | 'no_stream', appended: number): number | 'no_stream' {
  return appended === 0 ? revision : (revision === 'no_stream' ? -1 : revision) + appended;
}

/** For the timer and the checker: a monitor deleted since their read model was written needs nothing. */
export async function runMonitorCommandIfExists(context: CommandContext, command: MonitorCommand, actor: Actor): Promise<MonitorOutcome | null> {
  try {
    return await runMonitorCommand(context, command, actor);
  } catch (error) {
    if (error instanceof DomainError && error.reason === 'not_found') return null;
    throw error;
  }
}

export async function loadMonitorState(context: CommandContext, monitorId: string): Promise<MonitorState> {
  return (await context.monitorStates.load(context.events, monitorId)).state;
}
