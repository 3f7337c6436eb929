import type { ProjectDocument } from '../../../projections/projects.js';
import { PROVISIONED_TYPES } from '../../domain/projects/auto-provisioning.js';
import { plural } from '../format.js';
import { type Html, html } from '../html.js';
import { type Viewer, csrfField, page } from '../layout.js';
import { type SettingsFrame, settingsPage } from './settings.js';

const TYPE_NAMES: Record<(typeof PROVISIONED_TYPES)[number], string> = { JOB_HEARTBEAT: 'Heartbeat', JOB_CRON: 'Cron', JOB_BASIC: 'Basic' };

/** A refused form: the message in the form's words, the input at fault, and what was typed. */
export interface Refused {
  error: string;
  field: string | null;
  values: Record<string, string>;
}

function errorSummary(refused: Refused | null): Html | null {
  if (!refused) return null;
  return html`<div class="error-summary" role="alert" aria-labelledby="error-summary-title"><h2 id="error-summary-title">There is a problem</h2>
<ul><li>${refused.field ? html`<a href="#${refused.field}">${refused.error}</a>` : refused.error}</li></ul></div>`;
}

const invalid = (refused: Refused | null, id: string) => (refused?.field === id ? html` aria-invalid="true"` : null);
const fieldClass = (refused: Refused | null, id: string) => (refused?.field === id ? 'field field-error' : 'field');

function nameFields(refused: Refused | null, values: Record<string, string>): Html {
  return html`<div class="${fieldClass(refused, 'project-name')}"><label for="project-name">Project name</label><input type="text" id="project-name" name="name" maxlength="100" value="${values['name'] ?? ''}"${invalid(refused, 'project-name')} required></div>
<div class="${fieldClass(refused, 'project-description')}"><label for="project-description">Description (optional)</label><input type="text" id="project-description" name="description" maxlength="1000" value="${values['description'] ?? ''}"${invalid(refused, 'project-description')}></div>`;
}

export function newProjectPage(v: { viewer: Viewer; refused: Refused | null; canCreate: boolean }): Html {
  const values = v.refused?.values ?? {};
  return page({
    title: 'New project',
    viewer: v.viewer,
    crumbs: [{ label: 'Projects', href: '/' }, { label: 'New project' }],
    body: html`<div class="page-head"><div><h1>New project</h1><p class="lede">A project holds monitors, their channels and groups, and its members. You become its owner.</p></div></div>
${errorSummary(v.refused)}
${v.canCreate
  ? html`<section class="panel narrow-panel" aria-labelledby="new-project-title"><h2 id="new-project-title">Name the project</h2>
<form method="post" action="/new-project" novalidate>${csrfField(v.viewer)}
${nameFields(v.refused, values)}
<div class="form-actions"><button type="submit" class="button button-primary">Create project</button> <a href="/">Cancel</a></div>
</form></section>`
  : html`<div class="panel"><p>Creating a project needs an account key with the manage_projects scope; the key this browser signed in with has none.</p></div>`}`,
  });
}

export interface ProjectSettingsView extends SettingsFrame {
  canManage: boolean;
  canDestroy: boolean;
  refused: Refused | null;
}

/** The form's values of a project as stored. */
export function projectValues(p: ProjectDocument): Record<string, string> {
  const a = p.auto_provisioning;
  return {
    name: p.name, description: p.description,
    ap_enabled: a.enabled ? 'true' : '', ap_max_per_hour: String(a.max_per_hour),
    ap_type: a.defaults.type, ap_schedule: a.defaults.schedule, ap_timezone: a.defaults.timezone, ap_grace: String(a.defaults.grace_period_seconds),
  };
}

export function projectSettingsPage(v: ProjectSettingsView): Html {
  const { project, refused } = v;
  const values = refused?.values ?? projectValues(project);
  const base = `/projects/${project.id}/settings/project`;
  const input = (id: string, name: string, label: string, hint: string, type = 'text') => html`<div class="${fieldClass(refused, id)}"><label for="${id}">${label}</label><p class="hint" id="${id}-hint">${hint}</p>
<input type="${type}" id="${id}" name="${name}" value="${values[name] ?? ''}" aria-describedby="${id}-hint"${invalid(refused, id)}${type === 'number' ? html` inputmode="numeric"` : null}></div>`;
  const form = v.canManage
    ? html`<form method="post" action="${base}" novalidate>${csrfField(v.viewer)}
${nameFields(refused, values)}
<fieldset class="field"><legend>Monitors made by a first ping</legend>
<p class="hint">With this on, a ping to an unknown slug with <code>?create=1</code> makes a monitor with the settings below (as Healthchecks and Cronitor do), so a new job needs no setup first.</p>
<div class="checkbox"><input type="checkbox" id="ap-enabled" name="ap_enabled" value="true"${values['ap_enabled'] ? html` checked` : null}><label for="ap-enabled">Make a monitor for a ping to an unknown slug</label></div>
<div class="form-grid">
${input('ap-max', 'ap_max_per_hour', 'At most, per hour', '1 to 1,000 monitors made this way each hour: a typo in a loop cannot fill the project.', 'number')}
<div class="${fieldClass(refused, 'ap-type')}"><label for="ap-type">Type of monitor</label><p class="hint" id="ap-type-hint">Heartbeat: a ping every interval; cron: on a cron schedule; basic: no schedule, only failures.</p>
<select id="ap-type" name="ap_type" aria-describedby="ap-type-hint">${PROVISIONED_TYPES.map((t) => html`<option value="${t}"${values['ap_type'] === t ? html` selected` : null}>${TYPE_NAMES[t]}</option>`)}</select></div>
${input('ap-schedule', 'ap_schedule', 'Schedule', 'An interval such as 1h or 15m for a heartbeat, a cron expression such as 0 3 * * * for cron.')}
${input('ap-timezone', 'ap_timezone', 'Time zone', 'Of a cron schedule, e.g. Europe/Paris or UTC.')}
${input('ap-grace', 'ap_grace', 'Grace (seconds)', 'How late a ping may be before the monitor is DOWN.', 'number')}
</div></fieldset>
<button type="submit" class="button button-primary">Save project</button>
</form>`
    : html`<dl class="facts"><dt>Name</dt><dd>${project.name}</dd><dt>Description</dt><dd>${project.description || html`<span class="muted">none</span>`}</dd>
<dt>Monitors made by a first ping</dt><dd>${project.auto_provisioning.enabled ? 'on' : 'off'}</dd></dl>
<p class="hint">Changing the project needs the MANAGER role and an account key with the manage_projects scope.</p>`;
  return settingsPage({ ...v, notice: refused ? null : v.notice }, 'project', 'Project', html`${errorSummary(refused)}
<section class="panel narrow-panel" aria-labelledby="project-title"><h2 id="project-title">Project</h2>${form}</section>
${v.canDestroy ? html`<section class="panel narrow-panel danger-panel" aria-labelledby="danger-title"><h2 id="danger-title">Delete the project</h2>
<p class="hint">Deletes the project with every monitor, ping, incident, channel, group and status page in it.</p>
<a class="button button-warning" href="${base}/delete">Delete the project…</a></section>` : null}
<p><a href="/new-project">Create another project</a></p>`);
}

export interface ProjectLoss {
  monitors: number;
  channels: number;
  groups: number;
  statusPages: number;
  members: number;
}

export function deleteProjectPage(v: SettingsFrame & { loss: ProjectLoss }): Html {
  const { project, loss } = v;
  return settingsPage(v, 'project', `Delete ${project.name}`, html`<section class="panel narrow-panel" aria-labelledby="delete-title">
<h2 id="delete-title">Delete the project ${project.name}?</h2>
<p>Everything in it is deleted with it:</p>
<ul class="loss-list">
<li>${plural(loss.monitors, 'monitor')}, with all their pings, check results and incidents; their ping URLs stop working</li>
<li>${plural(loss.channels, 'notification channel')} and ${plural(loss.groups, 'group')}: nothing pages through them any more</li>
<li>${plural(loss.statusPages, 'status page')}: their public addresses answer 404</li>
<li>the membership of ${plural(loss.members, 'member')}, and the project's badge URLs and ping key</li>
</ul>
<p class="warning-text">This cannot be undone.</p>
<form method="post" action="/projects/${project.id}/settings/project/delete" class="form-actions">${csrfField(v.viewer)}<button type="submit" class="button button-warning">Delete the project and everything in it</button> <a href="/projects/${project.id}/settings/project">Cancel</a></form>
</section>`);
}
