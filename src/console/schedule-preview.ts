import { type MonitorType, isTimeZone, isUptimeType, nextExpectedAfter, scheduleProblem, upcomingSlots } from '../domain/monitors/schedule.js';
import { inZone } from './format.js';
import { type Html, html } from './html.js';
import { LABELS, inFormWords } from './monitor-draft.js';

const SHOWN = 5;

/** What a schedule would do from `now`: its next times, or why it cannot be kept, in words. */
export type SchedulePreview = { times: string[]; zone: string; lead: string } | { problem: string } | { note: string };

/** With the same schedule code the monitor itself is kept by, so what is shown is what will be expected. */
export function schedulePreview(type: MonitorType, schedule: string, timezone: string, now: Date): SchedulePreview {
  if (type === 'JOB_BASIC') return { note: 'No schedule: nothing is expected at any time; only the success and failure pings the job sends count.' };
  const zone = timezone.trim();
  if (!isTimeZone(zone)) return { problem: `${LABELS.timezone} must be an IANA time zone such as Europe/Berlin or UTC${zone === '' ? '' : `, not "${zone}"`}` };
  const at = now.toISOString();
  const problem = scheduleProblem(type, schedule, zone, at);
  if (problem !== null) return { problem: inFormWords(problem, type).message };
  const times = upcomingSlots(type, schedule, zone, nextExpectedAfter(type, schedule, zone, at), SHOWN);
  const lead =
    type === 'JOB_CRON'
      ? `The next ${times.length} expected times, in ${zone}:`
      : isUptimeType(type)
        ? `Saved now, it would check at these times (in ${zone}), and on:`
        : `Were a ping to come now, the next ones would be expected by (in ${zone}):`;
  return { times, zone, lead };
}

/** The preview's markup: the form page's and the fragment the form's script fetches as the schedule is typed. */
export function previewMarkup(preview: SchedulePreview): Html {
  if ('note' in preview) return html`<p class="hint">${preview.note}</p>`;
  if ('problem' in preview) return html`<p class="preview-problem"><strong>Not a schedule Vigil can keep:</strong> ${preview.problem}</p>`;
  return html`<p class="hint">${preview.lead}</p><ol class="upcoming" data-preview-times>${preview.times.map((at) => html`<li><time datetime="${at}">${inZone(at, preview.zone)}</time></li>`)}</ol>`;
}
