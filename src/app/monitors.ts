import type { MonitorConfig } from '../domain/monitors/monitor-config.js';
import { type IncomingPing, type MonitorCommand, type MonitorPatch, pingStream } from '../domain/monitors/monitor.js';
import type { UserActor } from '../domain/monitors/incidents.js';
import { slugClaimDecider, slugClaimStream, slugify } from '../domain/monitors/slug-claim.js';
import { DomainError, invalid } from '../domain/errors.js';
import { type Actor, handleCommand } from './command-handler.js';
import { type CommandContext, nowIso } from './context.js';
import { sealedConfig, sealedPatch } from './uptime-headers.js';
import { type MonitorOutcome, loadMonitorState, runMonitorCommand } from './monitor-command.js';

// The command loop lives in monitor-command.ts; its callers have always found it here.
export { type MonitorOutcome, loadMonitorState, runMonitorCommand, runMonitorCommandIfExists } from './monitor-command.js';

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

/**
 * Records a ping. `addressedAsSlug`, where the sender named the monitor by slug and the id came
 * from a lookup: refused as not found (a DomainError) if the monitor has another slug by now.
 */
export async function receivePing(context: CommandContext, monitorId: string, ping: Omit<IncomingPing, 'ping_id'>, actor: Actor, addressedAsSlug?: string) {
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
      ...(addressedAsSlug === undefined ? {} : { addressed_as_slug: addressedAsSlug }),
    },
    actor,
  );
  const recorded = outcome.events.find((e) => e.type === 'PingReceived');
  if (!recorded || recorded.type !== 'PingReceived') throw new Error('ping was not recorded');
  return { pingId, event: recorded.data.event, evaluated: recorded.data.evaluated, position: outcome.position };
}
