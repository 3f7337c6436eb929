import type { UserActor } from '../domain/monitors/incidents.js';
import { type MonitorEvent, monitorDecider, monitorStream, pingStream } from '../domain/monitors/monitor.js';
import { type PageEvent, pageDecider, pageStream } from '../domain/notifications/page.js';
import { projectDecider, projectStream } from '../domain/projects/project.js';
import { ReadModelLagError } from '../projector/read-model-progress.js';
import type { Filter, ReadModelStore } from '../readstore/read-model-store.js';
import type { IncidentDocument } from '../../projections/incidents.js';
import type { MonitorRemovalDocument } from '../../projections/monitor-removals.js';
import { type Actor, handleCommand, toDomainEvent } from './command-handler.js';
import { type CommandContext, nowIso } from './context.js';
import { archiveMonitorIncidents } from './incident-records.js';
import { releaseSlug, resolveIncident, runMonitorCommand } from './monitors.js';
import { checkHoursStream } from '../domain/monitors/monitor-streams.js';
import { isUptimeType } from '../domain/monitors/schedule.js';
import { routedChannels } from './page-routing.js';

export interface DeletionDependencies {
  commands: CommandContext;
  readModels: ReadModelStore;
  /** Waits until the read models include the log up to `position`; throws when they do not in time. */
  settled: (position: number) => Promise<void>;
}

export type PageFannedOut = Extract<PageEvent, { type: 'PageFannedOut' }>;

export interface DeletionOutcome {
  /** Log position of the last event written, for read-your-writes. */
  position: number | null;
  /** The monitor's pages this run handed to their own streams: the notifier may deliver them at once. */
  fannedOut: PageFannedOut[];
}

/** How many unfinished deletions one pass of `finishMonitorDeletions` takes on. */
const DELETIONS_PER_PASS = 100;

async function settle(deps: DeletionDependencies, position: number | null): Promise<void> {
  if (position !== null) await deps.settled(position);
}

/**
 * Deletes a monitor. Before anything records the deletion, its open incidents are resolved by
 * `resolvedBy` (an archived incident can be neither acknowledged nor resolved, and would stay OPEN
 * in every list) and every incident is archived in its own stream, timeline whole. Then
 * `MonitorDeleted` is recorded (resolving, by the system, any incident a ping opened since) and
 * the rest is `finishMonitorDeletion`, which the notifier resumes should this process stop half-way.
 * Returns the last log position written.
 */
export async function deleteMonitor(deps: DeletionDependencies, monitorId: string, resolvedBy: UserActor | null, actor: Actor): Promise<number | null> {
  const { commands, readModels } = deps;
  if (resolvedBy) {
    // Found in the read models, which have taken in every write acknowledged before this request (see api/app.ts).
    for (const { doc } of await readModels.find<IncidentDocument>('incidents', { monitor_id: monitorId, status: { $in: ['OPEN', 'ACKNOWLEDGED'] } })) {
      await settle(deps, (await resolveIncident(commands, monitorId, doc.id, resolvedBy, actor)).position);
    }
  }
  await settle(deps, await archiveMonitorIncidents(commands, readModels, monitorId, actor));
  const deleted = await runMonitorCommand(commands, { type: 'DeleteMonitor', monitor_id: monitorId, now: nowIso(commands) }, actor);
  const finished = await finishMonitorDeletion(deps, monitorId, deleted.state.projectId, actor);
  return finished.position ?? deleted.position;
}

/**
 * What follows `MonitorDeleted`, in an order that can be resumed from any point and repeated:
 *
 * 1. Its pages not yet fanned out (the `resolved` ones of the incidents the deletion resolved
 *    among them) are, to the channels the monitor routed to, into their own streams, which
 *    outlive it: the notifier delivers them as it does any other. An `opened` or `repage` page
 *    that had not gone out is fanned out to no channel: its incident is resolved now, and sent
 *    beside the `resolved` one it could reach a service after it and leave an alert open there.
 * 2. Its project records its removal (name and slug); this too outlives its streams, and says the
 *    deletion is under way (see projections/monitor-removals.ts). Its slug is freed.
 * 3. Once the read models hold every event of its streams, an incident a ping opened since the
 *    archiving is archived too, with what is left of its timeline; then its streams are hard-deleted
 *    (pings, an uptime monitor's hourly summaries, and last the monitor's own).
 * 4. Its project records that its streams are gone: the deletion is finished.
 *
 * A monitor whose streams are gone already has only the last step left. Each step decides on the
 * streams it writes to, so a second run (a resumed one, or another process's) records nothing twice.
 */
export async function finishMonitorDeletion(deps: DeletionDependencies, monitorId: string, projectId: string, actor: Actor): Promise<DeletionOutcome> {
  const { commands } = deps;
  return commands.streamLocks.run(`deletion-${monitorId}`, async () => {
    const now = nowIso(commands);
    const recorded = await commands.events.readStream(monitorStream(monitorId));
    let position: number | null = null;
    const fannedOut: PageFannedOut[] = [];
    const last = recorded.at(-1);
    if (last) {
      const events = recorded.map((e) => toDomainEvent<MonitorEvent>(e));
      // Final: a deleted monitor takes no more commands.
      const state = events.reduce(monitorDecider.evolve, monitorDecider.initialState());
      const config = state.config;
      if (state.lifecycle !== 'deleted' || config === null) throw new Error(`monitor ${monitorId} has not been deleted`);
      const channels = await routedChannels(deps.readModels, state.projectId, config);
      for (const event of events) {
        if (event.type !== 'PageScheduled') continue;
        const { page_id, incident_id, reason } = event.data;
        const moot = reason === 'opened' || reason === 'repage';
        const outcome = await handleCommand(
          commands,
          pageStream(page_id),
          pageDecider,
          { type: 'FanOutPage', page_id, project_id: state.projectId, incident_id, monitor_id: monitorId, reason, channel_ids: moot ? [] : channels, now },
          actor,
        );
        position = outcome.position ?? position;
        for (const e of outcome.events) if (e.type === 'PageFannedOut') fannedOut.push(e);
      }
      const removal = await handleCommand(
        commands,
        projectStream(state.projectId),
        projectDecider,
        {
          type: 'RecordMonitorRemoval', project_id: state.projectId, monitor_id: monitorId, name: config.name, slug: config.slug,
          // When the log recorded its creation (its stream's first event), as a look at the past compares times.
          monitor_type: config.type, monitor_created_at: recorded[0]!.created, now,
        },
        actor,
      );
      position = removal.position ?? position;
      position = (await releaseSlug(commands, state.projectId, config.slug, monitorId, actor)) ?? position;
      // Events that leave the log before the projector has read them would never reach the read
      // models. (A ping can be appended after the deletion on a store that appends stream by stream.)
      // An uptime monitor's hourly summaries have a stream of their own, deleted with the others.
      const streams = [pingStream(monitorId), ...(isUptimeType(config.type) ? [checkHoursStream(monitorId)] : [])];
      const newest = await Promise.all(streams.map((stream) => commands.events.readStream(stream, { direction: 'backwards', maxCount: 1 })));
      await deps.settled(Math.max(last.position, ...newest.map(([event]) => event?.position ?? 0)));
      position = (await archiveMonitorIncidents(commands, deps.readModels, monitorId, actor)) ?? position;
      for (const stream of streams) await commands.events.deleteStream(stream);
      await commands.events.deleteStream(monitorStream(monitorId));
    }
    commands.monitorStates.forget(monitorId);
    const finished = await handleCommand(
      commands,
      projectStream(projectId),
      projectDecider,
      { type: 'RecordMonitorStreamsDeletion', project_id: projectId, monitor_id: monitorId, now },
      actor,
    );
    return { position: finished.position ?? position, fannedOut };
  });
}

/**
 * Finishes the deletions a crash (or a failed step) left half-way, those within `scope`; a
 * deletion that fails again is reported and tried on the next pass. Returns the pages fanned out.
 */
export async function finishMonitorDeletions(deps: DeletionDependencies, scope: Filter, actor: Actor, onError: (error: unknown) => void): Promise<PageFannedOut[]> {
  const unfinished = await deps.readModels.find<MonitorRemovalDocument>('monitor_removals', scope, { limit: DELETIONS_PER_PASS });
  const fannedOut: PageFannedOut[] = [];
  for (const { doc } of unfinished) {
    try {
      fannedOut.push(...(await finishMonitorDeletion(deps, doc.id, doc.project_id, actor)).fannedOut);
    } catch (error) {
      onError(error);
      // The read models trail the log: the next deletion would wait as long. Next pass.
      if (error instanceof ReadModelLagError) break;
    }
  }
  return fannedOut;
}
