import { type MonitorEvent, type MonitorState, pingStream, monitorStream } from '../domain/monitors/monitor.js';
import type { IncidentKind } from '../domain/monitors/incidents.js';
import { incidentRecordDecider, incidentStream } from '../domain/incidents/incident-record.js';
import { type Actor, handleCommand, toJsonObject } from './command-handler.js';
import type { CommandContext } from './context.js';

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
export async function recordIncidentEvidence(context: CommandContext, monitorId: string, events: MonitorEvent[], state: MonitorState, actor: Actor): Promise<number | null> {
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
