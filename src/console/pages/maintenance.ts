import type { MaintenanceWindowDocument } from '../../../projections/maintenance-windows.js';
import type { MonitorDocument } from '../../../projections/monitors.js';
import type { ProjectDocument } from '../../../projections/projects.js';
import type { ActiveWindow } from '../../domain/maintenance/window.js';
import type { maintenanceWindowBody } from '../../web/representations/maintenance.js';
import { duration, inZone, utc } from '../format.js';
import { type Html, html } from '../html.js';
import { type Viewer, csrfField, page, projectNav } from '../layout.js';

/** A schedule form's values as typed: shown again, with why, when the window is refused. */
export interface MaintenanceDraft {
  name: string;
  kind: 'one_off' | 'recurring';
  starts_at: string;
  lasts: string;
  rrule: string;
  timezone: string;
  monitors: ReadonlySet<string>;
}

export const EMPTY_DRAFT: MaintenanceDraft = { name: '', kind: 'one_off', starts_at: '', lasts: '30m', rrule: '', timezone: 'UTC', monitors: new Set() };

export interface MaintenanceView {
  viewer: Viewer;
  notice: string | null;
  project: ProjectDocument;
  monitors: readonly MonitorDocument[];
  windows: readonly { doc: MaintenanceWindowDocument; shown: ReturnType<typeof maintenanceWindowBody> }[];
  canManage: boolean;
  refused: { error: string; draft: MaintenanceDraft } | null;
}

function when(w: ReturnType<typeof maintenanceWindowBody>): Html {
  if (w.kind === 'recurring') {
    return html`<code>${w.rrule}</code> in ${w.timezone}, for ${duration((w.duration_seconds ?? 0) * 1000)} each time`;
  }
  return html`<time datetime="${w.starts_at}">${utc(w.starts_at!)}</time> to <time datetime="${w.ends_at}">${utc(w.ends_at!)}</time>`;
}

function state(w: ReturnType<typeof maintenanceWindowBody>): Html {
  if (w.status === 'active') return html`<span class="status status-paused">Active</span> until <time datetime="${w.current_ends_at}">${utc(w.current_ends_at!)}</time>`;
  if (w.status === 'upcoming') return html`<span class="status status-waiting">Upcoming</span> from <time datetime="${w.next_starts_at}">${utc(w.next_starts_at!)}</time>`;
  return html`<span class="status status-up">Over</span>${w.ended_at ? html` (ended early at <time datetime="${w.ended_at}">${utc(w.ended_at)}</time>)` : null}`;
}

function windowsTable(v: MaintenanceView): Html {
  if (v.windows.length === 0) return html`<p class="muted">No maintenance window yet.</p>`;
  const names = new Map(v.monitors.map((m) => [m.id, m.name]));
  return html`<div class="table-wrap"><table>
<caption class="visually-hidden">Maintenance windows, oldest first</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Covers</th><th scope="col">When</th><th scope="col">State</th>${v.canManage ? html`<th scope="col"><span class="visually-hidden">Actions</span></th>` : null}</tr></thead>
<tbody>${v.windows.map(({ shown: w }) => html`<tr>
<td>${w.name}</td>
<td>${w.monitor_ids === null ? 'All monitors' : w.monitor_ids.map((id) => names.get(id) ?? id).join(', ')}</td>
<td>${when(w)}</td>
<td>${state(w)}</td>
${v.canManage ? html`<td>${w.status === 'over' ? null : html`<form method="post" action="/projects/${v.project.id}/maintenance/${w.id}/end" class="inline-form">${csrfField(v.viewer)}<button type="submit" class="button button-warning button-small">End now<span class="visually-hidden"> (${w.name})</span></button></form>`}
<form method="post" action="/projects/${v.project.id}/maintenance/${w.id}/cancel" class="inline-form">${csrfField(v.viewer)}<button type="submit" class="button button-secondary button-small">Cancel<span class="visually-hidden"> (${w.name})</span></button></form></td>` : null}
</tr>`)}</tbody></table></div>`;
}

function scheduleForm(v: MaintenanceView): Html {
  const draft = v.refused?.draft ?? EMPTY_DRAFT;
  return html`<form method="post" action="/projects/${v.project.id}/maintenance" id="schedule-form" novalidate>
${csrfField(v.viewer)}
<div class="field"><label for="window-name">Name</label><input type="text" id="window-name" name="name" value="${draft.name}" maxlength="100" required aria-describedby="window-name-hint"><p class="hint" id="window-name-hint">What people see in the incident history, e.g. "Deploy 4.2".</p></div>
<fieldset class="field"><legend>When</legend>
<div class="radio"><input type="radio" id="kind-one-off" name="kind" value="one_off"${draft.kind === 'one_off' ? html` checked` : null}><label for="kind-one-off">Once</label></div>
<div class="field"><label for="window-starts">Starts (UTC)</label><input type="datetime-local" id="window-starts" name="starts_at" value="${draft.starts_at}" aria-describedby="window-starts-hint"><p class="hint" id="window-starts-hint">Leave empty to start now.</p></div>
<div class="radio"><input type="radio" id="kind-recurring" name="kind" value="recurring"${draft.kind === 'recurring' ? html` checked` : null}><label for="kind-recurring">Recurring</label></div>
<div class="field"><label for="window-rrule">Calendar rule (RRULE)</label><input type="text" id="window-rrule" name="rrule" value="${draft.rrule}" maxlength="500" aria-describedby="window-rrule-hint"><p class="hint" id="window-rrule-hint">Daily or coarser, e.g. <code>RRULE:FREQ=WEEKLY;BYDAY=SU;BYHOUR=2;BYMINUTE=0</code> for Sundays at 02:00.</p></div>
<div class="field"><label for="window-timezone">Time zone of the rule</label><input type="text" id="window-timezone" name="timezone" value="${draft.timezone}" maxlength="64" aria-describedby="window-timezone-hint"><p class="hint" id="window-timezone-hint">An IANA time zone such as Europe/Paris.</p></div>
</fieldset>
<div class="field"><label for="window-lasts">Lasts</label><input type="text" id="window-lasts" name="lasts" value="${draft.lasts}" maxlength="10" required aria-describedby="window-lasts-hint"><p class="hint" id="window-lasts-hint">How long (each time, for a recurring window): 90s, 30m, 2h or 1d.</p></div>
<fieldset class="monitor-choice field"><legend>Monitors covered</legend>
<p class="hint">None ticked: every monitor of the project.</p>
<ul>${v.monitors.map((m) => html`<li class="checkbox"><input type="checkbox" id="cover-${m.id}" name="monitor" value="${m.id}"${draft.monitors.has(m.id) ? html` checked` : null}><label for="cover-${m.id}">${m.name}</label></li>`)}</ul>
</fieldset>
<button type="submit" class="button button-primary">Schedule maintenance</button>
</form>`;
}

export function maintenancePage(v: MaintenanceView): Html {
  return page({
    title: `Maintenance · ${v.project.name}`,
    viewer: v.viewer,
    notice: v.notice,
    crumbs: [{ label: v.project.name, href: `/projects/${v.project.id}` }, { label: 'Maintenance' }],
    nav: projectNav(v.project.id, '/maintenance'),
    body: html`<div class="page-head"><div><h1>Maintenance</h1><p class="lede">While a window covers a monitor, nothing pages: what would open an incident is recorded as held back, naming the window, and opens when the window ends if still failing.</p></div></div>
${v.refused ? html`<div class="error-summary" role="alert"><h2>There is a problem</h2><ul><li><a href="#schedule-form">${v.refused.error}</a></li></ul></div>` : null}
<section class="panel" aria-labelledby="windows"><h2 id="windows">Windows</h2>${windowsTable(v)}</section>
${v.canManage
  ? html`<section class="panel" aria-labelledby="schedule"><h2 id="schedule">Schedule a window</h2>${scheduleForm(v)}</section>`
  : html`<p class="muted">Managers of the project schedule and end maintenance windows.</p>`}`,
  });
}

/** What the monitor page shows of maintenance: the window covering it now, and what windows held back. */
export interface MonitorMaintenance {
  current: ActiveWindow | null;
  held: readonly { at: string; event: string; window_name: string; window_ends_at: string; cause: string }[];
  timezone: string;
}

export function monitorMaintenancePanel(v: MonitorMaintenance): Html | null {
  if (v.current === null && v.held.length === 0) return null;
  return html`<section class="panel" aria-labelledby="maintenance"><h2 id="maintenance">Maintenance</h2>
${v.current ? html`<p><span class="status status-paused">In maintenance</span> "${v.current.name}" until <time datetime="${v.current.ends_at}">${inZone(v.current.ends_at, v.timezone)}</time>: nothing pages.</p>` : null}
${v.held.length === 0 ? null : html`<h3>Held back by maintenance windows</h3><ul>${v.held.map((h) => html`<li><time datetime="${h.at}">${utc(h.at)}</time>: ${h.event} held back by "${h.window_name}" (until <time datetime="${h.window_ends_at}">${utc(h.window_ends_at)}</time>): ${h.cause}</li>`)}</ul>`}
</section>`;
}
