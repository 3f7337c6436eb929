import type { ChannelDocument } from '../../../projections/notification-channels.js';
import type { ChannelType } from '../../domain/notifications/channel.js';
import { CHANNEL_GUIDES, fieldLabel } from '../channel-guide.js';
import { relativeTime } from '../format.js';
import { type Fragment, type Html, html } from '../html.js';
import { csrfField, timeAgo } from '../layout.js';
import { quietHoursFields, quietHoursSummary } from './quiet-hours-fields.js';
import { type SettingsFrame, postButton, settingsPage } from './settings.js';

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
  /** Why this server cannot make a channel of this type (an Email channel without SMTP), or null. */
  unavailable: string | null;
}

/** A channel as the list shows it: its settings that are not secret, in words. */
export interface ChannelRow {
  channel: ChannelDocument;
  /** Each config field set: its value when it is not secret, null when it is (shown masked). */
  settings: { field: string; value: string | null }[];
  /** The groups it is in. */
  groups: { id: string; name: string }[];
  /** The member whose own channel it is, by name; null for a channel of the project. */
  owner: string | null;
}

export interface ChannelsView extends SettingsFrame {
  rows: ChannelRow[];
  types: ChannelTypeInfo[];
  canWrite: boolean;
  canDestroy: boolean;
  now: Date;
}

const base = (v: SettingsFrame) => `/projects/${v.project.id}/settings`;

function deliveryState(channel: ChannelDocument, now: Date): Html {
  if (channel.last_error) return html`<span class="delivery-failed">Last delivery failed: ${channel.last_error}</span>`;
  return timeAgo(channel.last_delivery_at, now, relativeTime, 'no page sent yet');
}

function settingsList(type: ChannelType, settings: ChannelRow['settings']): Html {
  if (settings.length === 0) return html`<span class="muted">none</span>`;
  return html`<ul class="config-fields">${settings.map(({ field, value }) => html`<li><span class="muted">${fieldLabel(type, field)}:</span> ${value === null
    ? html`<span class="masked" title="Kept secret">••••••</span><span class="visually-hidden"> (set, kept secret)</span>`
    : html`<span class="config-value">${value.length > 60 ? `${value.slice(0, 57)}…` : value}</span>`}</li>`)}</ul>`;
}

export function channelsPage(v: ChannelsView): Html {
  const typeName = (type: ChannelType) => v.types.find((t) => t.type === type)?.name ?? type;
  const list = v.rows.length === 0
    ? html`<p class="empty">No channels yet.${v.canWrite ? ' Add one below: a webhook, Slack, email and more.' : ''}</p>`
    : html`<table class="stack-table">
<caption class="visually-hidden">Notification channels of ${v.project.name}</caption>
<thead><tr><th scope="col">Channel</th><th scope="col">Settings</th><th scope="col">Last page</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${v.rows.map(({ channel: c, settings, groups, owner }) => html`<tr data-channel-id="${c.id}">
<td data-label="Channel"><strong>${c.name}</strong>${owner ? html` <span class="tag">${owner}'s own</span>` : null}${c.is_default ? html` <span class="tag">default</span>` : null}${c.enabled ? null : html` <span class="tag tag-off">disabled</span>`}
<span class="monitor-slug">${typeName(c.type)} · ${groups.length === 0 ? 'in no group' : html`in ${groups.map((g, i) => html`${i > 0 ? ', ' : ''}<a href="${base(v)}/groups/${g.id}">${g.name}</a>`)}`}</span></td>
<td data-label="Settings">${settingsList(c.type, settings)}${c.quiet_hours ? html`<p class="hint quiet-summary">${quietHoursSummary(c.quiet_hours)}</p>` : null}</td>
<td data-label="Last page">${deliveryState(c, v.now)}</td>
<td class="row-actions">${v.canWrite ? html`<a class="button button-small button-secondary" href="${base(v)}/channels/${c.id}/edit">Edit<span class="visually-hidden"> ${c.name}</span></a>` : null}${v.canWrite ? postButton(v.viewer, `${base(v)}/channels/${c.id}/test`, 'Send test message') : null}${v.canDestroy ? html`<a class="button button-small button-warning" href="${base(v)}/channels/${c.id}/delete">Delete…<span class="visually-hidden"> ${c.name}</span></a>` : null}</td>
</tr>`)}</tbody></table>`;
  const add = v.canWrite
    ? html`<section class="panel" aria-labelledby="add-channel-title"><h2 id="add-channel-title">Add a channel</h2>
<ul class="type-choices">${v.types.map((t) => html`<li class="type-choice${t.unavailable ? ' type-unavailable' : ''}">
<div><strong>${t.name}</strong><p class="hint">${CHANNEL_GUIDES[t.type].does}</p>${t.unavailable ? html`<p class="hint"><strong>Not available here:</strong> ${t.unavailable}.</p>` : null}</div>
${t.unavailable ? null : html`<a class="button button-small button-secondary" href="${base(v)}/channels/new?type=${t.type}">Add ${t.name}</a>`}
</li>`)}</ul></section>`
    : html`<p class="hint">Adding, editing, testing and attaching channels needs the MANAGER role or higher and an account key with the manage_notifications scope; deleting needs the OWNER role and the destroy scope.</p>`;
  return settingsPage(v, 'channels', 'Channels', html`<section class="panel" aria-labelledby="channels-title"><h2 id="channels-title">Notification channels</h2>
<p class="hint">Where pages go. A monitor pages the channels it names and those of its groups. Secret settings (webhook URLs, tokens) are never shown again once saved.</p>
${list}
</section>
${add}`);
}

export interface ChannelFormView extends SettingsFrame {
  type: ChannelTypeInfo;
  /** The channel being edited, or null for a new one. */
  channel: ChannelDocument | null;
  /** What the form shows: the channel's settings that are not secret, or what was typed. */
  values: Record<string, string>;
  /** The secret fields the channel has stored (edit only): left blank, each stays as it is. */
  storedSecrets: readonly string[];
  error: { field: string | null; message: string } | null;
  /** The members a channel may belong to (a person's own channel, paged while they are on call). */
  owners: { id: string; name: string }[];
}

const inputId = (name: string) => `config-${name}`;

/** How a config field is typed: a URL in a text field (kept on an error), tokens in password fields, lists and headers one a line. */
function configInput(v: ChannelFormView, name: string, field: ConfigField): Html {
  const id = inputId(name);
  const invalid = v.error?.field === name;
  const stored = v.storedSecrets.includes(name);
  const keep = stored ? html` placeholder="unchanged — type to replace"` : null;
  const attrs = html` aria-describedby="${id}-hint"${invalid ? html` aria-invalid="true"` : null}${field.required && !stored ? html` required` : null}${keep}`;
  const value = v.values[`config_${name}`] ?? '';
  if (field.type === 'object' || field.type.startsWith('array') || name === 'body_template') {
    return html`<textarea id="${id}" name="config_${name}" rows="${name === 'body_template' ? 6 : 3}" spellcheck="false"${attrs}>${value}</textarea>`;
  }
  if (field.type === 'integer') return html`<input type="number" id="${id}" name="config_${name}" value="${value}" inputmode="numeric"${attrs}>`;
  // A URL is typed in the open even when it is kept secret: a password field hides a typo and loses it on an error.
  const password = field.secret && field.type !== 'url';
  return html`<input type="${password ? 'password' : 'text'}" id="${id}" name="config_${name}" value="${password ? '' : value}"${field.type === 'url' ? html` inputmode="url"` : null} autocomplete="off" spellcheck="false"${attrs}>`;
}

function fieldHint(v: ChannelFormView, name: string, field: ConfigField): string {
  const lines = field.type === 'object' ? ' One header a line, as Name: value.' : field.type.startsWith('array') ? ' One a line.' : '';
  const password = field.secret && field.type !== 'url' && field.type !== 'object';
  const secret = !field.secret ? '' : v.storedSecrets.includes(name) ? ' Kept secret: leave it blank to keep the stored one.' : password ? ' Kept secret: never shown again once saved (type it again if the form comes back with a problem).' : ' Kept secret: never shown again once saved.';
  return `${field.description}.${lines}${secret}`;
}

export function channelFormPage(v: ChannelFormView): Html {
  const { type, error, channel } = v;
  const editing = channel !== null;
  const title = editing ? `Edit ${channel.name}` : `New ${type.name} channel`;
  const action = editing ? `${base(v)}/channels/${channel.id}` : `${base(v)}/channels`;
  const checked = (key: string, fallback: boolean) => ((v.values[key] ?? (fallback ? 'true' : '')) !== '' ? html` checked` : null);
  const optionalStored = Object.entries(type.schema).filter(([name, f]) => !f.required && v.storedSecrets.includes(name) && !(type.type === 'WEBHOOK' && name === 'secret'));
  const body: Fragment = html`${error
  ? html`<div class="error-summary" role="alert" aria-labelledby="error-summary-title"><h2 id="error-summary-title">There is a problem</h2>
<ul><li>${error.field ? html`<a href="#${error.field === 'name' ? 'channel-name' : error.field.startsWith('quiet-hours') ? error.field : inputId(error.field)}">${error.message}</a>` : error.message}</li></ul></div>`
  : null}
<section class="panel narrow-panel" aria-labelledby="channel-form-title"><h2 id="channel-form-title">${title}</h2>
<p class="type-does"><strong>${type.name}.</strong> ${CHANNEL_GUIDES[type.type].does}</p>
<form method="post" action="${action}" novalidate>${csrfField(v.viewer)}
${editing ? null : html`<input type="hidden" name="type" value="${type.type}">`}
<div class="field${error?.field === 'name' ? ' field-error' : ''}"><label for="channel-name">Name</label><p class="hint" id="channel-name-hint">How pages and lists name it, e.g. “Ops on call”.</p>
<input type="text" id="channel-name" name="name" maxlength="100" value="${v.values['name'] ?? ''}" aria-describedby="channel-name-hint"${error?.field === 'name' ? html` aria-invalid="true"` : null} required></div>
${Object.entries(type.schema).map(([name, field]) => html`<div class="field${error?.field === name ? ' field-error' : ''}">
<label for="${inputId(name)}">${fieldLabel(type.type, name)}${field.required ? null : html` <span class="muted">(optional)</span>`}</label>
<p class="hint" id="${inputId(name)}-hint">${fieldHint(v, name, field)}</p>
${configInput(v, name, field)}
</div>`)}
${optionalStored.length > 0 ? html`<fieldset class="field"><legend>Remove stored settings</legend>${optionalStored.map(([name]) => html`<div class="checkbox"><input type="checkbox" id="clear-${name}" name="clear_${name}" value="true"${checked(`clear_${name}`, false)}><label for="clear-${name}">Remove the stored ${fieldLabel(type.type, name).toLowerCase()}</label></div>`)}</fieldset>` : null}
<div class="field${error?.field === 'owner_user_id' ? ' field-error' : ''}"><label for="channel-owner">Whose channel</label><p class="hint" id="channel-owner-hint">A person's own channel (their email, their phone) is paged by escalation steps while they are on call.</p>
<select id="channel-owner" name="owner_user_id" aria-describedby="channel-owner-hint"><option value="">The project's</option>${v.owners.map((o) => html`<option value="${o.id}"${v.values['owner_user_id'] === o.id ? html` selected` : null}>${o.name}'s own</option>`)}</select></div>
${quietHoursFields(v.values, error?.field ?? null)}
<div class="field checkbox"><input type="checkbox" id="channel-default" name="is_default" value="true"${checked('is_default', false)}><label for="channel-default">Default channel: new monitors page it unless they name others</label></div>
${editing ? html`<div class="field checkbox"><input type="checkbox" id="channel-enabled" name="enabled" value="true"${checked('enabled', false)}><label for="channel-enabled">Enabled: a disabled channel is sent nothing</label></div>` : null}
<div class="form-actions"><button type="submit" class="button button-primary">${editing ? 'Save changes' : 'Create channel'}</button> <a href="${base(v)}/channels">Cancel</a></div>
</form></section>`;
  return settingsPage({ ...v, notice: null }, 'channels', title, body);
}

/** After a webhook channel is made: its generated signing secret, this once. */
export function channelCreatedPage(v: SettingsFrame & { channel: { id: string; name: string }; signingSecret: string }): Html {
  return settingsPage({ ...v, notice: `Channel ${v.channel.name} created.` }, 'channels', 'Channel created', html`<section class="panel narrow-panel once" aria-labelledby="secret-title">
<h2 id="secret-title">Signing secret of ${v.channel.name}</h2>
<p class="warning-text"><strong>Copy it now: it is shown this once and never again.</strong> Your receiver verifies each delivery's signature with it (Standard Webhooks).</p>
<div class="copy-row"><code id="signing-secret" class="wrap">${v.signingSecret}</code><button type="button" class="button button-secondary button-small" data-copy="signing-secret" hidden>Copy</button></div>
<p><a class="button button-primary" href="${base(v)}/channels">Done</a></p>
</section>`);
}

export interface DeleteChannelView extends SettingsFrame {
  channel: ChannelDocument;
  groups: { id: string; name: string; monitors: { id: string; name: string }[] }[];
  /** Monitors that name the channel themselves. */
  monitors: { id: string; name: string }[];
}

const monitorLinks = (monitors: { id: string; name: string }[]) => html`${monitors.map((m, i) => html`${i > 0 ? ', ' : ''}<a href="/monitors/${m.id}">${m.name}</a>`)}`;

export function deleteChannelPage(v: DeleteChannelView): Html {
  const { channel } = v;
  const loses = v.groups.length > 0 || v.monitors.length > 0;
  return settingsPage(v, 'channels', `Delete ${channel.name}`, html`<section class="panel narrow-panel" aria-labelledby="delete-title">
<h2 id="delete-title">Delete the channel ${channel.name}?</h2>
${loses ? html`<p>Pages stop going through it at once. What routes to it now:</p>
<ul class="loss-list">
${v.groups.map((g) => html`<li>The group <a href="${base(v)}/groups/${g.id}">${g.name}</a> loses it${g.monitors.length > 0 ? html`; its ${g.monitors.length === 1 ? 'monitor' : 'monitors'} ${monitorLinks(g.monitors)} ${g.monitors.length === 1 ? 'stops' : 'stop'} paging through it` : ' (no monitor uses the group)'}.</li>`)}
${v.monitors.length > 0 ? html`<li>${monitorLinks(v.monitors)} ${v.monitors.length === 1 ? 'names it directly and stops' : 'name it directly and stop'} paging through it.</li>` : null}
</ul>
<p class="warning-text">A monitor left with no channel pages no one.</p>`
  : html`<p>No group or monitor routes to it: nothing else changes.</p>`}
<p>Its settings and secrets are deleted with it. This cannot be undone.</p>
<form method="post" action="${base(v)}/channels/${channel.id}/delete" class="form-actions">${csrfField(v.viewer)}<button type="submit" class="button button-warning">Delete the channel</button> <a href="${base(v)}/channels">Cancel</a></form>
</section>`);
}
