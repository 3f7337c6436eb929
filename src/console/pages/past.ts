import { isUptimeType } from '../../domain/monitors/schedule.js';
import type { IncidentActor, IncidentDocument } from '../../../projections/incidents.js';
import type { DeletedMonitorDocument } from '../../../projections/deleted-monitors.js';
import type { MonitorDocument } from '../../../projections/monitors.js';
import type { ProjectDocument } from '../../../projections/projects.js';
import type { TimelineEntry } from '../../queries/timeline.js';
import { incidentTitle, timelineList } from '../timeline.js';
import { TYPE_NAMES, relativeTime, utc } from '../format.js';
import { type Html, html } from '../html.js';
import { type Viewer, incidentBadge, page, projectNav, statusBadge, timeAgo } from '../layout.js';

/**
 * The form that picks the instant to look at, on the project and incident pages: a GET to the
 * same page with `as_of`. A datetime-local field has no zone, so it is read as UTC, and says so.
 */
export function asOfForm(action: string, asOf: string | null = null): Html {
  return html`<form class="as-of-form" method="get" action="${action}">
<div class="field"><label for="as-of">View as it stood at (UTC)</label>
<input type="datetime-local" id="as-of" name="as_of" step="1" required${asOf ? html` value="${asOf.slice(0, 19)}"` : null}></div>
<button type="submit" class="button button-secondary">View the past</button>
</form>`;
}

/**
 * The banner every past view carries, so it is never taken for today. Its parts are flex items
 * spaced by the gap, with no separator between them: one wraps to a line of its own on a phone.
 */
function pastBanner(asOf: string, nowHref: string): Html {
  return html`<div class="past-banner" role="note" aria-label="Viewing the past">
<strong>Viewing the past: as of <time datetime="${asOf}">${utc(asOf)}</time></strong>
<span class="past-local" data-local-time="${asOf}" hidden></span>
<a href="${nowHref}">Back to now</a>
</div>`;
}

export interface PastMonitorRow {
  monitor: MonitorDocument;
  openIncidents: number;
}

/** A monitor deleted since: what its project recorded of it, and its incidents, archived with it. */
export interface DeletedMonitorRow {
  deleted: DeletedMonitorDocument;
  openIncidents: number;
}

/** What the monitor's status was, from its document then alone (no ping history is read). */
function statusThen(m: MonitorDocument): Html {
  if (m.status === 'PAUSED' || m.status === 'DOWN') return statusBadge(m.status);
  return !isUptimeType(m.type) && m.total_pings_received === 0 ? statusBadge('WAITING') : statusBadge('UP');
}

/** Its row: its state then left the log with it; the row says when it was deleted instead. */
function deletedRow({ deleted: d, openIncidents }: DeletedMonitorRow): Html {
  return html`<tr data-monitor-id="${d.id}" data-status="DELETED">
<td><span class="monitor-name">${d.name}</span><span class="monitor-slug">${d.slug}</span></td>
<td class="hide-narrow">${d.type ? TYPE_NAMES[d.type] : html`<span class="muted">not recorded</span>`}</td>
<td><span class="status status-deleted">Deleted since</span> <time class="deleted-since" datetime="${d.removed_from}" title="${d.removed_from}">${utc(d.removed_from)}</time></td>
<td class="hide-narrow nowrap"><span class="muted">not kept</span></td>
<td class="hide-narrow nowrap"><span class="muted">not kept</span></td>
<td class="num">${openIncidents}</td>
</tr>`;
}

export function pastDashboardPage(v: { viewer: Viewer; project: ProjectDocument; asOf: string; rows: PastMonitorRow[]; deleted: DeletedMonitorRow[]; projectCount: number }): Html {
  const { project, asOf } = v;
  const then = new Date(asOf);
  const nowHref = `/projects/${project.id}`;
  return page({
    title: `${project.name} as of ${utc(asOf)}`,
    viewer: v.viewer,
    crumbs: [...(v.projectCount > 1 ? [{ label: 'Projects', href: '/' }] : []), { label: project.name, href: nowHref }, { label: `As of ${utc(asOf)}` }],
    nav: projectNav(project.id, ''),
    body: html`${pastBanner(asOf, nowHref)}
<div class="page-head"><div><h1>${project.name}</h1><p class="lede">Its monitors as they stood then, replayed from the log.</p></div></div>
${asOfForm(nowHref, asOf)}
<div class="table-wrap">
<table class="past-monitors">
<caption class="visually-hidden">Monitors of ${project.name} as of ${utc(asOf)}</caption>
<thead><tr><th scope="col">Name</th><th scope="col" class="hide-narrow">Type</th><th scope="col">Status then</th><th scope="col" class="hide-narrow">Last success</th><th scope="col" class="hide-narrow">Next expected then</th><th scope="col" class="num">Open incidents then</th></tr></thead>
<tbody>${v.rows.map(({ monitor: m, openIncidents }) => html`<tr data-monitor-id="${m.id}" data-status="${m.status}">
<td><span class="monitor-name">${m.name}</span><span class="monitor-slug">${m.slug}</span></td>
<td class="hide-narrow">${TYPE_NAMES[m.type]}</td>
<td>${statusThen(m)}</td>
<td class="hide-narrow nowrap">${timeAgo(m.last_success_at, then, relativeTime, 'none yet')}</td>
<td class="hide-narrow nowrap">${m.paused ? html`<span class="muted">paused</span>` : m.next_expected_at ? html`<time datetime="${m.next_expected_at}" title="${m.next_expected_at}">${utc(m.next_expected_at)}</time>` : html`<span class="muted">no schedule</span>`}</td>
<td class="num">${openIncidents}</td>
</tr>`)}${v.deleted.map(deletedRow)}</tbody>
</table>
${v.rows.length + v.deleted.length === 0 ? html`<p class="empty">No monitor of this project existed then.</p>` : null}
</div>
<p class="omitted">Not shown for the past: the runs of each monitor (their sparklines) and its last ping, which today's pages read from the ping history rather than from the log as it stood; and the state then of a monitor deleted since, whose events left the log with it: it is listed with its name and slug when deleted and its incidents, which were kept. Times relative to the moment viewed. The project's name is today's.</p>`,
  });
}

function actor(by: IncidentActor | null): string {
  if (by === null) return '';
  return by.kind === 'user' ? by.email || `user ${by.user_id}` : `Vigil (${by.reason.toLowerCase().replace(/_/g, ' ')})`;
}

export function pastIncidentPage(v: { viewer: Viewer; incident: IncidentDocument; projectName: string; asOf: string; entries: TimelineEntry[]; channels: ReadonlyMap<string, string> }): Html {
  const { incident: i, asOf } = v;
  const nowHref = `/incidents/${i.id}`;
  return page({
    title: `${incidentTitle(i.monitor.name, i.event)}, as of ${utc(asOf)}`,
    viewer: v.viewer,
    crumbs: [{ label: v.projectName, href: `/projects/${i.project_id}?as_of=${encodeURIComponent(asOf)}` }, { label: i.monitor.name }, { label: 'Incident', href: nowHref }, { label: `As of ${utc(asOf)}` }],
    body: html`${pastBanner(asOf, nowHref)}
<div class="page-head"><div>
<h1>${incidentTitle(i.monitor.name, i.event)} ${incidentBadge(i.status)}</h1>
<p class="lede">${i.cause}</p>
</div></div>
${asOfForm(nowHref, asOf)}
<div class="grid-2 grid-incident">
<section class="panel" aria-labelledby="facts"><h2 id="facts">Summary then</h2>
<dl class="facts">
<dt>Monitor</dt><dd>${i.monitor.name}</dd>
<dt>Started</dt><dd>${utc(i.started_at)}</dd>
<dt>Acknowledged</dt><dd>${i.acknowledged_at ? html`by <strong>${actor(i.acknowledged_by)}</strong>, ${utc(i.acknowledged_at)}` : html`<span class="muted">not yet</span>`}</dd>
<dt>Resolved</dt><dd>${i.resolved_at ? html`by <strong>${actor(i.resolved_by)}</strong>, ${utc(i.resolved_at)}` : html`<span class="muted">not yet</span>`}</dd>
${i.reopened_at ? html`<dt>Reopened</dt><dd>${utc(i.reopened_at)}</dd>` : null}
</dl></section>
<section class="panel" aria-labelledby="timeline"><h2 id="timeline">Timeline up to then</h2>
${v.entries.length === 0
  ? html`<p class="muted">Nothing recorded by then.</p>`
  : timelineList(v.entries, v.channels)}
</section>
</div>`,
  });
}
