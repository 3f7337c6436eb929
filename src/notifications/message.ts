import type { PageReason } from '../domain/notifications/page.js';
import type { IncidentDocument } from '../../projections/incidents.js';
import type { MonitorDocument } from '../../projections/monitors.js';

export type WebhookEventName = 'incident.opened' | 'incident.acknowledged' | 'incident.resolved' | 'incident.repage';

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
  payload: {
    event: WebhookEventName;
    incident: IncidentDocument | null;
    monitor: { id: string; name: string; slug: string; project_id: string; status: string } | null;
    project_id: string;
    occurred_at: string;
  };
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
  const who = reason === 'acknowledged' && incident?.acknowledged_by?.kind === 'user' ? ` by ${incident.acknowledged_by.email}` : '';
  return {
    idempotency_key: `${input.pageId}|${input.channelId}`,
    reason,
    title,
    subject: `[Vigil] ${PLAIN[reason]}${kind}: ${name}`,
    text: `${title}${who}${incident?.cause ? ` — ${incident.cause}` : ''}`,
    incident_id: input.incidentId,
    payload: {
      event: EVENT_NAMES[reason],
      incident,
      monitor: monitor ? { id: monitor.id, name: monitor.name, slug: monitor.slug, project_id: monitor.project_id, status: monitor.status } : null,
      project_id: input.projectId,
      occurred_at: input.occurredAt,
    },
  };
}
