import type { ChannelDocument } from '../../../projections/notification-channels.js';
import type { GroupDocument } from '../../../projections/notification-groups.js';
import { type Html, html } from '../html.js';
import { csrfField } from '../layout.js';
import { type SettingsFrame, settingsPage } from './settings.js';

interface Named {
  id: string;
  name: string;
}

export interface GroupSummary {
  group: GroupDocument;
  channels: Named[];
  monitors: Named[];
}

export interface GroupsView extends SettingsFrame {
  groups: GroupSummary[];
  canWrite: boolean;
  /** What a refused create form held, and why. */
  refused: { error: string; field: 'name' | 'description' | null; name: string; description: string } | null;
}

const base = (v: SettingsFrame) => `/projects/${v.project.id}/settings`;
const links = (items: Named[], href: (id: string) => string) => html`${items.map((m, i) => html`${i > 0 ? ', ' : ''}<a href="${href(m.id)}">${m.name}</a>`)}`;

function errorSummary(error: string, target: string | null): Html {
  return html`<div class="error-summary" role="alert" aria-labelledby="error-summary-title"><h2 id="error-summary-title">There is a problem</h2>
<ul><li>${target ? html`<a href="#${target}">${error}</a>` : error}</li></ul></div>`;
}

export function groupsPage(v: GroupsView): Html {
  const r = v.refused;
  const cards = v.groups.map(({ group: g, channels, monitors }) => html`<li class="group-card" data-group-id="${g.id}">
<div class="group-card-head"><h3><a href="${base(v)}/groups/${g.id}">${g.name}</a>${g.is_default ? html` <span class="tag">default</span>` : null}</h3>
${v.canWrite ? html`<a class="button button-small button-secondary" href="${base(v)}/groups/${g.id}">Edit<span class="visually-hidden"> ${g.name}</span></a>` : null}</div>
${g.description ? html`<p class="hint">${g.description}</p>` : null}
<dl class="facts">
<dt>Channels</dt><dd>${channels.length === 0 ? html`<span class="muted">none: it pages no one</span>` : links(channels, (id) => `${base(v)}/channels/${id}/edit`)}</dd>
<dt>Used by</dt><dd>${monitors.length === 0
  ? html`<span class="muted">no monitor</span>${v.canWrite ? html` · <a href="${base(v)}/groups/${g.id}#monitors-title">Route monitors to it</a>` : null}`
  : links(monitors, (id) => `/monitors/${id}`)}</dd>
</dl></li>`);
  const create = v.canWrite
    ? html`<section class="panel" aria-labelledby="new-group-title"><h2 id="new-group-title">New group</h2>
<form method="post" action="${base(v)}/groups" novalidate>${csrfField(v.viewer)}
<div class="form-grid">
<div class="field${r?.field === 'name' ? ' field-error' : ''}"><label for="group-name">Group name</label><input type="text" id="group-name" name="name" maxlength="100" value="${r?.name ?? ''}"${r?.field === 'name' ? html` aria-invalid="true"` : null} required></div>
<div class="field${r?.field === 'description' ? ' field-error' : ''}"><label for="group-description">Description (optional)</label><input type="text" id="group-description" name="description" maxlength="500" value="${r?.description ?? ''}"${r?.field === 'description' ? html` aria-invalid="true"` : null}></div>
</div>
<button type="submit" class="button button-primary">Create group</button></form>
<p class="hint">Then choose its channels and the monitors that page through it.</p></section>`
    : html`<p class="hint">Creating and changing groups needs the MANAGER role or higher and an account key with the manage_notifications scope.</p>`;
  return settingsPage(v, 'groups', 'Groups', html`${r ? errorSummary(r.error, r.field ? `group-${r.field}` : null) : null}
<section class="panel" aria-labelledby="groups-title"><h2 id="groups-title">Notification groups</h2>
<p class="hint">A group is a set of channels that monitors page together, such as “On call” or “Team chat”. A monitor pages the channels of every group it is routed to.</p>
${v.groups.length === 0 ? html`<p class="empty">No groups yet.</p>` : html`<ul class="group-cards">${cards}</ul>`}
</section>
${create}`);
}

export interface GroupView extends SettingsFrame {
  group: GroupDocument;
  channels: ChannelDocument[];
  monitors: (Named & { routed: boolean })[];
  canWrite: boolean;
  canRoute: boolean;
  canDestroy: boolean;
  /** What a refused form held (`details` or `monitors`), and why. */
  refused: { error: string; field: 'name' | 'description' | null; name: string; description: string } | null;
}

export function groupPage(v: GroupView): Html {
  const { group: g } = v;
  const r = v.refused;
  const path = `${base(v)}/groups/${g.id}`;
  const attached = new Set(g.channel_ids);
  const details = v.canWrite
    ? html`<form method="post" action="${path}" novalidate>${csrfField(v.viewer)}
<div class="form-grid">
<div class="field${r?.field === 'name' ? ' field-error' : ''}"><label for="group-name">Group name</label><input type="text" id="group-name" name="name" maxlength="100" value="${r ? r.name : g.name}"${r?.field === 'name' ? html` aria-invalid="true"` : null} required></div>
<div class="field${r?.field === 'description' ? ' field-error' : ''}"><label for="group-description">Description (optional)</label><input type="text" id="group-description" name="description" maxlength="500" value="${r ? r.description : g.description}"${r?.field === 'description' ? html` aria-invalid="true"` : null}></div>
</div>
<fieldset class="field"><legend>Channels it pages</legend>
${v.channels.length === 0 ? html`<p class="muted">This project has no channels yet. <a href="${base(v)}/channels">Add one</a>.</p>` : html`<ul class="check-list">${v.channels.map((c) => html`<li><input type="checkbox" id="channel-${c.id}" name="channel" value="${c.id}"${attached.has(c.id) ? html` checked` : null}><label for="channel-${c.id}">${c.name}</label></li>`)}</ul>`}
</fieldset>
<div class="field checkbox"><input type="checkbox" id="group-default" name="is_default" value="true"${g.is_default ? html` checked` : null}><label for="group-default">Default group: new monitors page it unless they name others</label></div>
<button type="submit" class="button button-primary">Save group</button>
</form>`
    : html`<dl class="facts"><dt>Channels</dt><dd>${v.channels.filter((c) => attached.has(c.id)).map((c) => c.name).join(', ') || 'none'}</dd></dl>`;
  const routed = v.monitors.filter((m) => m.routed);
  const monitors = v.canRoute
    ? html`<form method="post" action="${path}/monitors">${csrfField(v.viewer)}
<fieldset class="field"><legend>Monitors that page through ${g.name}</legend>
${v.monitors.length === 0 ? html`<p class="muted">This project has no monitors yet.</p>` : html`<ul class="check-list">${v.monitors.map((m) => html`<li><input type="checkbox" id="monitor-${m.id}" name="monitor" value="${m.id}"${m.routed ? html` checked` : null}><label for="monitor-${m.id}">${m.name}</label></li>`)}</ul>`}
</fieldset>
<button type="submit" class="button button-secondary">Save monitors</button>
</form>`
    : html`<p>${routed.length === 0 ? html`<span class="muted">No monitor pages through it.</span>` : links(routed, (id) => `/monitors/${id}`)}</p>
<p class="hint">Routing monitors needs the MANAGER role and the manage_monitors scope.</p>`;
  return settingsPage({ ...v, notice: r ? null : v.notice }, 'groups', g.name, html`${r ? errorSummary(r.error, r.field ? `group-${r.field}` : null) : null}
<section class="panel narrow-panel" aria-labelledby="group-title"><h2 id="group-title">Group ${g.name}</h2>
${details}</section>
<section class="panel narrow-panel" aria-labelledby="monitors-title"><h2 id="monitors-title">Monitors</h2>
<p class="hint">Each monitor ticked here pages every channel of the group when it opens, repages or resolves an incident (as the monitor's own settings say).</p>
${monitors}</section>
${v.canDestroy ? html`<p><a class="button button-warning" href="${path}/delete">Delete the group…</a></p>` : null}
<p><a href="${base(v)}/groups">All groups</a></p>`);
}

export function deleteGroupPage(v: SettingsFrame & { group: GroupDocument; monitors: Named[]; channels: Named[] }): Html {
  const { group: g } = v;
  return settingsPage(v, 'groups', `Delete ${g.name}`, html`<section class="panel narrow-panel" aria-labelledby="delete-title">
<h2 id="delete-title">Delete the group ${g.name}?</h2>
${v.monitors.length > 0
  ? html`<p>${links(v.monitors, (id) => `/monitors/${id}`)} ${v.monitors.length === 1 ? 'is routed to it and stops' : 'are routed to it and stop'} paging its channels${v.channels.length > 0 ? html` (${v.channels.map((c) => c.name).join(', ')})` : null}.</p>
<p class="warning-text">A monitor left with no group or channel pages no one.</p>`
  : html`<p>No monitor is routed to it.</p>`}
<p>The channels themselves are kept. This cannot be undone.</p>
<form method="post" action="${base(v)}/groups/${g.id}/delete" class="form-actions">${csrfField(v.viewer)}<button type="submit" class="button button-warning">Delete the group</button> <a href="${base(v)}/groups/${g.id}">Cancel</a></form>
</section>`);
}
