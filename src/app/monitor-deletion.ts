import type { UserActor } from '../domain/monitors/incidents.js';
import { type MonitorEvent, type MonitorState, monitorDecider, monitorStream, pingStream } from '../domain/monitors/monitor.js';
import type { MonitorConfig } from '../domain/monitors/monitor-config.js';
import { pageDecider, pageStream } from '../domain/notifications/page.js';
import { projectDecider, projectStream } from '../domain/projects/project.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';
import type { IncidentDocument } from '../../projections/incidents.js';
import type { RecordedEvent } from '../eventstore/event-store.js';
import { type MonitorDeletionStep, monitorDeletionDecider, monitorDeletionStream, nextDeletionStep } from '../domain/deletion/monitor-deletion.js';
import { type Actor, handleCommand, loadState, toDomainEvent } from './command-handler.js';
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

export interface DeletionOutcome {
  /** Log position of the last event written, for read-your-writes; null when the run wrote nothing. */
  position: number | null;
}

async function settle(deps: DeletionDependencies, position: number | null): Promise<void> {
  if (position !== null) await deps.settled(position);
}

/**
 * Deletes a monitor. Before anything records the deletion, its open incidents are resolved by
 * `resolvedBy` (an archived incident can be neither acknowledged nor resolved, and would stay OPEN
 * in every list) and every incident is archived in its own stream, timeline whole. Then
 * `MonitorDeleted` is recorded (resolving, by the system, any incident a ping opened since) and
 * the rest is its own workflow (`runMonitorDeletion`), which the monitor deleter resumes should this
 * process stop half-way (src/app/monitor-deleter.ts).
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
  const finished = await runMonitorDeletion(deps, monitorId, deleted.state.projectId, actor);
  return finished.position ?? deleted.position;
}

/** What one run of the workflow has read and done so far, handed from step to step. */
interface Run {
  deps: DeletionDependencies;
  monitorId: string;
  projectId: string;
  actor: Actor;
  now: string;
  /** The monitor's stream as this run found it: empty once a step before a crash has deleted it. */
  recorded: RecordedEvent[];
  /** The monitor it folds to: null once its streams are gone. */
  monitor: DeletedMonitor | null;
  position: number | null;
}

interface DeletedMonitor {
  state: MonitorState;
  events: MonitorEvent[];
  config: MonitorConfig;
}

/**
 * Runs the deletion workflow of a monitor whose `MonitorDeleted` is recorded, from wherever it
 * stands, to its end: read its stream (`monitor-deletion-<id>`), take the next step the decider
 * names, do it, record it done (conditional on the workflow's stream), again. The steps are those of
 * src/domain/deletion/monitor-deletion.ts; each decides on the streams it writes to, so a step a
 * crash cut off before it was recorded done changes nothing the second time, and a second run (a
 * resumed one, or another process's) records nothing twice.
 *
 * A deletion an older Vigil began records its progress in the project's stream only: it has no
 * workflow stream yet, starts one here and takes every step again; those already done decide
 * nothing, and a monitor whose streams are gone has only the project's record of it left to make.
 */
export async function runMonitorDeletion(deps: DeletionDependencies, monitorId: string, projectId: string, actor: Actor): Promise<DeletionOutcome> {
  const { commands } = deps;
  return commands.streamLocks.run(`deletion-${monitorId}`, async () => {
    const stream = monitorDeletionStream(monitorId);
    const now = nowIso(commands);
    const started = await handleCommand(commands, stream, monitorDeletionDecider, { type: 'StartMonitorDeletion', monitor_id: monitorId, project_id: projectId, now }, actor);
    const recorded = await commands.events.readStream(monitorStream(monitorId));
    const run: Run = { deps, monitorId, projectId, actor, now, recorded, monitor: deletedMonitor(monitorId, recorded), position: started.position };
    let { state } = await loadState(commands.events, stream, monitorDeletionDecider);
    for (let step = nextDeletionStep(state); step !== null; step = nextDeletionStep(state)) {
      await STEPS[step](run);
      const done = await handleCommand(commands, stream, monitorDeletionDecider, { type: 'CompleteMonitorDeletionStep', monitor_id: monitorId, step, now }, actor);
      state = done.state;
      run.position = done.position ?? run.position;
    }
    return { position: run.position };
  });
}

/** The monitor as its deletion found it: null once its streams are gone. */
function deletedMonitor(monitorId: string, recorded: readonly RecordedEvent[]): DeletedMonitor | null {
  if (recorded.length === 0) return null;
  const events = recorded.map((e) => toDomainEvent<MonitorEvent>(e));
  // Final: a deleted monitor takes no more commands.
  const state = events.reduce(monitorDecider.evolve, monitorDecider.initialState());
  const config = state.config;
  if (state.lifecycle !== 'deleted' || config === null) throw new Error(`monitor ${monitorId} has not been deleted`);
  return { state, events, config };
}

const STEPS: Record<MonitorDeletionStep, (run: Run) => Promise<void>> = {
  /**
   * Its pages not yet fanned out (the `resolved` ones of the incidents the deletion resolved among
   * them) are, to the channels the monitor routed to, into their own streams, which outlive it:
   * the notifier delivers them as it does any other. An `opened` or `repage` page that had not gone
   * out is fanned out to no channel: its incident is resolved now, and sent beside the `resolved`
   * one it could reach a service after it and leave an alert open there.
   */
  async hand_over_pages(run) {
    const { monitor } = run;
    if (!monitor) return;
    const { commands } = run.deps;
    const projectId = monitor.state.projectId;
    const channels = await routedChannels(run.deps.readModels, projectId, monitor.config);
    for (const event of monitor.events) {
      if (event.type !== 'PageScheduled') continue;
      const { page_id, incident_id, reason } = event.data;
      const moot = reason === 'opened' || reason === 'repage';
      const outcome = await handleCommand(
        commands,
        pageStream(page_id),
        pageDecider,
        { type: 'FanOutPage', page_id, project_id: projectId, incident_id, monitor_id: run.monitorId, reason, channel_ids: moot ? [] : channels, now: run.now },
        run.actor,
      );
      run.position = outcome.position ?? run.position;
    }
  },
  /**
   * Its project records its removal (name and slug); this outlives its streams (the project's
   * history and a look at its past show it). Its slug is freed.
   */
  async record_removal(run) {
    const { monitor } = run;
    if (!monitor) return;
    const { commands } = run.deps;
    const { projectId } = monitor.state;
    const { config } = monitor;
    const removal = await handleCommand(
      commands,
      projectStream(projectId),
      projectDecider,
      {
        type: 'RecordMonitorRemoval', project_id: projectId, monitor_id: run.monitorId, name: config.name, slug: config.slug,
        // When the log recorded its creation (its stream's first event), as a look at the past compares times.
        monitor_type: config.type, monitor_created_at: run.recorded[0]!.created, now: run.now,
      },
      run.actor,
    );
    run.position = removal.position ?? run.position;
    run.position = (await releaseSlug(commands, projectId, config.slug, run.monitorId, run.actor)) ?? run.position;
  },
  /**
   * Once the read models hold every event of its streams, an incident a ping opened since the
   * archiving is archived too, with what is left of its timeline; then its streams are hard-deleted
   * (pings, an uptime monitor's hourly summaries, and last the monitor's own).
   */
  async delete_streams(run) {
    const { monitor } = run;
    if (!monitor) return;
    const { commands } = run.deps;
    // Events that leave the log before the projector has read them would never reach the read
    // models. (A ping can be appended after the deletion on a store that appends stream by stream.)
    // An uptime monitor's hourly summaries have a stream of their own, deleted with the others.
    const streams = [pingStream(run.monitorId), ...(isUptimeType(monitor.config.type) ? [checkHoursStream(run.monitorId)] : [])];
    const newest = await Promise.all(streams.map((stream) => commands.events.readStream(stream, { direction: 'backwards', maxCount: 1 })));
    await run.deps.settled(Math.max(run.recorded.at(-1)!.position, ...newest.map(([event]) => event?.position ?? 0)));
    run.position = (await archiveMonitorIncidents(commands, run.deps.readModels, run.monitorId, run.actor)) ?? run.position;
    for (const stream of streams) await commands.events.deleteStream(stream);
    await commands.events.deleteStream(monitorStream(run.monitorId));
  },
  /** Its project records that its streams are gone (its history says so): the deletion is finished. */
  async record_streams_deletion(run) {
    const { commands } = run.deps;
    commands.monitorStates.forget(run.monitorId);
    const finished = await handleCommand(
      commands,
      projectStream(run.projectId),
      projectDecider,
      { type: 'RecordMonitorStreamsDeletion', project_id: run.projectId, monitor_id: run.monitorId, now: run.now },
      run.actor,
    );
    run.position = finished.position ?? run.position;
  },
};
