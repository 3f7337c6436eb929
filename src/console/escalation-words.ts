import type { TimelineEntry } from '../queries/timeline.js';
import type { EscalationDocument } from '../../projections/escalations.js';
import { duration, relativeTime, utc } from './format.js';

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

const STOPPED_BECAUSE: Record<string, string> = {
  acknowledged: 'the incident was acknowledged; no later step is paged',
  resolved: 'the incident was resolved; no later step is paged',
  exhausted: 'every step was paged',
};

/** What an incident's escalation events say, in words; null for any other event. */
export function escalationWords(entry: TimelineEntry, entries: readonly TimelineEntry[]): string | null {
  const d = entry.data;
  switch (entry.type) {
    case 'EscalationStarted': {
      const steps = Array.isArray(d['steps']) ? d['steps'].length : 0;
      const repeat = Number(d['repeat']) || 0;
      return `Escalating by policy "${text(d['policy_name'])}": ${steps} step${steps === 1 ? '' : 's'}${repeat > 0 ? `, repeated ${repeat} more time${repeat === 1 ? '' : 's'}` : ''} (as the policy stood now)`;
    }
    case 'EscalationStepReached': {
      const started = entries.find((e) => e.type === 'EscalationStarted');
      const startedAt = text(started?.data['started_at']);
      const offset = startedAt ? Math.max(0, Date.parse(text(d['due_at'])) - Date.parse(startedAt)) : 0;
      const after = offset === 0 ? 'at the start' : `${duration(offset)} after start`;
      const round = Number(d['round']) || 0;
      const name = started ? `${text(started.data['policy_name'])}, ` : '';
      return `Escalated to step ${Number(d['step']) + 1}${round > 0 ? ` (round ${round + 1})` : ''}: ${name}${after}, not acknowledged${d['urgent'] === true ? ' (urgent)' : ''}`;
    }
    case 'EscalationStepHeld':
      return `Step ${Number(d['step']) + 1} held by maintenance window "${text(d['window_name'])}" until ${text(d['until'])}: paged then if still not acknowledged`;
    case 'EscalationStopped':
      return `Escalation stopped: ${STOPPED_BECAUSE[text(d['reason'])] ?? text(d['reason'])}`;
    default:
      return null;
  }
}

/** The opening pages an escalation took over (fanned out to nobody on purpose), by page id. */
export const handedOverPages = (entries: readonly TimelineEntry[]): ReadonlySet<string> =>
  new Set(entries.filter((e) => e.type === 'EscalationStarted').map((e) => text(e.data['page_id'])));

/** "Paged step 2:" for an escalation step's page, or null for any other page. */
export function escalationPageVerb(pageId: string): string | null {
  const match = /\.escalation\.(\d+)\.(\d+)$/.exec(pageId);
  if (!match) return null;
  const round = Number(match[1]);
  return `Paged step ${Number(match[2]) + 1}${round > 0 ? ` (round ${round + 1})` : ''}:`;
}

/** An incident's escalation as the incident page shows it: the policy and the last step paged, then the next step's time or why it stopped. */
export function escalationSummary(e: EscalationDocument, now: Date): { current: string; next: string } {
  const last = e.reached.at(-1);
  const total = e.steps.length;
  const paged = last ? `step ${last.step + 1} of ${total}${last.round > 0 ? ` (round ${last.round + 1})` : ''} paged at ${utc(last.at)}` : 'no step paged yet';
  const next = e.next_at && e.next_step !== null
    ? `step ${e.next_step + 1}${(e.next_round ?? 0) > 0 ? ` (round ${(e.next_round ?? 0) + 1})` : ''} at ${utc(e.next_at)} (${relativeTime(e.next_at, now)}), unless acknowledged`
    : `none: stopped, ${STOPPED_BECAUSE[e.stop_reason ?? ''] ?? 'no step left'}`;
  return { current: `Policy "${e.policy_name}": ${paged}`, next };
}
