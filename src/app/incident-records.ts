import { incidentRecordDecider, incidentStream } from '../domain/incidents/incident-record.js';
import { incidentTimeline } from '../queries/timeline.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';
import type { IncidentDocument } from '../../projections/incidents.js';
import { type Actor, handleCommand, toJsonObject } from './command-handler.js';
import { type CommandContext, nowIso } from './context.js';

/**
 * Before a monitor's streams are hard-deleted, each of its incidents is written whole into its
 * own stream, with its timeline as it stands: the incident stays readable, and replayable, without
 * its monitor. Returns the last log position written.
 */
export async function archiveMonitorIncidents(context: CommandContext, readModels: ReadModelStore, monitorId: string, actor: Actor): Promise<number | null> {
  let position: number | null = null;
  for (const { doc } of await readModels.find<IncidentDocument>('incidents', { monitor_id: monitorId }, { sort: [['started_at', 1]] })) {
    const timeline = await incidentTimeline(readModels, context.events, doc.id, doc.project_id);
    const outcome = await handleCommand(
      context,
      incidentStream(doc.id),
      incidentRecordDecider,
      {
        type: 'ArchiveIncident',
        data: {
          incident_id: doc.id,
          monitor_id: doc.monitor_id,
          project_id: doc.project_id,
          incident: toJsonObject(doc),
          configuration: timeline.configuration,
          timeline: timeline.entries.map((entry) => toJsonObject(entry)),
          archived_at: nowIso(context),
        },
      },
      actor,
    );
    position = outcome.position ?? position;
  }
  return position;
}
