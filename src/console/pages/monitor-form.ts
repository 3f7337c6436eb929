import type { ChannelDocument } from '../../../projections/notification-channels.js';
import type { GroupDocument } from '../../../projections/notification-groups.js';
import type { MonitorDocument } from '../../../projections/monitors.js';
import type { ProjectDocument } from '../../../projections/projects.js';
import { DNS_RECORD_TYPES, JSON_OPERATORS } from '../../domain/monitors/monitor-config.js';
import { MONITOR_TYPES, type MonitorType } from '../../domain/monitors/schedule.js';
import { ASSETS } from '../assets.js';
import { TYPE_NAMES } from '../format.js';
import { type Fragment, type Html, html } from '../html.js';
import { type Viewer, csrfField, page } from '../layout.js';
import { type FlagField, type ListField, LABELS, type MonitorDraft, type TextField } from '../monitor-draft.js';
import { type SchedulePreview, previewMarkup } from '../schedule-preview.js';

export interface MonitorFormView {
  viewer: Viewer;
  project: ProjectDocument;
  /** The monitor edited; null on the new-monitor page. */
  monitor: MonitorDocument | null;
  draft: MonitorDraft;
  preview: SchedulePreview;
  groups: readonly GroupDocument[];
  channels: readonly ChannelDocument[];
  /** The project's escalation policies, one of which may page this monitor's incidents. */
  policies: readonly { id: string; name: string }[];
  /** The project's other monitors, which this one may depend on. */
  others: readonly MonitorDocument[];
  zones: readonly string[];
  refusal: { field: string | null; message: string } | null;
}

const TYPE_HELP: Record<MonitorType, string> = {
  JOB_CRON: 'A job that runs on a schedule (a cron expression or a calendar rule) and pings Vigil when it runs. A missed run opens an incident.',
  JOB_HEARTBEAT: 'Something that pings Vigil at a steady interval. A ping that does not come in time opens an incident.',
  JOB_BASIC: 'A job with no fixed schedule: only the success and failure pings it sends count.',
  UPTIME_HTTP: 'Vigil requests a URL at an interval and checks the status code, and optionally a keyword or a JSON value.',
  UPTIME_TCP: 'Vigil opens a TCP connection to a host and port at an interval.',
  UPTIME_DNS: 'Vigil resolves a DNS record at an interval and compares the answer.',
};

const JOBS = 'JOB_CRON JOB_HEARTBEAT JOB_BASIC';
const WAITS = 'JOB_CRON JOB_HEARTBEAT';
const CHECKS = 'UPTIME_HTTP UPTIME_TCP UPTIME_DNS';
const SCHEDULED = 'JOB_CRON JOB_HEARTBEAT UPTIME_HTTP UPTIME_TCP UPTIME_DNS';

const id = (field: string) => `f-${field.replace(/_/g, '-')}`;

interface FieldOptions {
  hint: Fragment;
  /** A number is typed into a text field (as GOV.UK advises): whatever was typed comes back with the error. */
  input?: 'text' | 'url';
  inputmode?: 'numeric';
  maxlength?: number;
  list?: string;
  required?: boolean;
  types?: string;
  autocomplete?: 'off';
}

/** The parts every field shares: its label, help in words, and the error when the form was refused for it. */
function frame(v: MonitorFormView, field: TextField | FlagField | ListField, hint: Fragment, types: string | undefined, control: (describedBy: string, invalid: Html | null) => Html): Html {
  const error = v.refusal?.field === field ? v.refusal.message : null;
  const describedBy = [hint ? `${id(field)}-hint` : '', error ? `${id(field)}-error` : ''].filter((s) => s !== '').join(' ');
  return html`<div class="field${error ? ' field-error' : ''}"${types ? html` data-types="${types}"` : null}>
<label for="${id(field)}">${LABELS[field]}</label>
${hint ? html`<p class="hint" id="${id(field)}-hint">${hint}</p>` : null}
${error ? html`<p class="error-message" id="${id(field)}-error"><span class="visually-hidden">Error: </span>${error}</p>` : null}
${control(describedBy, error ? html` aria-invalid="true"` : null)}
</div>`;
}

function text(v: MonitorFormView, field: TextField, o: FieldOptions): Html {
  return frame(v, field, o.hint, o.types, (describedBy, invalid) =>
    html`<input type="${o.input ?? 'text'}" id="${id(field)}" name="${field}" value="${v.draft.text[field]}"${o.maxlength ? html` maxlength="${o.maxlength}"` : null}${o.inputmode ? html` inputmode="${o.inputmode}" class="input-number"` : null}${o.list ? html` list="${o.list}"` : null}${o.required ? html` required` : null}${o.autocomplete ? html` autocomplete="off" spellcheck="false"` : null}${describedBy ? html` aria-describedby="${describedBy}"` : null}${invalid}>`);
}

function area(v: MonitorFormView, field: TextField, hint: Fragment, rows = 3): Html {
  return frame(v, field, hint, undefined, (describedBy, invalid) =>
    html`<textarea id="${id(field)}" name="${field}" rows="${rows}" spellcheck="false"${describedBy ? html` aria-describedby="${describedBy}"` : null}${invalid}>${v.draft.text[field]}</textarea>`);
}

function choice(v: MonitorFormView, field: TextField, hint: Fragment, options: readonly (readonly [string, string])[]): Html {
  return frame(v, field, hint, undefined, (describedBy, invalid) =>
    html`<select id="${id(field)}" name="${field}"${describedBy ? html` aria-describedby="${describedBy}"` : null}${invalid}>${options.map(([value, label]) =>
      html`<option value="${value}"${v.draft.text[field] === value ? html` selected` : null}>${label}</option>`)}</select>`);
}

function flag(v: MonitorFormView, field: FlagField, hint: Fragment, types?: string): Html {
  return html`<div class="checkbox-row"${types ? html` data-types="${types}"` : null}><input type="checkbox" id="${id(field)}" name="${field}" value="on"${v.draft.flags[field] ? html` checked` : null}${hint ? html` aria-describedby="${id(field)}-hint"` : null}>
<div><label for="${id(field)}">${LABELS[field]}</label>${hint ? html`<p class="hint" id="${id(field)}-hint">${hint}</p>` : null}</div></div>`;
}

function ticks(v: MonitorFormView, field: ListField, hint: Fragment, items: readonly { id: string; name: string; note?: string }[], none: Fragment): Html {
  const error = v.refusal?.field === field ? v.refusal.message : null;
  return html`<fieldset class="field tick-list${error ? ' field-error' : ''}" id="${id(field)}"${error ? html` aria-describedby="${id(field)}-error"` : null}><legend>${LABELS[field]}</legend>
<p class="hint">${hint}</p>
${error ? html`<p class="error-message" id="${id(field)}-error"><span class="visually-hidden">Error: </span>${error}</p>` : null}
${items.length === 0 ? html`<p class="muted">${none}</p>` : html`<ul>${items.map((item) => html`<li class="checkbox"><input type="checkbox" id="${id(field)}-${item.id}" name="${field}" value="${item.id}"${v.draft.lists[field].has(item.id) ? html` checked` : null}><label for="${id(field)}-${item.id}">${item.name}${item.note ? html` <span class="muted">${item.note}</span>` : null}</label></li>`)}</ul>`}
</fieldset>`;
}

function typeChoice(v: MonitorFormView): Html {
  if (v.monitor) {
    return html`<input type="hidden" name="type" value="${v.monitor.type}">
<p class="fixed-type"><strong>Type:</strong> ${TYPE_NAMES[v.monitor.type]}. <span class="muted">A monitor keeps its type; to watch it another way, create a new monitor.</span></p>`;
  }
  const error = v.refusal?.field === 'type' ? v.refusal.message : null;
  return html`<fieldset class="field type-choice${error ? ' field-error' : ''}" id="${id('type')}"><legend>What do you want to monitor?</legend>
${error ? html`<p class="error-message"><span class="visually-hidden">Error: </span>${error}</p>` : null}
<ul>${MONITOR_TYPES.map((type) => html`<li class="radio"><input type="radio" id="type-${type}" name="type" value="${type}"${v.draft.text.type === type ? html` checked` : null} aria-describedby="type-${type}-hint">
<div><label for="type-${type}">${TYPE_NAMES[type]}</label><p class="hint" id="type-${type}-hint">${TYPE_HELP[type]}</p></div></li>`)}</ul>
</fieldset>`;
}

/** A part of the form only one kind of monitor has: shown for every kind without the script, headed by what it is for. */
function section(types: string, legend: string, body: Fragment): Html {
  return html`<fieldset class="form-section" data-types="${types}"><legend>${legend}</legend>${body}</fieldset>`;
}

const HTTP_MORE = ['http_keyword_absent', 'http_headers', 'http_body', 'http_timeout', 'http_follow', 'http_verify', 'http_json_query', 'http_json_operator', 'http_json_expected'];

/** The less used HTTP settings start folded away, unless one of them is set or refused. */
function httpMoreOpen(v: MonitorFormView): boolean {
  const { text: x, flags } = v.draft;
  const refused = v.refusal?.field ?? '';
  return HTTP_MORE.includes(refused) || x.http_headers.trim() !== '' || x.http_body.trim() !== '' || x.http_timeout.trim() !== '10' || x.http_json_query.trim() !== ''
    || flags.http_keyword_absent || !flags.http_follow || !flags.http_verify;
}

function httpSection(v: MonitorFormView): Html {
  return section('UPTIME_HTTP', 'HTTP check (HTTP uptime monitors)', html`
${text(v, 'http_url', { input: 'url', maxlength: 2048, autocomplete: 'off', hint: 'The address Vigil requests, starting with http:// or https://. No user name or password in it: send credentials as a header below.' })}
${choice(v, 'http_method', 'HEAD asks for the headers only; POST sends the request body below.', [['GET', 'GET'], ['HEAD', 'HEAD'], ['POST', 'POST']])}
${text(v, 'http_status', { hint: 'Codes that count as up, separated by commas (200, 204). Empty: any 2xx.' })}
${text(v, 'http_keyword', { maxlength: 1024, hint: 'Text the response body must contain. Empty: not looked for.' })}
<details class="more-options"${httpMoreOpen(v) ? html` open` : null}><summary>Headers, body, timeout, TLS and JSON checks</summary>
${flag(v, 'http_keyword_absent', 'Turns the keyword around: the check fails when the body contains it (an error page\'s wording, say).')}
${area(v, 'http_headers', html`One <code>Name: value</code> a line. Values are stored encrypted and shown as ••••••; leave •••••• to keep a stored value.`)}
${area(v, 'http_body', 'Sent with POST. Empty: no body.')}
${text(v, 'http_timeout', { inputmode: 'numeric', hint: 'How long to wait for the response before the check fails: 1 to 30 seconds.' })}
${flag(v, 'http_follow', 'When off, a redirect is judged as the answer itself (a 301 is not a 2xx).')}
${flag(v, 'http_verify', 'When off, an expired or self-signed certificate does not fail the check. Vigil still reports when a certificate is about to expire.')}
${text(v, 'http_json_query', { maxlength: 1024, autocomplete: 'off', hint: html`A <a href="https://jmespath.org">JMESPath</a> expression run on a JSON response, such as <code>status</code> or <code>checks[0].ok</code>. Empty: the body is not read as JSON.` })}
${choice(v, 'http_json_operator', 'How the query\'s result is compared with the expected value.', JSON_OPERATORS.map((op) => [op, op.replace('_', ' ')] as const))}
${text(v, 'http_json_expected', { maxlength: 1024, hint: 'Compared with the result\'s text: ok, true, 42. Not needed for "exists".' })}
</details>`);
}

function tcpSection(v: MonitorFormView): Html {
  return section('UPTIME_TCP', 'TCP check (TCP port monitors)', html`
${text(v, 'tcp_host', { maxlength: 253, autocomplete: 'off', hint: 'A host name (db.example.com) or an IP address, without a scheme or port.' })}
${text(v, 'tcp_port', { inputmode: 'numeric', hint: '1 to 65535: 5432 for PostgreSQL, 443 for HTTPS.' })}
${text(v, 'tcp_timeout', { inputmode: 'numeric', hint: 'How long the connection may take to open before the check fails: 1 to 30 seconds.' })}`);
}

function dnsSection(v: MonitorFormView): Html {
  return section('UPTIME_DNS', 'DNS check (DNS record monitors)', html`
${text(v, 'dns_hostname', { maxlength: 253, autocomplete: 'off', hint: 'The name to resolve, such as example.com.' })}
${choice(v, 'dns_record_type', 'Which record to ask for.', DNS_RECORD_TYPES.map((r) => [r, r] as const))}
${area(v, 'dns_expected', 'One value a line (an address, a host name, a TXT string). Empty: any answer counts as up.')}
${choice(v, 'dns_match', 'With several expected values: whether the answer must hold one of them or all of them.', [['any', 'Any one of them'], ['all', 'All of them']])}
${text(v, 'dns_resolver', { maxlength: 64, autocomplete: 'off', hint: 'An IP address with an optional port (9.9.9.9, [2620:fe::fe]:53). Empty: the server\'s resolvers.' })}
${text(v, 'dns_timeout', { inputmode: 'numeric', hint: '1 to 30 seconds.' })}`);
}

function scheduleSection(v: MonitorFormView, previewUrl: string): Html {
  return html`<fieldset class="form-section"><legend>Schedule</legend>
${text(v, 'cron_schedule', { types: 'JOB_CRON', maxlength: 200, autocomplete: 'off', hint: html`Five cron fields (<code>0 3 * * *</code> is every day at 03:00), a macro such as <code>@hourly</code>, or a calendar rule such as <code>RRULE:FREQ=MONTHLY;BYDAY=MO;BYSETPOS=1;BYHOUR=9;BYMINUTE=0</code> (daily or coarser). For cron jobs.` })}
${text(v, 'heartbeat_every', { types: 'JOB_HEARTBEAT', maxlength: 20, autocomplete: 'off', hint: 'How often a ping is expected: 30s, 5m, 1h, 2d or 1w. For heartbeats.' })}
${text(v, 'check_every', { types: CHECKS, maxlength: 20, autocomplete: 'off', hint: 'How often Vigil checks: 30s, 5m, 1h. For uptime monitors.' })}
<p class="hint" data-types="JOB_BASIC">Jobs without a schedule have nothing to set here.</p>
${text(v, 'timezone', { list: 'zones', maxlength: 64, autocomplete: 'off', hint: 'The IANA zone cron expressions and calendar rules are read in (Europe/Paris: "03:00" is 03:00 in Paris, summer and winter); the console shows this monitor\'s times in it.' })}
<datalist id="zones">${v.zones.map((zone) => html`<option value="${zone}"></option>`)}</datalist>
<div class="schedule-preview" data-types="${SCHEDULED}"><h3 id="preview-heading">Next expected</h3>
<div id="schedule-preview" data-preview-url="${previewUrl}" aria-live="polite" aria-labelledby="preview-heading">${previewMarkup(v.preview)}</div></div>
</fieldset>`;
}

function downSection(v: MonitorFormView): Html {
  return html`<fieldset class="form-section"><legend>When it is DOWN</legend>
${text(v, 'grace', { types: WAITS, maxlength: 20, hint: 'How long past the expected time Vigil waits before the check-in counts as missed and an incident opens: 90s, 5m, 1h; 0 for none. Give a job its usual run time and some slack.' })}
${text(v, 'missed_before_down', { types: WAITS, inputmode: 'numeric', hint: 'Missed check-ins in a row before the monitor shows DOWN (each one still opens an incident): 1 to 1000.' })}
${text(v, 'failures_before_down', { inputmode: 'numeric', hint: 'Failed runs (or failed checks) in a row before the monitor shows DOWN: 1 to 1000. 2 or 3 rides over a single network hiccup.' })}
${text(v, 'min_duration', { types: JOBS, maxlength: 20, hint: 'A run shorter than this is reported as too short (a backup that finished in 2 s did not back anything up). Empty: no lower bound.' })}
${text(v, 'max_duration', { types: JOBS, maxlength: 20, hint: 'A run longer than this is reported as too long, and one that started and never finished as hung. Empty: no upper bound.' })}
</fieldset>`;
}

function alertingSection(v: MonitorFormView): Html {
  const settings = `/projects/${v.project.id}/settings/channels`;
  return html`<fieldset class="form-section"><legend>Alerting</legend>
${flag(v, 'alert_enabled', 'Off: incidents are still recorded and shown, but nobody is paged.')}
${text(v, 'surge', { inputmode: 'numeric', hint: 'Surge protection: after this many alerts in a row, paging pauses for an hour. 1 to 1000.' })}
${ticks(v, 'group', 'Who is paged: every channel of each ticked group. Tick none to page the project\'s default groups and channels.',
  v.groups.map((g) => ({ id: g.id, name: g.name, note: `(${g.channel_ids.length === 1 ? '1 channel' : `${g.channel_ids.length} channels`}${g.is_default ? ', default' : ''})` })),
  html`No group yet: make one in <a href="${settings}">Settings</a>.`)}
${ticks(v, 'channel', 'Channels paged directly, beside those of the groups.', v.channels.map((c) => ({ id: c.id, name: c.name, note: `(${c.type.toLowerCase()}${c.enabled ? '' : ', disabled'})` })),
  html`No channel yet: add one in <a href="${settings}">Settings</a>.`)}
${v.policies.length > 0 || v.draft.text.escalation_policy !== ''
  ? choice(v, 'escalation_policy', 'With a policy, an opened incident is paged step by step until someone acknowledges it, instead of to the groups and channels above and repaged.',
    [['', 'None'], ...v.policies.map((p) => [p.id, p.name] as const)])
  : null}
</fieldset>`;
}

function relationsSection(v: MonitorFormView): Html {
  return html`<fieldset class="form-section"><legend>Dependencies and maintenance</legend>
${ticks(v, 'depends_on', 'While a ticked monitor is DOWN, this one\'s incidents are recorded as caused upstream and page nobody (your database, say, for the jobs that use it).',
  v.others.map((m) => ({ id: m.id, name: m.name })), 'No other monitor in this project.')}
<p class="hint">Maintenance windows (planned work during which nothing pages) are scheduled for the project, covering this monitor or all of them, on the <a href="/projects/${v.project.id}/maintenance">Maintenance</a> page.</p>
</fieldset>`;
}

export function monitorFormPage(v: MonitorFormView): Html {
  const editing = v.monitor;
  const title = editing ? `Edit ${editing.name}` : 'New monitor';
  const action = editing ? `/monitors/${editing.id}/edit` : `/projects/${v.project.id}/monitors`;
  const back = editing ? `/monitors/${editing.id}` : `/projects/${v.project.id}`;
  const crumbs = [{ label: v.project.name, href: `/projects/${v.project.id}` }, ...(editing ? [{ label: editing.name, href: back }] : []), { label: editing ? 'Edit' : 'New monitor' }];
  return page({
    title: v.refusal ? `Error: ${title}` : title,
    viewer: v.viewer,
    crumbs,
    body: html`<div class="page-head"><div><h1>${title}</h1>
<p class="lede">${editing ? 'Change what is watched and who hears about it. The change applies from now on.' : 'Only the name and what to watch are needed; everything else has a sensible default.'}</p></div></div>
${v.refusal ? html`<div class="error-summary" role="alert"><h2>There is a problem</h2><ul><li><a href="#${v.refusal.field ? id(v.refusal.field) : 'monitor-form'}">${v.refusal.message}</a></li></ul></div>` : null}
<form method="post" action="${action}" id="monitor-form" class="monitor-form" data-monitor-form novalidate>
${csrfField(v.viewer)}
${typeChoice(v)}
<fieldset class="form-section"><legend>About</legend>
${text(v, 'name', { maxlength: 100, required: true, hint: 'What people see on the dashboard and in alerts, such as "Nightly backup".' })}
${text(v, 'slug', { maxlength: 50, autocomplete: 'off', hint: html`Lowercase letters, digits and hyphens, for the ping URL by name (<code>/v1/s-ping/&lt;key&gt;/&lt;slug&gt;</code>). ${editing ? 'Changing it breaks jobs that ping the old one.' : 'Empty: made from the name.'}` })}
${area(v, 'description', 'Optional: what it is, who owns it, where its runbook is.', 2)}
${text(v, 'tags', { maxlength: 600, hint: 'Separated by commas, such as "backup, nightly". Up to 10.' })}
</fieldset>
${httpSection(v)}
${tcpSection(v)}
${dnsSection(v)}
${scheduleSection(v, `/projects/${v.project.id}/monitors/preview`)}
${downSection(v)}
${alertingSection(v)}
${relationsSection(v)}
<fieldset class="form-section" data-types="${JOBS}"><legend>History (jobs)</legend>
${text(v, 'retention', { inputmode: 'numeric', hint: 'How many of the newest pings are kept, with their output: 10 to 1000.' })}
</fieldset>
<div class="form-actions"><button type="submit" class="button button-primary">${editing ? 'Save changes' : 'Create monitor'}</button><a href="${back}">Cancel</a></div>
</form>
<script type="module" src="${ASSETS.monitorForm.path}"></script>`,
  });
}
