import type { MonitorDocument } from '../../../projections/monitors.js';
import type { ProjectDocument } from '../../../projections/projects.js';
import { isUptimeType } from '../../domain/monitors/schedule.js';
import { plural } from '../format.js';
import { type Html, html } from '../html.js';
import { type Viewer, csrfField, page } from '../layout.js';

export interface MonitorDeleteView {
  viewer: Viewer;
  project: ProjectDocument;
  monitor: MonitorDocument;
  /** Pings (or checks) its pings stream holds now: what goes. */
  pings: number;
  incidents: number;
  openIncidents: number;
  /** Monitors that depend on it: while there are any, it is not deleted. */
  dependents: readonly { id: string; name: string }[];
}

/** What deleting a monitor loses and keeps, as monitor-deletion.ts does it; the button only where the API would delete it. */
export function monitorDeletePage(v: MonitorDeleteView): Html {
  const m = v.monitor;
  const uptime = isUptimeType(m.type);
  const crumbs = [{ label: v.project.name, href: `/projects/${v.project.id}` }, { label: m.name, href: `/monitors/${m.id}` }, { label: 'Delete' }];
  if (v.dependents.length > 0) {
    return page({
      title: `Delete ${m.name}`,
      viewer: v.viewer,
      crumbs,
      body: html`<section class="panel delete-panel" aria-labelledby="delete-heading"><h1 id="delete-heading">${m.name} cannot be deleted yet</h1>
<p>Other monitors depend on it: deleted, it would no longer hold back their pages during its outages. Take it out of their <em>Depends on</em> first:</p>
<ul class="losses">${v.dependents.map((d) => html`<li><a href="/monitors/${d.id}/edit">Edit ${d.name}</a></li>`)}</ul>
<p><a href="/monitors/${m.id}">Back to ${m.name}</a></p></section>`,
    });
  }
  const history = uptime
    ? html`<li>Its ${plural(v.pings, 'recorded check')}, response times and uptime by day.</li>`
    : html`<li>Its ${plural(v.pings, 'stored ping')}, with their output and run durations.</li>`;
  return page({
    title: `Delete ${m.name}?`,
    viewer: v.viewer,
    crumbs,
    body: html`<section class="panel delete-panel" aria-labelledby="delete-heading"><h1 id="delete-heading">Delete ${m.name}?</h1>
<p>This cannot be undone. Erased for good:</p>
<ul class="losses">
${history}
<li>Its settings and the history of their changes; the audit log's entries of its own events go with them.</li>
${uptime ? null : html`<li>Its ping URLs: a job still pinging them (or the slug <code>${m.slug}</code>, which becomes free) gets "not found".</li>`}
</ul>
<p>Kept:</p>
<ul class="losses">
<li>${v.incidents === 0 ? 'It has no incidents.' : v.incidents === 1 ? 'Its incident, archived with its timeline: it stays readable in the project\'s history.' : html`Its ${plural(v.incidents, 'incident')}, archived with their timelines: they stay readable in the project's history.`}${v.openIncidents > 0 ? html` <strong>${plural(v.openIncidents, 'open incident')} ${v.openIncidents === 1 ? 'is' : 'are'} resolved in your name first</strong>, and the channels it pages are told.` : null}</li>
<li>The project's audit log records who deleted it, and when.</li>
</ul>
<form method="post" action="/monitors/${m.id}/delete" class="form-actions">${csrfField(v.viewer)}
<button type="submit" class="button button-warning">Delete ${m.name}</button>
<a href="/monitors/${m.id}">Cancel, keep it</a>
</form></section>`,
  });
}
