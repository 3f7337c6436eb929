import Mustache from 'mustache';
import type { PageMessage } from './message.js';

/**
 * How a templated webhook's `{{field}}` values are written into what it sends. Each value is
 * escaped for where it lands, so a monitor named `say "hi"` cannot break a JSON body or add a
 * query parameter; `{{{field}}}` writes a value as it is, for the template's author to own.
 */
export type Escaping = 'json' | 'form' | 'url' | 'none';

/** The escaping a body of this media type needs: JSON string contents, form encoding, or none. */
export function bodyEscaping(contentType: string): Escaping {
  const media = contentType.split(';')[0]!.trim().toLowerCase();
  if (media === 'application/json' || media.endsWith('+json')) return 'json';
  if (media === 'application/x-www-form-urlencoded') return 'form';
  return 'none';
}

const ESCAPERS: Record<Escaping, (value: unknown) => string> = {
  // The value as the inside of a JSON string, so the template supplies the quotes.
  json: (value) => JSON.stringify(String(value)).slice(1, -1),
  form: (value) => new URLSearchParams({ v: String(value) }).toString().slice(2),
  url: (value) => encodeURIComponent(String(value)),
  none: (value) => String(value),
};

/** The fields a template may use; documented, and kept stable apart from the webhook payload. */
export interface TemplateView {
  event: string;
  reason: string;
  title: string;
  subject: string;
  text: string;
  idempotency_key: string;
  occurred_at: string;
  project_id: string;
  incident: { id: string; event: string; status: string; cause: string; started_at: string; acknowledged_at: string | null; resolved_at: string | null };
  monitor: { id: string; name: string; slug: string; status: string };
}

export function templateView(message: PageMessage): TemplateView {
  const { incident, monitor } = message;
  return {
    event: message.payload.event,
    reason: message.reason,
    title: message.title,
    subject: message.subject,
    text: message.text,
    idempotency_key: message.idempotency_key,
    occurred_at: message.occurred_at,
    project_id: message.project_id,
    incident: {
      id: message.incident_id,
      event: incident?.event ?? '',
      status: incident?.status ?? '',
      cause: incident?.cause ?? '',
      started_at: incident?.started_at ?? '',
      acknowledged_at: incident?.acknowledged_at ?? null,
      resolved_at: incident?.resolved_at ?? null,
    },
    monitor: {
      id: monitor?.id ?? incident?.monitor.id ?? '',
      name: monitor?.name ?? incident?.monitor.name ?? '',
      slug: monitor?.slug ?? incident?.monitor.slug ?? '',
      status: monitor?.status ?? '',
    },
  };
}

/** What a page looks like to a template, for checking one when it is written. */
export const SAMPLE_VIEW: TemplateView = {
  event: 'incident.opened',
  reason: 'opened',
  title: '🔴 FAILED: Nightly "backup"',
  subject: '[Vigil] FAILED: Nightly "backup"',
  text: '🔴 FAILED: Nightly "backup" — 1 failure; last exit code 2',
  idempotency_key: 'page|channel',
  occurred_at: '2026-01-01T00:00:00.000Z',
  project_id: '00000000-0000-4000-8000-000000000000',
  incident: {
    id: '00000000-0000-4000-8000-000000000001',
    event: 'FAILED',
    status: 'OPEN',
    cause: '1 failure; last exit code 2',
    started_at: '2026-01-01T00:00:00.000Z',
    acknowledged_at: '2026-01-01T00:05:00.000Z',
    resolved_at: '2026-01-01T00:10:00.000Z',
  },
  monitor: { id: '00000000-0000-4000-8000-000000000002', name: 'Nightly "backup"', slug: 'nightly-backup', status: 'DOWN' },
};

/** Why a template cannot be used (an unclosed tag, a partial, which nothing supplies), or null. */
export function templateProblem(template: string): string | null {
  let tokens: unknown[];
  try {
    tokens = Mustache.parse(template);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  const partial = (list: unknown[]): boolean => list.some((token) => Array.isArray(token) && (token[0] === '>' || (Array.isArray(token[4]) && partial(token[4] as unknown[]))));
  return partial(tokens) ? 'partials ({{> name}}) are not supported' : null;
}

export function renderTemplate(template: string, view: TemplateView, escaping: Escaping): string {
  return Mustache.render(template, view, {}, { escape: ESCAPERS[escaping] });
}
