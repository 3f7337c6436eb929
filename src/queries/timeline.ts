import { wallClock } from '../domain/notifications/quiet-hours.js';
import type { EventStore } from '../eventstore/event-store.js';
import type { Filter, ReadModelStore } from '../readstore/read-model-store.js';
import { historyEntryOfPing, recordedPings } from './pings.js';
import type { AuditEventDocument } from '../../projections/audit-events.js';
import type { ChannelDocument } from '../../projections/notification-channels.js';

export interface TimelineEntry {
  at: string;
  type: string;
  summary: string;
  data: Record<string, unknown>;
}

const EVIDENCE_LIMIT = 20;
const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

async function audit(readModels: ReadModelStore, filter: Filter, limit?: number, newestFirst = false): Promise<AuditEventDocument[]> {
  return (await readModels.find<AuditEventDocument>('audit_events', filter, { sort: [['position', newestFirst ? -1 : 1]], ...(limit ? { limit } : {}) })).map((s) => s.doc);
}

/**
 * The monitor's newest observations before a log position, newest first: its check results from
 * the history, its pings from their stream in the log (the history keeps no entries of them).
 */
async function observationsBefore(readModels: ReadModelStore, events: EventStore, monitorId: string, position: number, limit: number): Promise<AuditEventDocument[]> {
  const [checks, pings] = await Promise.all([
    audit(readModels, { monitor_id: monitorId, type: 'CheckCompleted', position: { $lt: position } }, limit, true),
    recordedPings(events, monitorId),
  ]);
  const earlierPings = pings.filter((ping) => ping.recorded.position < position).slice(0, limit).map(historyEntryOfPing);
  return [...checks, ...earlierPings].sort((a, b) => b.position - a.position).slice(0, limit);
}

/** The observations that led to an incident, read back from just before it opened. */
async function causes(readModels: ReadModelStore, events: EventStore, opened: AuditEventDocument): Promise<AuditEventDocument[]> {
  const monitorId = text(opened.data['monitor_id']);
  const kind = text(opened.data['event']);
  const before = { $lt: opened.position };
  if (kind === 'MISSED') {
    const misses = await audit(readModels, { monitor_id: monitorId, type: 'CheckInMissed', position: before }, EVIDENCE_LIMIT, true);
    return takeRun(misses, (e) => Number(e.data['consecutive_misses']) >= 1, (e) => Number(e.data['consecutive_misses']) === 1);
  }
  const overdue = await audit(readModels, { monitor_id: monitorId, type: 'RunOverdue', position: before }, 1, true);
  const observations = await observationsBefore(readModels, events, monitorId, opened.position, EVIDENCE_LIMIT);
  if (kind === 'FAILED') {
    if (overdue[0] && opened.position - overdue[0].position < 5) return [overdue[0]];
    return takeRun(observations, (e) => e.data['event'] === 'FAILURE' || e.data['is_up'] === false, () => false);
  }
  if (kind === 'DURATION_HIGH' && overdue[0] && opened.position - overdue[0].position < 5) return [overdue[0]];
  // Duration and certificate incidents: the one observation that showed it.
  return observations.slice(0, 1);
}

/** From newest to oldest while `belongs`, stopping after `first`; returned oldest first. */
function takeRun(newestFirst: AuditEventDocument[], belongs: (e: AuditEventDocument) => boolean, first: (e: AuditEventDocument) => boolean): AuditEventDocument[] {
  const run: AuditEventDocument[] = [];
  for (const event of newestFirst) {
    if (!belongs(event)) break;
    run.push(event);
    if (first(event)) break;
  }
  return run.reverse();
}

function summarize(e: AuditEventDocument, channels: Map<string, string>): string {
  const d = e.data;
  const channel = () => channels.get(text(d['channel_id'])) ?? `channel ${text(d['channel_id'])}`;
  switch (e.type) {
    case 'PingReceived': {
      const exit = d['exit_code'] !== null && d['exit_code'] !== undefined ? ` with exit code ${text(d['exit_code'])}` : '';
      const message = d['message'] ? `: "${text(d['message'])}"` : '';
      return `${text(d['event'])} ping${exit}${message}${d['request_ip'] ? ` from ${text(d['request_ip'])}` : ''}`;
    }
    case 'CheckCompleted':
      return d['is_up'] ? `Check passed (HTTP ${text(d['status_code'])} in ${text(d['response_time_ms'])} ms)` : `Check failed: ${text(d['error'])}`;
    case 'CheckInMissed':
      return `No check-in for the run expected at ${text(d['expected_at'])} by its deadline ${text(d['deadline_at'])} (${text(d['consecutive_misses'])} in a row)`;
    case 'CheckInUnheard':
      return `Not heard: ${Number(d['slots']) === 1 ? `the check-in expected at ${text(d['expected_at'])}` : `${text(d['slots'])} check-ins expected from ${text(d['expected_at'])} to ${text(d['last_expected_at'])}`} fell due while Vigil itself was not listening (${text(d['outage_from'])} to ${text(d['outage_to'])}); not counted as missed`;
    case 'RunUnheard':
      return `Not heard: the run started at ${text(d['started_at'])} was under way while Vigil itself was not listening (${text(d['outage_from'])} to ${text(d['outage_to'])}); not reported hung`;
    case 'ListeningInterrupted':
      return `Vigil was not listening from ${text(d['from'])} to ${text(d['to'])}: deadlines then were recorded unheard`;
    case 'RunOverdue':
      return `The run started at ${text(d['started_at'])} was still running at ${text(d['deadline_at'])}${d['closed_as_failure'] ? '; the watchdog counted it as a failure' : ''}`;
    case 'IncidentOpened':
      return `${text(d['event'])} incident opened: ${text(d['cause'])}`;
    case 'IncidentCausedUpstream':
      return `Caused upstream: ${text(d['upstream_monitor_name'])}, which this monitor depends on, was DOWN; nobody was paged`;
    case 'PageScheduled':
      return d['reason'] === 'repage' ? 'Paged again: still open and not acknowledged' : `Page decided (${text(d['reason'])})`;
    case 'PageFannedOut': {
      const count = Array.isArray(d['channel_ids']) ? d['channel_ids'].length : 0;
      return count === 0 ? 'No channel was routed for this page' : `Page sent out to ${count} channel${count === 1 ? '' : 's'}`;
    }
    case 'PageDelivered':
      return `Delivered to ${channel()} (attempt ${text(d['attempt'])})`;
    case 'PageDeliveryFailed':
      return `Delivery to ${channel()} failed (attempt ${text(d['attempt'])}): ${text(d['error'])}; ${d['next_attempt_at'] ? `retrying at ${text(d['next_attempt_at'])}` : 'gave up'}`;
    case 'DeliveryHeld':
      return `Held for quiet hours on ${channel()} until ${wallClock(text(d['until']), text(d['time_zone']))} (${text(d['time_zone'])}, ${text(d['until'])})`;
    case 'IncidentAcknowledged':
      return `Acknowledged by ${text(d['email'])}`;
    case 'IncidentResolved':
      return d['by_kind'] === 'user' ? `Resolved by ${text(d['email'])}` : `Resolved automatically (${text(d['reason'])})`;
    case 'IncidentSuppressed':
      return `${text(d['event'])} held back by maintenance window "${text(d['window_name'])}" (until ${text(d['window_ends_at'])}): ${text(d['cause'])}; nobody was paged`;
    case 'SuppressedIncidentCleared':
      return `Recovered inside the maintenance window (${text(d['reason'])}): no incident opened`;
    case 'RepageHeld':
      return `Repage held by maintenance window "${text(d['window_name'])}" until ${text(d['until'])}`;
    case 'EscalationStarted':
      return `Escalation started by policy "${text(d['policy_name'])}"`;
    case 'EscalationStepReached':
      return `Escalated to step ${Number(d['step']) + 1} of round ${Number(d['round']) + 1}: paged ${Array.isArray(d['channel_ids']) ? d['channel_ids'].length : 0} channel(s)`;
    case 'EscalationStepHeld':
      return `Escalation step ${Number(d['step']) + 1} held by maintenance window "${text(d['window_name'])}" until ${text(d['until'])}`;
    case 'EscalationStopped':
      return `Escalation stopped (${text(d['reason'])})`;
    case 'IncidentNoteAdded':
      return `${d['kind'] === 'postmortem' ? 'Postmortem' : 'Note'} (${text(d['visibility'])}) by ${text(d['email'])}: ${text(d['text'])}`;
    default:
      return e.type;
  }
}

const NOTE = 'IncidentNoteAdded';

const entryOf = (e: AuditEventDocument, channels: Map<string, string>): TimelineEntry => ({ at: e.time, type: e.type, summary: summarize(e, channels), data: e.data });

/** Both lists oldest first, as one: an entry of `added` goes after those of `kept` at the same time or before. */
function mergedByTime(kept: TimelineEntry[], added: TimelineEntry[]): TimelineEntry[] {
  const merged: TimelineEntry[] = [];
  let next = 0;
  for (const entry of kept) {
    while (next < added.length && added[next]!.at < entry.at) merged.push(added[next++]!);
    merged.push(entry);
  }
  return [...merged, ...added.slice(next)];
}

/**
 * One incident's story, oldest first: what caused it (with the monitor's configuration then),
 * each page and its delivery outcome, the acknowledgement, and what resolved it. Read from the
 * history read model and the monitor's pings in the log, so it holds what the log still holds
 * (retention removes old pings).
 */
export async function incidentTimeline(readModels: ReadModelStore, events: EventStore, incidentId: string, projectId: string) {
  const own = await audit(readModels, { incident_id: incidentId });
  const opened = own.find((e) => e.type === 'IncidentOpened');
  const archived = own.find((e) => e.type === 'IncidentArchived');
  if (!opened && archived) {
    // Its monitor was deleted: the timeline is the one archived with it. Its notes are read from
    // its own stream, which it keeps: one written while the archive was being made is not lost.
    const notes = own.filter((e) => e.type === NOTE).map((e) => entryOf(e, new Map()));
    const kept = ((archived.data['timeline'] as TimelineEntry[]) ?? []).filter((e) => e.type !== NOTE);
    return {
      configuration: (archived.data['configuration'] as Record<string, unknown> | null) ?? null,
      entries: mergedByTime(kept, notes),
    };
  }
  if (!opened) return { configuration: null, entries: [] as TimelineEntry[] };
  const monitorId = text(opened.data['monitor_id']);
  const recorded = own.find((e) => e.type === 'IncidentEvidenceRecorded');
  const [settings] = await audit(readModels, { monitor_id: monitorId, type: { $in: ['MonitorCreated', 'MonitorUpdated'] }, position: { $lt: opened.position } }, 1, true);
  const resolved = own.find((e) => e.type === 'IncidentResolved');
  const resolvedBy = resolved && resolved.data['by_kind'] === 'system'
    ? (await observationsBefore(readModels, events, monitorId, resolved.position, 1)).filter((e) => resolved.position - e.position < 10)
    : [];
  const channels = new Map(
    (await readModels.find<ChannelDocument>('notification_channels', { project_id: projectId })).map((s) => [s.doc.id, `channel "${s.doc.name}"`]),
  );
  // The evidence recorded when it opened outlives ping retention; without it, read back the history.
  const evidence: TimelineEntry[] = recorded
    ? (recorded.data['evidence'] as Record<string, unknown>[]).map((o) => {
        const pseudo = { type: text(o['type']), data: (o['data'] ?? {}) as Record<string, unknown> } as AuditEventDocument;
        return { at: text(o['at']), type: pseudo.type, summary: summarize(pseudo, channels), data: pseudo.data };
      })
    : (await causes(readModels, events, opened)).map((e) => ({ at: e.time, type: e.type, summary: summarize(e, channels), data: e.data }));
  const rest = [...own, ...resolvedBy].filter((e) => e.type !== 'IncidentEvidenceRecorded').sort((a, b) => a.position - b.position);
  const seen = new Set<string>();
  const entries = [
    ...evidence,
    ...rest.filter((e) => !seen.has(e.id) && seen.add(e.id)).map((e) => entryOf(e, channels)),
  ];
  const configuration = (recorded?.data['configuration'] as Record<string, unknown> | undefined) ?? (settings?.data['config'] as Record<string, unknown> | undefined) ?? null;
  return { configuration, entries };
}
