import type { ChannelDocument } from '../../../projections/notification-channels.js';
import type { GroupDocument } from '../../../projections/notification-groups.js';
import type { ProjectDocument } from '../../../projections/projects.js';
import type { ChannelType } from '../../domain/notifications/channel.js';
import { relativeTime } from '../format.js';
import { type Fragment, type Html, html } from '../html.js';
import { type Viewer, csrfField, page, timeAgo } from '../layout.js';

/** A field of a channel type's config, as `GET /v1/notification-channels/types` describes it. */
export interface ConfigField {
  type: string;
  required: boolean;
  secret: boolean;
  description: string;
}

export interface ChannelTypeInfo {
  type: ChannelType;
  name: string;
  schema: Record<string, ConfigField>;
}

export const SETTINGS_PAGES = [
  { path: 'channels', label: 'Notifications' },
  { path: 'keys', label: 'API keys' },
  { path: 'members', label: 'Members' },
] as const;
export type SettingsPage = (typeof SETTINGS_PAGES)[number]['path'];

export interface SettingsFrame {
  viewer: Viewer;
  project: ProjectDocument;
  notice: string | null;
  /** A failure to show at the top of the page, e.g. a test message that did not arrive. */
  problem?: string | null;
}

export function settingsPage(frame: SettingsFrame, current: SettingsPage, title: string, body: Fragment): Html {
  const { project } = frame;
  return page({
    title: `${title} · ${project.name}`,
    viewer: frame.viewer,
    notice: frame.notice,
    crumbs: [{ label: project.name, href: `/projects/${project.id}` }, { label: 'Settings', href: `/projects/${project.id}/settings` }, { label: title }],
    project: { id: project.id, current: '/settings' },
    body: html`<div class="page-head"><div><h1>Settings</h1><p class="lede">Notifications, API keys and members of ${project.name}.</p></div></div>
<nav aria-label="Settings" class="settings-tabs"><ul>${SETTINGS_PAGES.map((p) =>
  html`<li><a href="/projects/${project.id}/settings/${p.path}"${p.path === current ? html` aria-current="page"` : null}>${p.label}</a></li>`)}</ul></nav>
${frame.problem ? html`<div class="error-summary" role="alert"><h2>There is a problem</h2><p>${frame.problem}</p></div>` : null}
${body}`,
  });
}

export const postButton = (viewer: Viewer, action: string, label: string, cls = 'button-secondary', hidden: Fragment = null) =>
  html`<form method="post" action="${action}" class="inline-form">${csrfField(viewer)}${hidden}<button type="submit" class="button button-small ${cls}">${label}</button></form>`;

export interface ChannelsView extends SettingsFrame {
  channels: ChannelDocument[];
  groups: GroupDocument[];
  /** Which monitors page each group, by group id. */
  monitorsOfGroup: Map<string, { id: string; name: string }[]>;
  types: ChannelTypeInfo[];
  canWrite: boolean;
  canDestroy: boolean;
  now: Date;
}

/** A channel's settings as the API shows them: which fields are set, never their values. */
function configSummary(channel: ChannelDocument, types: ChannelTypeInfo[]): Html {
  const schema = types.find((t) => t.type === channel.type)?.schema ?? {};
  if (channel.config_fields.length === 0) return html`<span class="muted">none</span>`;
  return html`<ul class="config-fields">${channel.config_fields.map((f) =>
    html`<li><code>${f}</code> ${schema[f]?.secret ? html`<span class="masked" aria-label="set, hidden">••••••</span>` : html`<span class="muted">set</span>`}</li>`)}</ul>`;
}

function deliveryState(channel: ChannelDocument, now: Date): Html {
  if (channel.last_error) return html`<span class="delivery-failed">Last delivery failed: ${channel.last_error}</span>`;
  return timeAgo(channel.last_delivery_at, now, relativeTime, 'no page sent yet');
}

export function channelsPage(v: ChannelsView): Html {
  const { project, viewer } = v;
  const base = `/projects/${project.id}/settings`;
  const typeName = (type: ChannelType) => v.types.find((t) => t.type === type)?.name ?? type;
  const channelTable = v.channels.length === 0
    ? html`<p class="empty">No notification channels yet.${v.canWrite ? ' Add one below: a webhook, Slack, email and more.' : ''}</p>`
    : html`<div class="table-wrap"><table>
<caption class="visually-hidden">Notification channels of ${project.name}</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Settings</th><th scope="col">Last page</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${v.channels.map((c) => html`<tr data-channel-id="${c.id}">
<td><strong>${c.name}</strong>${c.is_default ? html` <span class="tag">default</span>` : null}${c.enabled ? null : html` <span class="tag tag-off">disabled</span>`}</td>
<td>${typeName(c.type)}</td>
<td>${configSummary(c, v.types)}</td>
<td>${deliveryState(c, v.now)}</td>
<td class="row-actions">${v.canWrite ? postButton(viewer, `${base}/channels/${c.id}/test`, 'Send test message') : null}${v.canDestroy ? postButton(viewer, `${base}/channels/${c.id}/delete`, 'Delete', 'button-warning') : null}</td>
</tr>`)}</tbody></table></div>`;
  const addChannel = v.canWrite
    ? html`<form class="filters add-form" method="get" action="${base}/channels/new">
<div class="field"><label for="new-channel-type">Channel type</label>
<select id="new-channel-type" name="type">${v.types.map((t) => html`<option value="${t.type}">${t.name}</option>`)}</select></div>
<button type="submit" class="button button-primary">Add a channel</button></form>`
    : html`<p class="hint">Adding, testing and attaching channels needs the MANAGER role or higher and an account key with the manage_notifications scope; deleting needs the OWNER role and the destroy scope.</p>`;
  const groups = v.groups.map((g) => {
    const attached = v.channels.filter((c) => g.channel_ids.includes(c.id));
    const attachable = v.channels.filter((c) => !g.channel_ids.includes(c.id));
    const monitors = v.monitorsOfGroup.get(g.id) ?? [];
    return html`<section class="group" aria-labelledby="group-${g.id}"><h3 id="group-${g.id}">${g.name}${g.is_default ? html` <span class="tag">default</span>` : null}</h3>
${g.description ? html`<p class="hint">${g.description}</p>` : null}
<dl class="facts">
<dt>Channels</dt><dd>${attached.length === 0 ? html`<span class="muted">none attached</span>` : html`<ul class="chips">${attached.map((c) => html`<li>${c.name}${v.canWrite ? postButton(viewer, `${base}/groups/${g.id}/detach`, 'Detach', 'button-quiet', html`<input type="hidden" name="channel_id" value="${c.id}">`) : null}</li>`)}</ul>`}</dd>
<dt>Used by</dt><dd>${monitors.length === 0 ? html`<span class="muted">no monitor</span>` : html`${monitors.map((m, i) => html`${i > 0 ? ', ' : ''}<a href="/monitors/${m.id}">${m.name}</a>`)}`}</dd>
</dl>
${v.canWrite && attachable.length > 0
  ? html`<form method="post" action="${base}/groups/${g.id}/attach" class="filters attach-form">${csrfField(viewer)}
<div class="field"><label for="attach-${g.id}">Channel to attach</label><select id="attach-${g.id}" name="channel_id">${attachable.map((c) => html`<option value="${c.id}">${c.name}</option>`)}</select></div>
<button type="submit" class="button button-secondary">Attach</button></form>`
  : null}
</section>`;
  });
  const newGroup = v.canWrite
    ? html`<form method="post" action="${base}/groups" class="filters add-form">${csrfField(viewer)}
<div class="field"><label for="group-name">Group name</label><input type="text" id="group-name" name="name" maxlength="100" required></div>
<div class="field"><label for="group-description">Description (optional)</label><input type="text" id="group-description" name="description" maxlength="500"></div>
<button type="submit" class="button button-primary">Create group</button></form>`
    : null;
  return settingsPage(v, 'channels', 'Notifications', html`<section class="panel" aria-labelledby="channels-title"><h2 id="channels-title">Notification channels</h2>
<p class="hint">Where pages go. Secret settings (webhook URLs, tokens) are never shown again once saved.</p>
${channelTable}
${addChannel}
</section>
<section class="panel" aria-labelledby="groups-title"><h2 id="groups-title">Notification groups</h2>
<p class="hint">A monitor pages the channels of the groups it names.</p>
${v.groups.length === 0 ? html`<p class="empty">No notification groups yet.</p>` : groups}
${newGroup}
</section>`);
}

export interface NewChannelView extends SettingsFrame {
  type: ChannelTypeInfo;
  /** What was typed, when the form comes back with an error (secret fields are never sent back). */
  values: Record<string, string>;
  error: { field: string | null; message: string } | null;
}

/** How a config field is typed into a form: objects and lists one entry a line. */
function configInput(name: string, field: ConfigField, value: string, invalid: boolean): Html {
  const id = `config-${name}`;
  const described = html` aria-describedby="${id}-hint"${invalid ? html` aria-invalid="true"` : null}`;
  if (field.type === 'object' || field.type.startsWith('array')) {
    return html`<textarea id="${id}" name="config_${name}" rows="3"${described}>${value}</textarea>`;
  }
  const type = field.secret ? 'password' : field.type === 'url' ? 'url' : field.type === 'integer' ? 'number' : 'text';
  return html`<input type="${type}" id="${id}" name="config_${name}" value="${field.secret ? '' : value}" autocomplete="off" spellcheck="false"${field.required ? html` required` : null}${described}>`;
}

function fieldHint(field: ConfigField): string {
  const lines = field.type === 'object' ? ' One header a line, as Name: value.' : field.type.startsWith('array') ? ' One a line.' : '';
  return `${field.description}.${lines}${field.secret ? ' Kept secret: never shown again once saved.' : ''}`;
}

export function newChannelPage(v: NewChannelView): Html {
  const { project, viewer, type, error } = v;
  const base = `/projects/${project.id}/settings`;
  return settingsPage({ ...v, notice: null }, 'channels', `New ${type.name} channel`, html`${error
  ? html`<div class="error-summary" role="alert" aria-labelledby="error-summary-title"><h2 id="error-summary-title">There is a problem</h2>
<ul><li>${error.field ? html`<a href="#${error.field === 'name' ? 'channel-name' : `config-${error.field}`}">${error.message}</a>` : error.message}</li></ul></div>`
  : null}
<section class="panel narrow-panel" aria-labelledby="new-channel-title"><h2 id="new-channel-title">New ${type.name} channel</h2>
<form method="post" action="${base}/channels" novalidate>${csrfField(viewer)}
<input type="hidden" name="type" value="${type.type}">
<div class="field"><label for="channel-name">Name</label><input type="text" id="channel-name" name="name" maxlength="100" value="${v.values['name'] ?? ''}" required></div>
${Object.entries(type.schema).map(([name, field]) => html`<div class="field${error?.field === name ? ' field-error' : ''}">
<label for="config-${name}">${name}${field.required ? null : html` <span class="muted">(optional)</span>`}</label>
<p class="hint" id="config-${name}-hint">${fieldHint(field)}</p>
${configInput(name, field, v.values[`config_${name}`] ?? '', error?.field === name)}
</div>`)}
<div class="field checkbox"><input type="checkbox" id="channel-default" name="is_default" value="true"${v.values['is_default'] ? html` checked` : null}><label for="channel-default">Default channel: new monitors page it unless they name others</label></div>
<div class="form-actions"><button type="submit" class="button button-primary">Create channel</button> <a href="${base}/channels">Cancel</a></div>
</form></section>`);
}

/** After a webhook channel is made: its generated signing secret, this once. */
export function channelCreatedPage(v: SettingsFrame & { channel: { id: string; name: string }; signingSecret: string }): Html {
  const base = `/projects/${v.project.id}/settings`;
  return settingsPage({ ...v, notice: `Channel ${v.channel.name} created.` }, 'channels', 'Channel created', html`<section class="panel narrow-panel once" aria-labelledby="secret-title">
<h2 id="secret-title">Signing secret of ${v.channel.name}</h2>
<p class="warning-text"><strong>Copy it now: it is shown this once and never again.</strong> Your receiver verifies each delivery's signature with it (Standard Webhooks).</p>
<div class="copy-row"><code id="signing-secret">${v.signingSecret}</code><button type="button" class="button button-secondary button-small" data-copy="signing-secret" hidden>Copy</button></div>
<p><a class="button button-primary" href="${base}/channels">Done</a></p>
</section>`);
}
