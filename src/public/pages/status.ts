import { ASSETS } from '../../console/assets.js';
import { duration, utc } from '../../console/format.js';
import { INCIDENT_WORDS } from '../../console/timeline.js';
import { type Fragment, type Html, html, trustedHtml } from '../../console/html.js';
import type { PublicState } from '../monitor-state.js';
import { type DayFigure, type PublicIncident, type PublicMonitor, type StatusView, barState, dayLabel } from '../status-data.js';

/**
 * A public page: the console's stylesheet and escaping, none of its navigation, session or script.
 * Everything on it works without JavaScript.
 */
export function publicPage(options: { title: string; body: Fragment }): Html {
  return html`${trustedHtml('<!doctype html>')}
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<title>${options.title}</title>
<link rel="icon" href="${ASSETS.favicon.path}" type="image/svg+xml">
<link rel="stylesheet" href="${ASSETS.css.path}">
</head>
<body class="public">
<main id="main" class="status-main">
${options.body}
</main>
</body>
</html>
`;
}

const PAST_SHOWN = 50;

/** The state's words on a status page; the badge says the state itself (`up`, `late`, `maintenance`, …). */
export const STATE_TEXT: Record<PublicState, string> = {
  up: 'Operational', degraded: 'Degraded', late: 'Late', down: 'Down', maintenance: 'Under maintenance', paused: 'Paused', new: 'No data yet',
};

/** What happened, in the public's words (as the console's incident titles): the incident's own cause (error texts, addresses) stays private. */
const KIND_TEXT = INCIDENT_WORDS;

/** The page's banner for its worst state: its tone (a colour) and its words. */
const BANNERS: Record<PublicState, [string, string]> = {
  down: ['down', 'Major outage'],
  late: ['late', 'Some systems are late to report'],
  degraded: ['late', 'Some systems are degraded'],
  maintenance: ['maintenance', 'Under maintenance'],
  up: ['up', 'All systems operational'],
  new: ['none', 'Waiting for the first data'],
  paused: ['none', 'Monitoring is paused'],
};

function banner(view: StatusView): Html {
  const downs = view.monitors.filter((m) => m.state === 'down').length;
  const [tone, text]: [string, string] =
    view.overall === null ? ['none', 'No monitors are shown on this page yet']
      : view.overall === 'down' && downs < view.monitors.length ? ['partial', 'Partial outage']
        : BANNERS[view.overall];
  return html`<div class="status-banner banner-${tone}"><span class="banner-mark" aria-hidden="true"></span><p class="banner-text">${text}</p></div>`;
}

const percentText = (p: number | null) => (p === null ? 'no data' : `${p}% uptime`);

function bar(slug: string, figure: DayFigure): Html {
  const label = dayLabel(figure);
  return html`<li><a class="status-bar bar-${barState(figure)}" href="/status/${slug}/day/${figure.day}" aria-label="${label}" data-label="${label}"></a></li>`;
}

function monitorBlock(view: StatusView, monitor: PublicMonitor, index: number): Html {
  const id = `monitor-${index}`;
  return html`<li class="status-monitor">
<div class="status-monitor-head"><h3 id="${id}">${monitor.name}</h3><span class="state state-${monitor.state}">${STATE_TEXT[monitor.state]}</span></div>
<ol class="status-bars" aria-labelledby="${id} ${id}-range">${monitor.days.map((figure) => bar(view.slug, figure))}</ol>
<div class="status-bars-legend"><span id="${id}-range">${view.days.length} days ago</span><span class="legend-uptime">${percentText(monitor.uptime)}</span><span>Today</span></div>
</li>`;
}

function incidentBlock(incident: PublicIncident): Html {
  const lasted = incident.resolvedAt ? duration(Date.parse(incident.resolvedAt) - Date.parse(incident.startedAt)) : null;
  const title = html`${incident.monitorName} ${KIND_TEXT[incident.kind]}`;
  return html`<li class="status-incident${incident.open ? ' incident-open' : ''}">
<div class="status-incident-head"><h3>${title}</h3><span class="state ${incident.open ? 'state-down' : 'state-up'}">${incident.open ? 'Ongoing' : 'Resolved'}</span></div>
<p class="incident-when">Started <time datetime="${incident.startedAt}">${utc(incident.startedAt)}</time>${incident.resolvedAt
    ? html` · resolved <time datetime="${incident.resolvedAt}">${utc(incident.resolvedAt)}</time> · lasted ${lasted}`
    : null}</p>
${incident.notes.length > 0
    ? html`<ol class="status-notes">${incident.notes.map((note) => html`<li class="note-${note.kind}"><p class="note-meta"><strong>${note.kind === 'postmortem' ? 'Postmortem' : 'Update'}</strong> · <time datetime="${note.added_at}">${utc(note.added_at)}</time></p><p class="note-text">${note.text}</p></li>`)}</ol>`
    : null}
</li>`;
}

function footnote(view: StatusView, now: Date): Html {
  return html`<footer class="status-foot">
<p>Each bar is one day (UTC). ${view.hasUptime ? 'For a website or endpoint it shows the share of that day’s checks that found it up. ' : null}${view.hasJobs
    ? 'For a scheduled job it shows the share of the day not covered by an incident in which the job missed its check-in or failed. '
    : null}Grey days have no data: the monitor did not exist yet or reported nothing.</p>
<p>Updated <time datetime="${now.toISOString()}">${utc(now.toISOString())}</time> · Powered by Vigil</p>
</footer>`;
}

function head(view: StatusView): Html {
  return html`<header class="status-head"><h1>${view.title}</h1>${view.description ? html`<p class="lede">${view.description}</p>` : null}</header>`;
}

/** Maintenance under way and ahead, between the banner and the monitors: names and times only. */
function maintenance(view: StatusView): Html | null {
  if (view.upcomingMaintenance.length === 0) return null;
  return html`<section class="status-section panel" aria-labelledby="maintenance-heading"><h2 id="maintenance-heading">Scheduled maintenance</h2>
<ul class="status-maintenance">${view.upcomingMaintenance.map((w) => html`<li><strong>${w.name}</strong>: ${w.active ? 'under way, until ' : html`<time datetime="${w.startsAt}">${utc(w.startsAt)}</time> to `}<time datetime="${w.endsAt}">${utc(w.endsAt)}</time></li>`)}</ul>
</section>`;
}

export function statusPage(view: StatusView, now: Date): Html {
  const past = view.pastIncidents.slice(0, PAST_SHOWN);
  return publicPage({
    title: view.title,
    body: html`${head(view)}
${banner(view)}
${maintenance(view)}
<section class="status-section" aria-labelledby="monitors-heading">
<h2 id="monitors-heading" class="visually-hidden">Monitors</h2>
${view.monitors.length > 0 ? html`<ul class="status-monitors">${view.monitors.map((m, i) => monitorBlock(view, m, i))}</ul>` : html`<p class="empty panel">Nothing is shown here yet.</p>`}
</section>
${view.openIncidents.length > 0
    ? html`<section class="status-section" aria-labelledby="open-heading"><h2 id="open-heading">Ongoing incidents</h2><ul class="status-incidents">${view.openIncidents.map((i) => incidentBlock(i))}</ul></section>`
    : null}
<section class="status-section" aria-labelledby="past-heading"><h2 id="past-heading">Past incidents</h2>
${past.length > 0 ? html`<ul class="status-incidents">${past.map((i) => incidentBlock(i))}</ul>` : html`<p class="status-empty">No incidents in the last ${view.days.length} days.</p>`}
${view.pastIncidents.length > past.length ? html`<p class="muted">Older incidents are listed on each day’s page (choose a day’s bar).</p>` : null}
</section>
${footnote(view, now)}`,
  });
}

/** "Tuesday, 24 November 2026". */
function longDay(day: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(new Date(`${day}T00:00:00.000Z`));
}

export function statusDayPage(view: StatusView, day: string, incidents: readonly PublicIncident[], now: Date): Html {
  const figures = view.monitors.map((m) => ({ name: m.name, figure: m.days.find((d) => d.day === day) }));
  return publicPage({
    title: `${longDay(day)} · ${view.title}`,
    body: html`<p class="status-back"><a href="/status/${view.slug}">← ${view.title}</a></p>
<header class="status-head"><h1>${longDay(day)}</h1><p class="lede">${view.title}, the day in UTC</p></header>
<section class="status-section" aria-labelledby="day-monitors"><h2 id="day-monitors">Uptime that day</h2>
${figures.length > 0
    ? html`<ul class="status-day-figures">${figures.map(({ name, figure }) => html`<li><span class="day-figure-name">${name}</span><span class="day-figure-swatch bar-${figure ? barState(figure) : 'none'}" aria-hidden="true"></span><span>${figure ? dayLabel(figure).slice(day.length + 2) : 'no data'}</span></li>`)}</ul>`
    : html`<p class="status-empty">Nothing is shown here yet.</p>`}
</section>
<section class="status-section" aria-labelledby="day-incidents"><h2 id="day-incidents">Incidents</h2>
${incidents.length > 0 ? html`<ul class="status-incidents">${incidents.map((i) => incidentBlock(i))}</ul>` : html`<p class="status-empty">No incidents on this day.</p>`}
</section>
${footnote(view, now)}`,
  });
}

/** The plain page of every public 404: the same whatever was not found, and whether it exists elsewhere. */
export function publicNotFound(): Html {
  return publicPage({ title: 'Not found', body: html`<header class="status-head"><h1>Not found</h1><p class="lede">There is no page at this address.</p></header>` });
}
