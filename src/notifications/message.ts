import type { PageReason } from '../domain/notifications/page.js';
import type { IncidentDocument } from '../../projections/incidents.js';
import type { MonitorDocument } from '../../projections/monitors.js';

export type WebhookEventName = 'incident.opened' | 'incident.acknowledged' | 'incident.resolved' | 'incident.repage';

type MonitorSummary = { id: string; name: string; slug: string; project_id: string; status: string };

/** The webhook body of a page about an incident. */
export interface IncidentPayload {
  event: WebhookEventName;
  incident: IncidentDocument | null;
  monitor: MonitorSummary | null;
  project_id: string;
  occurred_at: string;
}

/**
 * The webhook body of a test message: `test: true` and no `incident` or `monitor` key at all, so
 * no receiver can take it for a page about a real incident (an `"incident": null` could be).
 */
export interface TestPayload {
  event: 'channel.test';
  test: true;
  channel: { id: string; name: string };
  project_id: string;
  occurred_at: string;
}

/** What every channel is told about one page; the webhook body is exactly `payload`. */
export interface PageMessage {
  /** Stable per page and channel: receivers de-duplicate on it. */
  idempotency_key: string;
  reason: PageReason;
  title: string;
  /** The title without emoji, for mail subjects and HTTP headers. */
  subject: string;
  text: string;
  incident_id: string;
  /** What the page is about, for the senders that word it themselves; null in a test message. */
  incident: IncidentDocument | null;
  monitor: MonitorSummary | null;
  occurred_at: string;
  project_id: string;
  payload: IncidentPayload | TestPayload;
}

const EVENT_NAMES: Record<PageReason, WebhookEventName> = {
  opened: 'incident.opened',
  repage: 'incident.repage',
  acknowledged: 'incident.acknowledged',
  resolved: 'incident.resolved',
};

const PLAIN: Record<PageReason, string> = { opened: '', repage: 'Still ', acknowledged: 'Acknowledged ', resolved: 'Resolved ' };

const HEADLINE: Record<PageReason, string> = {
  opened: '🔴',
  repage: '🔁 Still',
  acknowledged: '👀 Acknowledged',
  resolved: '✅ Resolved',
};

export function pageMessage(input: {
  pageId: string;
  channelId: string;
  reason: PageReason;
  incidentId: string;
  projectId: string;
  incident: IncidentDocument | null;
  monitor: MonitorDocument | null;
  occurredAt: string;
}): PageMessage {
  const { incident, monitor, reason } = input;
  const name = monitor?.name ?? incident?.monitor.name ?? 'a monitor';
  const kind = incident?.event ?? 'INCIDENT';
  const title = `${HEADLINE[reason]} ${kind}: ${name}`;
  const summary = monitor ? { id: monitor.id, name: monitor.name, slug: monitor.slug, project_id: monitor.project_id, status: monitor.status } : null;
  const who = reason === 'acknowledged' && incident?.acknowledged_by?.kind === 'user' ? ` by ${incident.acknowledged_by.email}` : '';
  return {
    idempotency_key: `${input.pageId}|${input.channelId}`,
    reason,
    title,
    subject: `[Vigil] ${PLAIN[reason]}${kind}: ${name}`,
    text: `${title}${who}${incident?.cause ? ` — ${incident.cause}` : ''}`,
    incident_id: input.incidentId,
    incident,
    monitor: summary,
    occurred_at: input.occurredAt,
    project_id: input.projectId,
    payload: { event: EVENT_NAMES[reason], incident, monitor: summary, project_id: input.projectId, occurred_at: input.occurredAt },
  };
}

/**
 * A test message to one channel: worded as a test everywhere, sent as a problem page would be
 * (so a channel that pages only on problems shows it), with the test payload as its webhook body.
 */
export function testMessage(input: { channelId: string; channelName: string; projectId: string; occurredAt: string }): PageMessage {
  const title = `🧪 Test message from Vigil for channel "${input.channelName}"`;
  return {
    idempotency_key: `test.${input.occurredAt}|${input.channelId}`,
    reason: 'opened',
    title,
    subject: `[Vigil] Test message for channel "${input.channelName}"`,
    text: `${title}: if you can read this, paging reaches you. No incident is open.`,
    incident_id: `test-${input.channelId}`,
    incident: null,
    monitor: null,
    occurred_at: input.occurredAt,
    project_id: input.projectId,
    payload: { event: 'channel.test', test: true, channel: { id: input.channelId, name: input.channelName }, project_id: input.projectId, occurred_at: input.occurredAt },
  };
}
