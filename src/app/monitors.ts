import { randomUUID } from 'node:crypto';
import type { MonitorConfig } from '../domain/monitors/monitor-config.js';
import {
  type DeadlineObservation,
  type IncomingPing,
  type MonitorCommand,
  type MonitorEvent,
  type MonitorPatch,
  type MonitorState,
  monitorDecider,
  monitorStream,
  pingStream,
} from '../domain/monitors/monitor.js';
import { checkHoursStream, isCheckSummary, isObservation } from '../domain/monitors/monitor-streams.js';
import { isUptimeType } from '../domain/monitors/schedule.js';
import type { IncidentKind, UserActor } from '../domain/monitors/incidents.js';
import { slugClaimDecider, slugClaimStream, slugify } from '../domain/monitors/slug-claim.js';
import { incidentRecordDecider, incidentStream } from '../domain/incidents/incident-record.js';
import { DomainError, invalid } from '../domain/errors.js';
import { StreamDeletedError, WrongExpectedRevisionError } from '../eventstore/event-store.js';
import { type Actor, appendRetrying, appendToStreamsRetrying, handleCommand, toAppendable, toJsonObject, withEventIds } from './command-handler.js';
import type { LoadedMonitor } from './monitor-states.js';
import { type CommandContext, nowIso } from './context.js';
import { sealedConfig, sealedPatch } from './uptime-headers.js';
import { type StreamRead, findPagingCircumstances } from './paging-circumstances.js';
import { hasCircumstances, wouldRaise } from '../domain/monitors/circumstances.js';
import { withDependencyGraph } from './monitor-dependencies.js';
import { findListening } from './listening.js';
import { needsListening } from '../domain/monitors/expire-deadlines.js';

export interface MonitorOutcome {
  events: MonitorEvent[];
  state: MonitorState;
  /** Log position of the last event written, for read-your-writes. */
  position: number | null;
}

const MAX_ATTEMPTS = 8;

/**
 * Runs a command against a monitor: fold its streams, decide, then append the ping or check
 * result (if any) to the pings stream, an uptime monitor's hourly summaries to its `checkhours-`
 * stream and everything else to the monitor stream, each with its expected revision.
 * Where the store can (the embedded one), both appends are one and both streams' revisions are
 * checked even when only one is written, so the decision may start from the fold this process
 * kept after its last command instead of reading the streams again: had anyone else written to
 * either since, the append is refused, nothing is recorded, and the command is decided again on
 * what is in the store. Elsewhere (EventStoreDB) every command reads the streams, and the
 * observation goes first, being what a ping request acknowledges and what a timer fire and a
 * check-in racing it contend for: the pings stream's revision decides which one was first, and the
 * other is decided again. Should the second append lose a race to another process, the
 * observation stays recorded; what follows from a timer fire's deadlines is decided again at once
 * (FollowUpDeadlines), and the level-triggered rules make a ping's missed transition on the next
 * ping (or check, whose lost hour summaries are decided again with it).
 */
export async function runMonitorCommand(
  context: CommandContext,
  command: MonitorCommand | ((loaded: LoadedMonitor) => MonitorCommand),
  actor: Actor,
  monitorId: string = typeof command === 'function' ? '' : command.monitor_id,
): Promise<MonitorOutcome> {
  // A ping's events take their ids from it; any other command's from an id of its own.
  const commandId = typeof command !== 'function' && command.type === 'ReceivePing' ? command.ping.ping_id : randomUUID();
  return context.streamLocks.run(monitorStream(monitorId), async () => {
    let current = command;
    // Observations an earlier attempt recorded (see FollowUpDeadlines below).
    let recorded: MonitorEvent[] = [];
    // The summaries' window an earlier attempt set (see widenSummaryWindow).
    let windowSet: number | null = null;
    for (let attempt = 1; ; attempt += 1) {
      const remembered = attempt === 1 && context.events.appendToStreams ? context.monitorStates.remembered(monitorId) : undefined;
      const loaded = remembered ?? (await context.monitorStates.load(context.events, monitorId));
      const graph = await withDependencyGraph(context, typeof current === 'function' ? current(loaded) : current, loaded.state);
      const decided = graph.command;
      const inCircumstances = await decideInCircumstances(context, decided, loaded.state);
      const { events } = inCircumstances;
      const read = [...graph.read, ...inCircumstances.read];
      if (events.length === 0) return { events: recorded, state: loaded.state, position: null };
      const encode = (stream: string, expectedRevision: number | 'no_stream', toAppend: MonitorEvent[]) =>
        withEventIds(commandId, stream, expectedRevision, toAppend.map((e) => toAppendable(e, actor)));
      const append = (stream: string, toAppend: MonitorEvent[], expectedRevision: number | 'no_stream') =>
        appendRetrying(context.events, { streamName: stream, events: encode(stream, expectedRevision, toAppend), expectedRevision });
      const pings = events.filter(isObservation);
      const summaries = events.filter(isCheckSummary);
      const others = events.filter((e) => !isObservation(e) && !isCheckSummary(e));
      windowSet = await widenSummaryWindow(context, monitorId, loaded.state, summaries, windowSet);
      let position: number | null = null;
      if (context.events.appendToStreams) {
        const toPings = { streamName: pingStream(monitorId), events: encode(pingStream(monitorId), loaded.pingRevision, pings), expectedRevision: loaded.pingRevision };
        const toMonitor = { streamName: monitorStream(monitorId), events: encode(monitorStream(monitorId), loaded.monitorRevision, others), expectedRevision: loaded.monitorRevision };
        const summaryStream = checkHoursStream(monitorId);
        const toSummaries = { streamName: summaryStream, events: encode(summaryStream, loaded.summaryRevision, summaries), expectedRevision: loaded.summaryRevision };
        // Only an uptime monitor has summaries, and its fold read them.
        const uptime = summaries.length > 0 || (loaded.state.config !== null && isUptimeType(loaded.state.config.type));
        try {
          // A stream with nothing to write goes first: its check then never needs undoing.
          const checks = read.map((stream) => ({ ...stream, events: [] }));
          const writes = uptime ? [toPings, toSummaries, toMonitor] : [toPings, toMonitor];
          const results = await appendToStreamsRetrying(context.events, [...checks, ...writes.filter((w) => w.events.length === 0), ...writes.filter((w) => w.events.length > 0)]);
          position = Math.max(...results.map((r) => r.position));
        } catch (error) {
          context.monitorStates.forget(monitorId);
          // Nothing was recorded: deciding again on the store's state is safe. A stream deleted
          // since the remembered fold reads as gone, and the command is refused on that.
          // So does another monitor's stream the decision read, deleted since (its monitor with it).
          const stale = error instanceof WrongExpectedRevisionError || (error instanceof StreamDeletedError && (remembered !== undefined || read.some((r) => r.streamName === error.streamName)));
          if (stale && attempt < MAX_ATTEMPTS) continue;
          throw error;
        }
        return finish(events, loaded, position, { pings: pings.length, summaries: summaries.length, others: others.length });
      }
      try {
        if (pings.length > 0) position = (await append(pingStream(monitorId), pings, loaded.pingRevision)).position;
      } catch (error) {
        context.monitorStates.forget(monitorId);
        if (error instanceof WrongExpectedRevisionError && attempt < MAX_ATTEMPTS) continue;
        throw error;
      }
      try {
        if (summaries.length > 0) position = (await append(checkHoursStream(monitorId), summaries, loaded.summaryRevision)).position;
        if (others.length > 0) position = (await append(monitorStream(monitorId), others, loaded.monitorRevision)).position;
      } catch (error) {
        context.monitorStates.forget(monitorId);
        const lostRace = error instanceof WrongExpectedRevisionError;
        // A timer fire's deadlines are recorded: what follows from them is decided again on the
        // newer state, so that a missed slot still makes the monitor DOWN with its incident.
        if (lostRace && decided.type === 'ExpireDeadlines' && attempt < MAX_ATTEMPTS) {
          recorded = pings;
          const observed = pings.filter((e): e is DeadlineObservation => e.type === 'CheckInMissed' || e.type === 'RunOverdue');
          const { incident_ids, repage_after_seconds, now } = decided;
          current = { type: 'FollowUpDeadlines', monitor_id: monitorId, observed, incident_ids, repage_after_seconds, now };
          continue;
        }
        // With its ping recorded the answer stands; the next ping makes the missed transition.
        if (lostRace && pings.length > 0) return { events: [...recorded, ...pings], state: loaded.state, position };
        // Without one, deciding again on the newer state is safe.
        if (lostRace && attempt < MAX_ATTEMPTS) continue;
        throw error;
      }
      return finish(events, loaded, position, null);
    }

    /** `checked`: how many events went to each stream, where the append checked every stream's revision. */
    async function finish(decided: MonitorEvent[], loaded: LoadedMonitor, position: number | null, checked: { pings: number; summaries: number; others: number } | null): Promise<MonitorOutcome> {
      const state = decided.reduce(monitorDecider.evolve, loaded.state);
      const events = [...recorded, ...decided];
      // With every revision checked, the fold after this command is exactly the streams' state.
      // Otherwise the next load reads just the events appended here.
      if (checked) {
        const revisions = { monitorRevision: after(loaded.monitorRevision, checked.others), pingRevision: after(loaded.pingRevision, checked.pings), summaryRevision: after(loaded.summaryRevision, checked.summaries) };
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

async function claimSlug(context: CommandContext, projectId: string, slug: string, monitorId: string, actor: Actor): Promise<void> {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      await handleCommand(context, slugClaimStream(projectId, slug), slugClaimDecider, { type: 'ClaimSlug', project_id: projectId, slug, monitor_id: monitorId, holderGone: attempt > 0, now: nowIso(context) }, actor);
      return;
    } catch (error) {
      if (!(error instanceof DomainError) || attempt > 0) throw error;
      // Taken: only a holder that no longer needs it gives way.
      const holder = await currentHolder(context, projectId, slug);
      if (holder === null || !(await holderGone(context, slug, holder))) throw error;
    }
  }
}

/**
 * How long a claim may wait for its monitor to be created or renamed to it. The claim and the
 * monitor's change are appended one after the other, so a holder whose monitor is absent, or
 * goes by another slug, may be a change under way (a concurrent one must not take its slug)
 * until this much later, when it is one that stopped half-way.
 */
const CLAIM_UNDER_WAY_MS = 60_000;

/** Whether `slug`'s holder no longer needs it: its monitor is deleted, or has long gone without it. */
async function holderGone(context: CommandContext, slug: string, holder: { monitorId: string; claimedAt: string }): Promise<boolean> {
  const { lifecycle, config } = await loadMonitorState(context, holder.monitorId);
  if (lifecycle === 'deleted') return true;
  if (lifecycle === 'active' && config?.slug === slug) return false;
  // Absent (a creation that stopped) or renamed away (a rename that stopped before releasing it).
  return context.clock().getTime() - Date.parse(holder.claimedAt) >= CLAIM_UNDER_WAY_MS;
}

async function currentHolder(context: CommandContext, projectId: string, slug: string): Promise<{ monitorId: string; claimedAt: string } | null> {
  const events = await context.events.readStream(slugClaimStream(projectId, slug), { direction: 'backwards', maxCount: 1 });
  const last = events[0];
  return last?.type === 'SlugClaimed' ? { monitorId: String(last.data['monitor_id']), claimedAt: String(last.data['claimed_at']) } : null;
}

/** Frees the slug if `monitorId` still holds it; returns the log position written, if any. */
export async function releaseSlug(context: CommandContext, projectId: string, slug: string, monitorId: string, actor: Actor): Promise<number | null> {
  const outcome = await handleCommand(context, slugClaimStream(projectId, slug), slugClaimDecider, { type: 'ReleaseSlug', project_id: projectId, slug, monitor_id: monitorId, now: nowIso(context) }, actor);
  return outcome.position;
}

/** A slug derived from the name takes the first free `name`, `name-2`, `name-3`…; an explicit one must be free. */
async function claimFreeSlug(context: CommandContext, projectId: string, config: MonitorConfig, explicit: boolean, monitorId: string, actor: Actor): Promise<string> {
  if (explicit) {
    await claimSlug(context, projectId, config.slug, monitorId, actor);
    return config.slug;
  }
  const base = slugify(config.name);
  for (let n = 1; n <= 20; n += 1) {
    const candidate = n === 1 ? base : `${base.slice(0, 50 - String(n).length - 1)}-${n}`;
    try {
      await claimSlug(context, projectId, candidate, monitorId, actor);
      return candidate;
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
    }
  }
  throw invalid('could not find a free slug for this name; send a slug');
}

export async function createMonitor(
  context: CommandContext,
  input: { project_id: string; config: MonitorConfig; slugGiven: boolean; monitor_id?: string },
  actor: Actor,
): Promise<{ monitorId: string; position: number | null }> {
  // A workflow that chose the id beforehand (a first ping's) creates the monitor under it, once.
  const monitorId = input.monitor_id ?? context.newId();
  const config = sealedConfig(context.secrets, input.config);
  const slug = await claimFreeSlug(context, input.project_id, input.config, input.slugGiven, monitorId, actor);
  // Before the monitor exists (see keepsAtLeastTheHistory): a crash in between leaves only an unused window.
  await context.events.setStreamMaxCount(pingStream(monitorId), input.config.retention_count);
  const outcome = await runMonitorCommand(
    context,
    { type: 'CreateMonitor', monitor_id: monitorId, project_id: input.project_id, config: { ...config, slug }, now: nowIso(context) },
    actor,
  );
  return { monitorId, position: outcome.position };
}

/**
 * The log's window over a monitor's pings (its stream's max count) and the history's (the
 * retention_count its events carry) change in two writes, so a crash can fall between them. The
 * window grows before the event that grows the history's and shrinks after the one that shrinks
 * it: the log then keeps at least every ping the history does. The other way round, the history
 * would keep entries for pings the log had removed, which a rebuild from the log cannot make again.
 */
function keepsAtLeastTheHistory(before: number, after: number | undefined): { first: number | null; then: number | null } {
  if (after === undefined || after === before) return { first: null, then: null };
  return after > before ? { first: after, then: null } : { first: null, then: after };
}

export async function updateMonitor(context: CommandContext, monitorId: string, patch: MonitorPatch, actor: Actor): Promise<MonitorOutcome> {
  return changeMonitor(context, monitorId, { patch, status: null, by: null }, actor);
}

/**
 * A PATCH of a monitor: new settings and, with `status`, a pause or a resume forced UP by `by`, in
 * one decision and one append. Around it, what lives outside the monitor's streams: a new slug is
 * claimed before (and released again if the decision is refused), the old one released after;
 * a stale claim left by a crash between gives way to the next claimant (see `holderGone`). The
 * ping stream's retention widens before the decision and narrows after, so no ping the old or
 * new setting keeps is dropped meanwhile; a crash between leaves the wider window, which keeps
 * more, never less, until the next change.
 */
export async function changeMonitor(
  context: CommandContext,
  monitorId: string,
  change: { patch: MonitorPatch; status: 'PAUSED' | 'UP' | null; by: UserActor | null },
  actor: Actor,
): Promise<MonitorOutcome> {
  const { patch, status, by } = change;
  const before = await loadMonitorState(context, monitorId);
  if (before.lifecycle !== 'active' || !before.config) throw new DomainError('not_found', 'monitor not found');
  const newSlug = patch.slug !== undefined && patch.slug !== before.config.slug ? patch.slug : null;
  if (newSlug) await claimSlug(context, before.projectId, newSlug, monitorId, actor);
  const window = keepsAtLeastTheHistory(before.config.retention_count, patch.retention_count);
  if (window.first !== null) await context.events.setStreamMaxCount(pingStream(monitorId), window.first);
  let outcome: MonitorOutcome;
  try {
    outcome = await runMonitorCommand(
      context,
      (loaded): MonitorCommand => {
        // Header values are sealed against the settings this very decision starts from.
        const sealed = sealedPatch(context.secrets, patch, loaded.state.config);
        const lastPingSeq = loaded.pingRevision === 'no_stream' ? null : loaded.pingRevision;
        const now = nowIso(context);
        if (status === null) return { type: 'UpdateMonitor', monitor_id: monitorId, patch: sealed, last_ping_seq: lastPingSeq, now };
        return { type: 'ChangeMonitor', monitor_id: monitorId, patch: sealed, status, by, last_ping_seq: lastPingSeq, now };
      },
      actor,
      monitorId,
    );
  } catch (error) {
    if (newSlug) await releaseSlug(context, before.projectId, newSlug, monitorId, actor);
    if (window.first !== null) await context.events.setStreamMaxCount(pingStream(monitorId), before.config.retention_count);
    throw error;
  }
  if (newSlug) await releaseSlug(context, before.projectId, before.config.slug, monitorId, actor);
  if (window.then !== null) await context.events.setStreamMaxCount(pingStream(monitorId), window.then);
  return outcome;
}

export const pauseMonitor = (context: CommandContext, monitorId: string, actor: Actor) =>
  runMonitorCommand(context, { type: 'PauseMonitor', monitor_id: monitorId, now: nowIso(context) }, actor);

export const resumeMonitor = (context: CommandContext, monitorId: string, actor: Actor) =>
  runMonitorCommand(context, { type: 'ResumeMonitor', monitor_id: monitorId, now: nowIso(context) }, actor);

export const forceMonitorUp = (context: CommandContext, monitorId: string, by: UserActor, actor: Actor) =>
  runMonitorCommand(context, { type: 'ForceMonitorUp', monitor_id: monitorId, by, now: nowIso(context) }, actor);

export const acknowledgeIncident = (context: CommandContext, monitorId: string, incidentId: string, by: UserActor, actor: Actor) =>
  runMonitorCommand(context, { type: 'AcknowledgeIncident', monitor_id: monitorId, incident_id: incidentId, by, now: nowIso(context) }, actor);

export const resolveIncident = (context: CommandContext, monitorId: string, incidentId: string, by: UserActor, actor: Actor) =>
  runMonitorCommand(context, { type: 'ResolveIncident', monitor_id: monitorId, incident_id: incidentId, by, now: nowIso(context) }, actor);

export async function receivePing(context: CommandContext, monitorId: string, ping: Omit<IncomingPing, 'ping_id'>, actor: Actor) {
  const pingId = context.newTimeOrderedId();
  const outcome = await runMonitorCommand(
    context,
    {
      type: 'ReceivePing',
      monitor_id: monitorId,
      ping: { ping_id: pingId, ...ping },
      incident_id: context.newId(),
      repage_after_seconds: context.repageAfterSeconds,
      now: nowIso(context),
    },
    actor,
  );
  const recorded = outcome.events.find((e) => e.type === 'PingReceived');
  if (!recorded || recorded.type !== 'PingReceived') throw new Error('ping was not recorded');
  return { pingId, event: recorded.data.event, evaluated: recorded.data.evaluated, position: outcome.position };
}

const EVIDENCE_LIMIT = 20;

/** The observations that can cause each kind of incident. */
const OBSERVATIONS_OF: Record<IncidentKind, readonly string[]> = {
  MISSED: ['CheckInMissed'],
  FAILED: ['PingReceived', 'CheckCompleted', 'RunOverdue'],
  DURATION_HIGH: ['PingReceived', 'RunOverdue'],
  DURATION_LOW: ['PingReceived'],
  SSL_EXPIRING: ['CheckCompleted'],
};

function observation(type: string, data: Record<string, unknown>): Record<string, unknown> {
  const keep: Record<string, readonly string[]> = {
    PingReceived: ['ping_id', 'event', 'run_id', 'exit_code', 'message', 'duration_ms', 'received_at', 'request_ip'],
    CheckCompleted: ['check_id', 'is_up', 'status_code', 'error', 'response_time_ms', 'ssl_expires_at', 'checked_at'],
    CheckInMissed: ['expected_at', 'deadline_at', 'consecutive_misses'],
    RunOverdue: ['start_ping_id', 'run_id', 'started_at', 'deadline_at', 'closed_as_failure'],
  };
  const at = data['received_at'] ?? data['checked_at'] ?? data['deadline_at'];
  return { type, at: at ?? null, data: Object.fromEntries((keep[type] ?? []).map((k) => [k, data[k] ?? null])) };
}

/** How many events of the monitor's stream one read for `earlierMisses` takes. */
const MISSES_PAGE = 100;

/**
 * The misses recorded before the one counted `firstLocal` in a row, oldest first: the run of
 * CheckInMissed events counting up from 1, read back from the monitor's stream (where this
 * command's own, counted from `firstLocal` on, are already recorded).
 */
async function earlierMisses(context: CommandContext, monitorId: string, firstLocal: number): Promise<Record<string, unknown>[]> {
  // Misses are kept with the pings; those recorded before that, in the monitor's own stream.
  const found = await missesBefore(context, pingStream(monitorId), firstLocal, []);
  return found.length >= firstLocal - 1 ? found : missesBefore(context, monitorStream(monitorId), firstLocal, found);
}

/** The misses counted just before the `firstLocal`-th in a row, read backwards from `stream`, after those `already` found. */
async function missesBefore(context: CommandContext, stream: string, firstLocal: number, already: Record<string, unknown>[]): Promise<Record<string, unknown>[]> {
  const found = [...already].reverse();
  let fromRevision: number | undefined;
  while (found.length < firstLocal - 1) {
    const page = await context.events.readStream(stream, { direction: 'backwards', maxCount: MISSES_PAGE, ...(fromRevision === undefined ? {} : { fromRevision }) });
    for (const e of page) {
      if (e.type !== 'CheckInMissed') continue;
      const inARow = Number(e.data['consecutive_misses']);
      if (inARow >= firstLocal - found.length) continue;
      // Not the next one down: a run before (a ping reset the count) or a gap; none counted further.
      if (inARow !== firstLocal - 1 - found.length) return found.reverse();
      found.push(observation(e.type, e.data));
      if (inARow === 1) return found.reverse();
    }
    const oldest = page.at(-1);
    if (page.length < MISSES_PAGE || !oldest || oldest.revision === 0) break;
    fromRevision = oldest.revision - 1;
  }
  return found.reverse();
}

/**
 * For each incident just opened: what caused it (this command's observations, and for failures the
 * failing ones before it) and the settings then, written to `incident-<id>`. Written right after
 * the incident; returns the last log position written.
 */
async function recordIncidentEvidence(context: CommandContext, monitorId: string, events: MonitorEvent[], state: MonitorState, actor: Actor): Promise<number | null> {
  let position: number | null = null;
  for (const event of events) {
    if (event.type !== 'IncidentOpened' || !state.config) continue;
    // Of this command's observations, those of this incident's kind: one timer fire can open a
    // MISSED and a DURATION_HIGH together, each from its own.
    const kinds = OBSERVATIONS_OF[event.data.event];
    const local = events.filter((e) => kinds.includes(e.type)).map((e) => observation(e.type, toJsonObject(e.data)));
    let earlier: Record<string, unknown>[] = [];
    const tolerance = state.config.failure_tolerance;
    if (event.data.event === 'FAILED' && event.data.ping_id !== null && tolerance > 1) {
      const recent = await context.events.readStream(pingStream(monitorId), { direction: 'backwards', maxCount: EVIDENCE_LIMIT + 1 });
      const failing: Record<string, unknown>[] = [];
      for (const e of recent) {
        // STARTs and LOGs come between a job's failures (vigil exec sends a START per run) and
        // leave its count of failures as it was; so do missed slots and overdue runs, kept there too.
        if (e.type !== 'PingReceived' && e.type !== 'CheckCompleted') continue;
        if (e.data['event'] === 'START' || e.data['event'] === 'LOG') continue;
        const failed = e.data['event'] === 'FAILURE' || e.data['is_up'] === false;
        if (!failed) break;
        if (e.data['ping_id'] !== event.data.ping_id) failing.push(observation(e.type, e.data));
      }
      earlier = failing.reverse().slice(-(tolerance - 1));
    }
    if (event.data.event === 'MISSED' && state.config.schedule_tolerance > 1 && local.length > 0) {
      // The misses of earlier timer fires that this command's continued: one fire counts only the
      // deadlines passed since the one before.
      const counted = local.map((o) => Number((o['data'] as Record<string, unknown>)['consecutive_misses']));
      earlier = await earlierMisses(context, monitorId, Math.min(...counted));
    }
    const { type, schedule, timezone, grace_period_seconds, schedule_tolerance, failure_tolerance, min_duration_seconds, max_duration_seconds, alert_enabled, alert_surge_threshold } = state.config;
    const outcome = await handleCommand(
      context,
      incidentStream(event.data.incident_id),
      incidentRecordDecider,
      {
        type: 'RecordEvidence',
        data: {
          incident_id: event.data.incident_id,
          monitor_id: monitorId,
          project_id: state.projectId,
          configuration: { type, schedule, timezone, grace_period_seconds, schedule_tolerance, failure_tolerance, min_duration_seconds, max_duration_seconds, alert_enabled, alert_surge_threshold },
          evidence: [...earlier, ...local],
          recorded_at: event.data.started_at,
        },
      },
      actor,
    );
    position = outcome.position ?? position;
  }
  return position;
}
