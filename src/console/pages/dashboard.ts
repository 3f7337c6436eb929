import type { ProjectDocument } from '../../../projections/projects.js';
import { sparkline } from '../charts.js';
import { TYPE_NAMES, plural, relativeTime } from '../format.js';
import { type Html, html } from '../html.js';
import { STATUS_TEXT, type Viewer, page, projectNav, statusBadge, timeAgo } from '../layout.js';
import { asOfForm } from './past.js';
import { DISPLAY_STATUSES, type DisplayStatus, type MonitorOverview } from '../overview.js';
import { RUNS_SHOWN } from '../../queries/recent-runs.js';
import { isUptimeType } from '../../domain/monitors/schedule.js';

export interface DashboardFilter {
  status: DisplayStatus | null;
  q: string;
}

function nextExpected(o: MonitorOverview, now: Date): Html {
  const { monitor } = o;
  if (monitor.paused) return html`<span class="muted">paused</span>`;
  // Not yet counted: nothing is late before the first ping.
  if (monitor.is_new && !isUptimeType(monitor.type) && monitor.type !== 'JOB_BASIC') return html`<span class="muted">waiting for first ping</span>`;
  if (monitor.type === 'JOB_BASIC' || monitor.next_expected_at === null) return html`<span class="muted">no schedule</span>`;
  const at = monitor.next_expected_at;
  const late = Date.parse(at) < now.getTime();
  return html`<time datetime="${at}" title="${at}">${late ? `was due ${relativeTime(at, now)}` : relativeTime(at, now)}</time>`;
}

/** One monitor's row: the dashboard renders it, and the live stream sends it again when it changes. */
export function monitorRow(o: MonitorOverview, now: Date): Html {
  const { monitor } = o;
  const waitingText = isUptimeType(monitor.type) ? 'Waiting for first check' : STATUS_TEXT.WAITING;
  return html`<tr data-monitor-id="${monitor.id}" data-status="${o.status}"${o.status === 'DOWN' ? html` class="row-down"` : null}>
<td><a class="monitor-name" href="/monitors/${monitor.id}">${monitor.name}</a><span class="monitor-slug">${monitor.slug}</span></td>
<td class="hide-narrow">${TYPE_NAMES[monitor.type]}</td>
<td>${o.status === 'WAITING' ? html`<span class="status status-waiting">${waitingText}</span>` : statusBadge(o.status)}</td>
<td class="nowrap">${timeAgo(o.lastSeenAt, now, relativeTime, isUptimeType(monitor.type) ? 'no check yet' : 'no ping yet')}</td>
<td class="hide-narrow nowrap">${nextExpected(o, now)}</td>
<td class="hide-narrow">${sparkline(o.runs, RUNS_SHOWN)}</td>
<td class="num">${o.openIncidents > 0
  ? html`<a class="count-badge" href="/monitors/${monitor.id}#incidents" aria-label="${plural(o.openIncidents, 'open incident')}">${o.openIncidents}</a>`
  : html`<span class="count-zero" aria-label="no open incidents">0</span>`}</td>
</tr>`;
}

export function statusCounts(overviews: readonly MonitorOverview[]): Record<DisplayStatus, number> {
  const counts = { UP: 0, DEGRADED: 0, LATE: 0, DOWN: 0, MAINTENANCE: 0, PAUSED: 0, WAITING: 0 };
  for (const o of overviews) counts[o.status] += 1;
  return counts;
}

export function matches(o: MonitorOverview, filter: DashboardFilter): boolean {
  if (filter.status !== null && o.status !== filter.status) return false;
  const q = filter.q.trim().toLowerCase();
  return q === '' || o.monitor.name.toLowerCase().includes(q) || o.monitor.slug.toLowerCase().includes(q);
}

/** One collator for every comparison: `localeCompare` with options builds one per call, the dashboard's main cost at 1,000 rows. */
const NAME_ORDER = new Intl.Collator('en', { sensitivity: 'base' });

/** By name, as a person scans a list; the id keeps equal names in a stable order. */
const byName = (a: MonitorOverview, b: MonitorOverview) => NAME_ORDER.compare(a.monitor.name, b.monitor.name) || (a.monitor.id < b.monitor.id ? -1 : a.monitor.id > b.monitor.id ? 1 : 0);

const FILTER_LABELS: Record<DisplayStatus, string> = {
  UP: 'Up', DEGRADED: 'Degraded', LATE: 'Late', DOWN: 'Down', MAINTENANCE: 'In maintenance', PAUSED: 'Paused', WAITING: 'Waiting for first ping',
};

export function dashboardPage(options: {
  viewer: Viewer; project: ProjectDocument; overviews: readonly MonitorOverview[]; filter: DashboardFilter; now: Date; projectCount: number;
  /** What the last action did, said once; whether the caller may add monitors (the POST is gated again). */
  notice?: string | null; canCreate?: boolean;
}): Html {
  const { viewer, project, overviews, filter, now } = options;
  const counts = statusCounts(overviews);
  const shown = overviews.filter((o) => matches(o, filter)).sort(byName);
  const filtered = filter.status !== null || filter.q !== '';
  const newMonitor = `/projects/${project.id}/monitors/new`;
  return page({
    title: project.name,
    viewer,
    notice: options.notice ?? null,
    crumbs: options.projectCount > 1 ? [{ label: 'Projects', href: '/' }, { label: project.name }] : [],
    nav: projectNav(project.id, ''),
    body: html`<div class="page-head"><div><h1>${project.name}</h1>
${project.description ? html`<p class="lede">${project.description}</p>` : html`<p class="lede">${plural(overviews.length, 'monitor')}</p>`}</div>
${options.canCreate ? html`<div class="actions"><a class="button button-primary" href="${newMonitor}">New monitor</a></div>` : null}</div>
<ul class="summary-cards" aria-label="Monitors by status">
${DISPLAY_STATUSES.map((s) => html`<li class="card-${s.toLowerCase()}"><span class="count" data-count="${s}">${counts[s]}</span><span class="label">${FILTER_LABELS[s]}</span></li>`)}
</ul>
<p class="notice" data-live-stopped hidden></p>
<form class="filters" method="get" action="/projects/${project.id}" role="search">
<div class="field"><label for="filter-status">Status</label>
<select id="filter-status" name="status">
<option value=""${filter.status === null ? html` selected` : null}>All</option>
${DISPLAY_STATUSES.map((s) => html`<option value="${s}"${filter.status === s ? html` selected` : null}>${FILTER_LABELS[s]}</option>`)}
</select></div>
<div class="field"><label for="filter-q">Name</label>
<input type="search" id="filter-q" name="q" value="${filter.q}" maxlength="200"></div>
<button type="submit" class="button button-secondary">Filter</button>
${filtered ? html`<a href="/projects/${project.id}">Show all</a>` : null}
</form>
<div class="table-wrap">
<table data-live-source="/projects/${project.id}/events">
<caption class="visually-hidden">Monitors of ${project.name}${filtered ? ` (filtered: ${shown.length} of ${overviews.length})` : ''}</caption>
<thead><tr><th scope="col">Name</th><th scope="col" class="hide-narrow">Type</th><th scope="col">Status</th><th scope="col">Last ping</th><th scope="col" class="hide-narrow">Next expected</th><th scope="col" class="hide-narrow">Last ${RUNS_SHOWN} runs</th><th scope="col" class="num">Open incidents</th></tr></thead>
<tbody>
${shown.map((o) => monitorRow(o, now))}
</tbody>
</table>
${shown.length === 0 ? html`<p class="empty">${filtered
  ? 'No monitor matches this filter.'
  : options.canCreate
    ? html`This project has no monitors yet. <a href="${newMonitor}">Create the first one</a>: a cron job, a heartbeat, or an HTTP, TCP or DNS check.`
    : 'This project has no monitors yet. A member of the project can add them.'}</p>` : null}
</div>
${asOfForm(`/projects/${project.id}`)}`,
  });
}
