import type { IncidentActor, IncidentDocument } from '../../../projections/incidents.js';
import type { EscalationDocument } from '../../../projections/escalations.js';
import { escalationSummary } from '../escalation-words.js';
import type { TimelineEntry } from '../../queries/timeline.js';
import { relativeTime, utc } from '../format.js';
import { type Html, html } from '../html.js';
import { asOfForm } from './past.js';
import { type Viewer, csrfField, incidentBadge, page, timeAgo } from '../layout.js';
import { type NoteFormError, noteForm } from './incident-notes.js';
import { incidentTitle, timelineList } from '../timeline.js';

export interface IncidentView {
  viewer: Viewer;
  /** What the last action did, said once. */
  notice: string | null;
  incident: IncidentDocument;
  projectName: string;
  entries: TimelineEntry[];
  /** The project's channels by id, as the timeline names them. */
  channels: ReadonlyMap<string, string>;
  canAct: boolean;
  /** False once its monitor is deleted: the incident is archived and can no longer change. */
  monitorExists: boolean;
  now: Date;
  /** A note sent back to be corrected. */
  noteError?: NoteFormError | null;
  /** Its escalation, when its monitor pages through a policy. */
  escalation?: EscalationDocument | null;
}

function actor(by: IncidentActor | null): string {
  if (by === null) return '';
  return by.kind === 'user' ? by.email || `user ${by.user_id}` : `Vigil (${by.reason.toLowerCase().replace(/_/g, ' ')})`;
}

const escalationFacts = (summary: { current: string; next: string }) => html`<dt>Escalation</dt><dd>${summary.current}</dd><dt>Next step</dt><dd>${summary.next}</dd>`;

export function incidentPage(v: IncidentView): Html {
  const { incident: i, now } = v;
  const action = (path: string, label: string, cls: string) =>
    html`<form method="post" action="/incidents/${i.id}/${path}">${csrfField(v.viewer)}<button type="submit" class="button ${cls}">${label}</button></form>`;
  const actions = v.canAct && v.monitorExists && i.status !== 'RESOLVED'
    ? html`<div class="actions">${i.status === 'OPEN' ? action('acknowledge', 'Acknowledge', 'button-primary') : null}${action('resolve', 'Resolve', i.status === 'OPEN' ? 'button-secondary' : 'button-primary')}</div>`
    : v.monitorExists && !v.canAct
      ? html`<p class="hint">${i.status === 'RESOLVED' ? 'Writing a postmortem needs' : 'Acknowledging, resolving and adding notes need'} the MEMBER role or higher on this project, and a key with the manage_monitors scope.</p>`
      : null;
  return page({
    title: incidentTitle(i.monitor.name, i.event),
    viewer: v.viewer,
    notice: v.notice,
    crumbs: [{ label: v.projectName, href: `/projects/${i.project_id}` }, { label: i.monitor.name, ...(v.monitorExists ? { href: `/monitors/${i.monitor_id}` } : {}) }, { label: 'Incident' }],
    body: html`<div class="page-head"><div>
<h1>${incidentTitle(i.monitor.name, i.event)} ${incidentBadge(i.status)}</h1>
<p class="lede">${i.cause}</p>
</div>${actions}</div>
<div class="grid-2 grid-incident">
<section class="panel" aria-labelledby="facts"><h2 id="facts">Summary</h2>
<dl class="facts">
<dt>Monitor</dt><dd>${v.monitorExists ? html`<a href="/monitors/${i.monitor_id}">${i.monitor.name}</a>` : html`${i.monitor.name} <span class="muted">(deleted; this record is archived)</span>`}</dd>
<dt>Started</dt><dd>${utc(i.started_at)} (${timeAgo(i.started_at, now, relativeTime)})</dd>
<dt>Acknowledged</dt><dd>${i.acknowledged_at ? html`by <strong>${actor(i.acknowledged_by)}</strong>, ${utc(i.acknowledged_at)}` : html`<span class="muted">not yet</span>`}</dd>
<dt>Resolved</dt><dd>${i.resolved_at ? html`by <strong>${actor(i.resolved_by)}</strong>, ${utc(i.resolved_at)}` : html`<span class="muted">not yet</span>`}</dd>
${v.escalation ? escalationFacts(escalationSummary(v.escalation, now)) : null}
${i.reopened_at ? html`<dt>Reopened</dt><dd>${utc(i.reopened_at)}</dd>` : null}
${i.caused_upstream ? html`<dt>Caused upstream</dt><dd><a href="/monitors/${i.caused_upstream.monitor_id}">${i.caused_upstream.name}</a>, which this monitor depends on, was DOWN when it opened: nobody was paged</dd>` : null}
</dl></section>
<section class="panel" aria-labelledby="timeline"><h2 id="timeline">Timeline</h2>
${v.entries.length === 0
  ? html`<p class="muted">Nothing recorded.</p>`
  : timelineList(v.entries, v.channels)}
</section>
</div>
${noteForm({ viewer: v.viewer, incident: i, canAct: v.canAct, monitorExists: v.monitorExists, error: v.noteError ?? null })}

${asOfForm(`/incidents/${i.id}`)}`,
  });
}
