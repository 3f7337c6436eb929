import type { ChannelDocument } from '../../projections/notification-channels.js';
import type { IncidentKind } from '../domain/monitors/incidents.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';
import type { TimelineEntry } from '../queries/timeline.js';
import { wallClock } from '../domain/notifications/quiet-hours.js';
import { duration, plural, utc, utcSeconds } from './format.js';
import { type Html, html } from './html.js';
import { NOTE_ENTRY, noteEntry } from './pages/incident-notes.js';
import { escalationPageVerb, escalationWords, handedOverPages } from './escalation-words.js';

/** What an incident of each kind says of its monitor, in words: "Nightly backup: failed". */
export const INCIDENT_WORDS: Record<IncidentKind, string> = {
  MISSED: 'did not check in on time',
  FAILED: 'failed',
  DURATION_HIGH: 'ran longer than expected',
  DURATION_LOW: 'finished sooner than expected',
  SSL_EXPIRING: 'TLS certificate about to expire',
};

/** An incident's title: its monitor's name and what happened to it. */
export function incidentTitle(monitorName: string, kind: IncidentKind): string {
  return `${monitorName}: ${INCIDENT_WORDS[kind]}`;
}

/** One row of the timeline as the console shows it: one event, or one page with the events that made it. */
export interface TimelineRow {
  at: string;
  /** The event type, or `Page` for a page's events told as one. */
  type: string;
  words: string;
  /** Whether a page reached none of its channels (failed or gave up). */
  failed: boolean;
  /** The recorded events behind a page's row, for auditors; empty for any other row. */
  internal: TimelineEntry[];
  entry: TimelineEntry;
}

const PAGING = new Set(['PageScheduled', 'PageFannedOut', 'PageDelivered', 'PageDeliveryFailed', 'DeliveryHeld']);

const PAGE_VERBS: Record<string, string> = {
  opened: 'Paged',
  repage: 'Paged again (still open, not acknowledged):',
  acknowledged: 'Told of the acknowledgement:',
  resolved: 'Told of the resolution:',
};

/** Why Vigil resolved an incident by itself, in words. */
const RESOLVED_BECAUSE: Record<string, string> = {
  SUCCESS_PING: 'a success ping came',
  CHECK_PASSED: 'a check passed',
  DURATION_IN_RANGE: 'a run took the expected time',
  RUN_TOO_SLOW: 'a run then took too long instead',
  CERTIFICATE_RENEWED: 'the certificate was renewed',
  MONITOR_DELETED: 'its monitor was deleted',
  FORCED_UP: 'the monitor was marked UP',
};

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/** The outcome of one page on one channel: delivered (and how long after the page was decided), failing, or under way. */
function channelOutcome(name: string, events: readonly TimelineEntry[], decidedAt: string): { words: string; failed: boolean } {
  const last = events.at(-1);
  if (!last) return { words: `${name}: sending`, failed: false };
  if (last.type === 'DeliveryHeld') return { words: `${name} — ${heldWords(last)}`, failed: false };
  const held = events.find((e) => e.type === 'DeliveryHeld');
  const attempts = Number(last.data['attempt']) || events.filter((e) => e.type !== 'DeliveryHeld').length;
  const tries = attempts > 1 ? ` (attempt ${attempts})` : '';
  const delay = duration(Math.max(0, Date.parse(last.at) - Date.parse(decidedAt)));
  if (last.type === 'PageDelivered' && held) return { words: `${name} — ${heldWords(held)}, then delivered ${delay} after the page${tries}`, failed: false };
  if (last.type === 'PageDelivered') return { words: `${name} — delivered in ${delay}${tries}`, failed: false };
  const next = last.data['next_attempt_at'];
  return {
    words: `${name} — failed${tries}: ${text(last.data['error'])}; ${typeof next === 'string' ? `retrying at ${utc(next)}` : `gave up after ${plural(attempts, 'attempt')}`}`,
    failed: typeof next !== 'string',
  };
}

/** "Held for quiet hours until 07:00 (Europe/Berlin)": the hour they end, on the quiet hours' own clock. */
function heldWords(held: TimelineEntry): string {
  const zone = text(held.data['time_zone']);
  return `held for quiet hours until ${wallClock(text(held.data['until']), zone)} (${zone})`;
}

/** A page's events told as one row: who was paged and what became of each delivery. */
function pageRow(events: readonly TimelineEntry[], channelNames: ReadonlyMap<string, string>, handedOver: ReadonlySet<string>): TimelineRow {
  const scheduled = events.find((e) => e.type === 'PageScheduled');
  const fannedOut = events.find((e) => e.type === 'PageFannedOut');
  const first = scheduled ?? events[0]!;
  const reason = text((scheduled ?? fannedOut)?.data['reason']);
  const pageId = text(first.data['page_id']);
  const verb = escalationPageVerb(pageId) ?? PAGE_VERBS[reason] ?? 'Paged';
  const nameOf = (id: string) => channelNames.get(id) ?? 'a deleted channel';
  let words: string;
  let failed = false;
  if (handedOver.has(pageId)) words = 'Paged nobody directly: the escalation policy pages its steps instead';
  else if (!fannedOut) words = `${verb} nobody yet: the page is waiting to be sent`;
  else {
    const channelIds = Array.isArray(fannedOut.data['channel_ids']) ? fannedOut.data['channel_ids'].map(text) : [];
    if (channelIds.length === 0) words = `${verb} nobody: no channel is routed to this monitor`;
    else {
      const outcomes = channelIds.map((id) => channelOutcome(nameOf(id), events.filter((e) => e.data['channel_id'] === id), first.at));
      words = `${verb} ${outcomes.map((o) => o.words).join('; ')}`;
      failed = outcomes.every((o) => o.failed);
    }
  }
  return { at: first.at, type: 'Page', words, failed, internal: [...events], entry: first };
}

function plainRow(entry: TimelineEntry, entries: readonly TimelineEntry[]): TimelineRow {
  let words = escalationWords(entry, entries) ?? entry.summary;
  if (entry.type === 'IncidentOpened') words = `Opened: ${text(entry.data['cause'])}`;
  if (entry.type === 'IncidentResolved' && entry.data['by_kind'] !== 'user') {
    const reason = text(entry.data['reason']);
    words = `Resolved by Vigil: ${RESOLVED_BECAUSE[reason] ?? reason.toLowerCase().replace(/_/g, ' ')}`;
  }
  return { at: entry.at, type: entry.type, words, failed: false, internal: [], entry };
}

/**
 * The timeline as rows: each page (its PageScheduled, PageFannedOut and deliveries, grouped by
 * page_id) one row in words, at the place of its first event; every other event a row of its own.
 */
export function timelineRows(entries: readonly TimelineEntry[], channelNames: ReadonlyMap<string, string>): TimelineRow[] {
  const pages = new Map<string, TimelineEntry[]>();
  for (const entry of entries) {
    if (!PAGING.has(entry.type)) continue;
    const id = text(entry.data['page_id']);
    pages.set(id, [...(pages.get(id) ?? []), entry]);
  }
  const rows: TimelineRow[] = [];
  const shown = new Set<string>();
  const handedOver = handedOverPages(entries);
  for (const entry of entries) {
    if (!PAGING.has(entry.type)) {
      rows.push(plainRow(entry, entries));
      continue;
    }
    const id = text(entry.data['page_id']);
    if (shown.has(id)) continue;
    shown.add(id);
    rows.push(pageRow(pages.get(id)!, channelNames, handedOver));
  }
  return rows;
}

const EVIDENCE = new Set(['PingReceived', 'CheckCompleted', 'CheckInMissed', 'RunOverdue']);

function kindOf(row: TimelineRow): string {
  if (EVIDENCE.has(row.type)) return 'kind-evidence';
  if (row.type === 'Page' || row.type === 'EscalationStepReached') return 'kind-page';
  if (row.type === 'IncidentAcknowledged' || (row.type === 'IncidentResolved' && row.entry.data['by_kind'] === 'user')) return 'kind-human';
  return 'kind-other';
}

/** The timeline's list: rows in words, a page's recorded events behind a disclosure. */
export function timelineList(entries: readonly TimelineEntry[], channelNames: ReadonlyMap<string, string>): Html {
  return html`<ol class="timeline">${timelineRows(entries, channelNames).map((row) => row.type === NOTE_ENTRY
    ? noteEntry(row.entry)
    : html`<li class="${kindOf(row)}"><time class="when" datetime="${row.at}" title="${row.at}">${utc(row.at)}</time><span class="what${row.failed ? ' page-failed' : ''}">${row.words}</span>${row.internal.length > 0
      ? html`<details class="internal"><summary>Recorded events (${row.internal.length})</summary><ol>${row.internal.map((e) => html`<li><code>${e.type}</code> <time datetime="${e.at}">${utcSeconds(e.at)}</time>: ${e.summary}</li>`)}</ol></details>`
      : html`<span class="type">${row.type}</span>`}</li>`)}</ol>`;
}

/** The names of the project's channels, by id, as a page's row names them. */
export async function channelNames(readModels: ReadModelStore, projectId: string): Promise<Map<string, string>> {
  return new Map((await readModels.find<ChannelDocument>('notification_channels', { project_id: projectId })).map((s) => [s.doc.id, s.doc.name]));
}
