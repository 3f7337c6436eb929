import * as t from 'io-ts';
import type { MonitorDocument } from '../../projections/monitors.js';
import { HttpError } from '../web/errors.js';
import { HEADER_VALUE_MASK } from '../domain/monitors/monitor-config.js';
import { MONITOR_TYPES, type MonitorType, isUptimeType, parseInterval } from '../domain/monitors/schedule.js';
import { TYPE_NAMES } from './format.js';

/** A field a browser sends once, or several times (ticked checkboxes of one name). */
const Repeated = t.union([t.string, t.array(t.string)]);

/** The text fields of the monitor form, by their `name` in the form. */
export const TEXT_FIELDS = [
  'name', 'type', 'slug', 'description', 'tags', 'timezone',
  'cron_schedule', 'heartbeat_every', 'check_every',
  'http_url', 'http_method', 'http_status', 'http_keyword', 'http_headers', 'http_body', 'http_timeout', 'http_json_query', 'http_json_operator', 'http_json_expected',
  'tcp_host', 'tcp_port', 'tcp_timeout',
  'dns_hostname', 'dns_record_type', 'dns_expected', 'dns_match', 'dns_resolver', 'dns_timeout',
  'grace', 'missed_before_down', 'failures_before_down', 'min_duration', 'max_duration', 'surge', 'retention',
  'escalation_policy',
] as const;
export type TextField = (typeof TEXT_FIELDS)[number];

/** Ticked or not: an unticked box sends nothing, so the form says it carries them (`checkboxes=1`). */
export const FLAG_FIELDS = ['alert_enabled', 'http_keyword_absent', 'http_follow', 'http_verify'] as const;
export type FlagField = (typeof FLAG_FIELDS)[number];

export const LIST_FIELDS = ['group', 'channel', 'depends_on'] as const;
export type ListField = (typeof LIST_FIELDS)[number];

/** The monitor form as the browser sends it: every field optional text, the lists repeated. */
export const MonitorForm = t.partial({
  ...Object.fromEntries(TEXT_FIELDS.map((f) => [f, t.string])) as Record<TextField, t.StringC>,
  ...Object.fromEntries(FLAG_FIELDS.map((f) => [f, t.string])) as Record<FlagField, t.StringC>,
  group: Repeated,
  channel: Repeated,
  depends_on: Repeated,
});
export type MonitorFormInput = t.TypeOf<typeof MonitorForm>;

/** What the form holds, as typed: shown again, whole, when it is refused. */
export interface MonitorDraft {
  text: Record<TextField, string>;
  flags: Record<FlagField, boolean>;
  lists: Record<ListField, ReadonlySet<string>>;
}

const INTERVAL_DEFAULT = '5m';

export function emptyDraft(): MonitorDraft {
  const text = Object.fromEntries(TEXT_FIELDS.map((f) => [f, ''])) as Record<TextField, string>;
  Object.assign(text, {
    type: 'JOB_CRON', timezone: 'UTC', cron_schedule: '0 3 * * *', heartbeat_every: '1h', check_every: INTERVAL_DEFAULT,
    http_method: 'GET', http_timeout: '10', http_json_operator: 'equals', tcp_timeout: '10', dns_record_type: 'A', dns_match: 'any', dns_timeout: '5',
    grace: '5m', missed_before_down: '1', failures_before_down: '1', surge: '10', retention: '200',
  });
  return { text, flags: { alert_enabled: true, http_keyword_absent: false, http_follow: true, http_verify: true }, lists: { group: new Set(), channel: new Set(), depends_on: new Set() } };
}

/** A draft from what the browser sent. */
export function draftOf(form: MonitorFormInput): MonitorDraft {
  const text = Object.fromEntries(TEXT_FIELDS.map((f) => [f, form[f] ?? ''])) as Record<TextField, string>;
  const flags = Object.fromEntries(FLAG_FIELDS.map((f) => [f, form[f] !== undefined])) as Record<FlagField, boolean>;
  const list = (value: string | string[] | undefined) => new Set(value === undefined ? [] : typeof value === 'string' ? [value] : value);
  return { text, flags, lists: { group: list(form.group), channel: list(form.channel), depends_on: list(form.depends_on) } };
}

/** A number of seconds as the form writes it: 90s, 5m, 2h, 1d; 0 for none. */
export function secondsText(seconds: number): string {
  if (seconds === 0) return '0';
  for (const [unit, size] of [['d', 86_400], ['h', 3600], ['m', 60]] as const) if (seconds % size === 0) return `${seconds / size}${unit}`;
  return `${seconds}s`;
}

const ms = (value: number) => String(value / 1000);

/** The form filled in from a monitor, for its edit page: every field as it is now. */
export function draftFromMonitor(m: MonitorDocument): MonitorDraft {
  const draft = emptyDraft();
  const set = (values: Partial<Record<TextField, string>>) => Object.assign(draft.text, values);
  set({
    name: m.name, type: m.type, slug: m.slug, description: m.description, tags: m.tags.join(', '), timezone: m.timezone,
    grace: secondsText(m.grace_period_seconds), missed_before_down: String(m.schedule_tolerance), failures_before_down: String(m.failure_tolerance),
    min_duration: m.min_duration_seconds === null ? '' : secondsText(m.min_duration_seconds),
    max_duration: m.max_duration_seconds === null ? '' : secondsText(m.max_duration_seconds),
    surge: String(m.alert_surge_threshold), retention: String(m.retention_count),
  });
  if (m.type === 'JOB_CRON') set({ cron_schedule: m.schedule });
  if (m.type === 'JOB_HEARTBEAT') set({ heartbeat_every: m.schedule });
  if (isUptimeType(m.type)) set({ check_every: m.schedule });
  if (m.uptime) {
    const u = m.uptime;
    set({
      http_url: u.uptime_url, http_method: u.uptime_method, http_status: u.uptime_expected_status.join(', '), http_keyword: u.uptime_keyword ?? '',
      // Values are masked: sent back as they are, they keep the stored ones.
      http_headers: Object.keys(u.uptime_headers).map((name) => `${name}: ${HEADER_VALUE_MASK}`).join('\n'),
      http_body: u.uptime_request_body ?? '', http_timeout: ms(u.uptime_timeout_ms), http_json_query: u.uptime_json_query ?? '',
      http_json_operator: u.uptime_json_operator ?? 'equals', http_json_expected: u.uptime_json_expected ?? '',
    });
    Object.assign(draft.flags, { http_keyword_absent: u.uptime_keyword_absent, http_follow: u.uptime_follow_redirects, http_verify: u.uptime_verify_ssl });
  }
  if (m.tcp) set({ tcp_host: m.tcp.tcp_host, tcp_port: String(m.tcp.tcp_port), tcp_timeout: ms(m.tcp.tcp_timeout_ms) });
  if (m.dns) {
    set({
      dns_hostname: m.dns.dns_hostname, dns_record_type: m.dns.dns_record_type, dns_expected: m.dns.dns_expected.join('\n'), dns_match: m.dns.dns_match,
      dns_resolver: m.dns.dns_resolver ?? '', dns_timeout: ms(m.dns.dns_timeout_ms),
    });
  }
  draft.flags.alert_enabled = m.alert_enabled;
  draft.text.escalation_policy = m.escalation_policy_id ?? '';
  draft.lists = { group: new Set(m.notification_group_ids), channel: new Set(m.notification_channel_ids), depends_on: new Set(m.depends_on ?? []) };
  return draft;
}

/** A refusal of the form, naming the field as its label does; `field` is the input to point at. */
export class FormRefusal extends HttpError {
  constructor(readonly field: string | null, message: string, status = 400) {
    super(status, message.charAt(0).toUpperCase() + message.slice(1));
  }
}

/** The labels of the form's fields, as refusals name them. */
export const LABELS: Record<TextField | FlagField | ListField, string> = {
  name: 'Name', type: 'Type', slug: 'Slug', description: 'Description', tags: 'Tags', timezone: 'Time zone',
  cron_schedule: 'Cron expression or calendar rule', heartbeat_every: 'Expected every', check_every: 'Check every',
  http_url: 'URL', http_method: 'Method', http_status: 'Expected status codes', http_keyword: 'Keyword', http_headers: 'Request headers',
  http_body: 'Request body', http_timeout: 'Timeout (seconds)', http_json_query: 'JSON query', http_json_operator: 'Comparison', http_json_expected: 'Expected value',
  tcp_host: 'Host', tcp_port: 'Port', tcp_timeout: 'Timeout (seconds)',
  dns_hostname: 'Host name', dns_record_type: 'Record type', dns_expected: 'Expected values', dns_match: 'Match', dns_resolver: 'Resolver', dns_timeout: 'Timeout (seconds)',
  grace: 'Grace period', missed_before_down: 'Missed check-ins before DOWN', failures_before_down: 'Failures before DOWN',
  min_duration: 'Shortest normal run', max_duration: 'Longest normal run', surge: 'Alerts in a row before paging pauses', retention: 'Pings kept',
  escalation_policy: 'Escalation policy',
  alert_enabled: 'Page when an incident opens', http_keyword_absent: 'Fail when the keyword is found', http_follow: 'Follow redirects', http_verify: 'Verify the TLS certificate',
  group: 'Notification groups', channel: 'Channels', depends_on: 'Depends on',
};

/** The form field behind each field of the REST API's body; the schedule's depends on the type. */
function formFieldOf(apiField: string, type: MonitorType): TextField | FlagField | ListField | null {
  const fixed: Record<string, TextField | FlagField | ListField> = {
    name: 'name', type: 'type', slug: 'slug', description: 'description', tags: 'tags', timezone: 'timezone',
    grace_period_seconds: 'grace', schedule_tolerance: 'missed_before_down', failure_tolerance: 'failures_before_down',
    min_duration_seconds: 'min_duration', max_duration_seconds: 'max_duration', alert_enabled: 'alert_enabled', alert_surge_threshold: 'surge',
    retention_count: 'retention', notification_group_ids: 'group', notification_channel_ids: 'channel', depends_on: 'depends_on',
    escalation_policy_id: 'escalation_policy',
    uptime_url: 'http_url', uptime_method: 'http_method', uptime_expected_status: 'http_status', uptime_keyword: 'http_keyword',
    uptime_keyword_absent: 'http_keyword_absent', uptime_headers: 'http_headers', uptime_request_body: 'http_body', uptime_timeout_ms: 'http_timeout',
    uptime_follow_redirects: 'http_follow', uptime_verify_ssl: 'http_verify', uptime_json_query: 'http_json_query', uptime_json_operator: 'http_json_operator',
    uptime_json_expected: 'http_json_expected', tcp_host: 'tcp_host', tcp_port: 'tcp_port', tcp_timeout_ms: 'tcp_timeout',
    dns_hostname: 'dns_hostname', dns_record_type: 'dns_record_type', dns_expected: 'dns_expected', dns_match: 'dns_match', dns_resolver: 'dns_resolver', dns_timeout_ms: 'dns_timeout',
  };
  if (apiField === 'schedule') return scheduleField(type);
  return fixed[apiField] ?? null;
}

/** Where the form takes a type's schedule; JOB_BASIC has none. */
export function scheduleField(type: MonitorType): TextField | null {
  if (type === 'JOB_CRON') return 'cron_schedule';
  if (type === 'JOB_HEARTBEAT') return 'heartbeat_every';
  return isUptimeType(type) ? 'check_every' : null;
}

const API_FIELD = /\b(schedule|name|slug|description|tags|timezone|type|grace_period_seconds|schedule_tolerance|failure_tolerance|min_duration_seconds|max_duration_seconds|alert_enabled|alert_surge_threshold|retention_count|notification_group_ids|notification_channel_ids|depends_on|escalation_policy_id|uptime_[a-z_]+|tcp_[a-z_]+|dns_[a-z_]+)(\[\d+\])?(?![\w-])/g;

/**
 * The REST API's words for a refusal, in the form's: each field it names becomes the label of the
 * form's field (`grace_period_seconds` → "Grace period"), each type its name; the first one named
 * is the field the page points at.
 */
export function inFormWords(message: string, type: MonitorType, status = 400): FormRefusal {
  let first: string | null = null;
  const worded = message
    .replace(API_FIELD, (whole, apiField: string, index: string | undefined, offset: number, all: string) => {
      const field = formFieldOf(apiField, type);
      // A plain word ("name", "type") is a field where a sentence starts with it, or says what it must be.
      const plainWord = !/_/.test(apiField) && offset !== 0 && !/^(\[\d+\])? (must|is)\b/.test(all.slice(offset + apiField.length));
      if (field === null || plainWord) return whole;
      first ??= field;
      return index === undefined ? LABELS[field] : `${LABELS[field]} (entry ${Number(index.slice(1, -1)) + 1})`;
    })
    .replace(/\b(JOB_CRON|JOB_HEARTBEAT|JOB_BASIC|UPTIME_HTTP|UPTIME_TCP|UPTIME_DNS)\b/g, (code) => TYPE_NAMES[code as MonitorType]);
  return new FormRefusal(first, worded, status);
}

export const isMonitorType = (value: string): value is MonitorType => (MONITOR_TYPES as readonly string[]).includes(value);

/** A duration as typed (90s, 5m, 2h, 1d, or a number of seconds) in seconds; null when empty and `optional`. */
function durationSeconds(draft: MonitorDraft, field: TextField, optional: boolean): number | null {
  const typed = draft.text[field].trim();
  if (typed === '' && optional) return null;
  const seconds = /^\d{1,8}$/.test(typed) ? Number(typed) : (parseInterval(typed) ?? NaN) / 1000;
  const what = optional ? 'a duration such as 90s, 5m, 2h or 1d, or empty for none' : 'a duration such as 90s, 5m, 2h or 1d (0 for none)';
  if (!Number.isInteger(seconds)) throw new FormRefusal(field, `${LABELS[field]} must be ${what}, not "${typed}"`);
  if (seconds > 30 * 86_400) throw new FormRefusal(field, `${LABELS[field]} must be at most 30 days`);
  return seconds;
}

/** A whole number as typed: a number when it is one (the API's codec then says what range it wants), else the text. */
function whole(draft: MonitorDraft, field: TextField): number {
  const typed = draft.text[field].trim();
  if (!/^-?\d{1,9}$/.test(typed)) throw new FormRefusal(field, `${LABELS[field]} must be a whole number${typed === '' ? '' : `, not "${typed}"`}`);
  return Number(typed);
}

function timeoutMs(draft: MonitorDraft, field: TextField): number {
  const seconds = whole(draft, field);
  if (seconds < 1 || seconds > 30) throw new FormRefusal(field, `${LABELS[field]} must be from 1 to 30 seconds`);
  return seconds * 1000;
}

const lines = (text: string) => text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
const orNull = (text: string) => (text.trim() === '' ? null : text);

function headersOf(draft: MonitorDraft): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines(draft.text.http_headers)) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new FormRefusal('http_headers', `${LABELS.http_headers} must be one "Name: value" a line; "${line}" has no name before a colon`);
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return headers;
}

function statusCodes(draft: MonitorDraft): number[] {
  const typed = draft.text.http_status.split(/[\s,]+/).filter((s) => s !== '');
  const bad = typed.find((s) => !/^\d{3}$/.test(s));
  if (bad !== undefined) throw new FormRefusal('http_status', `${LABELS.http_status} must be three-digit HTTP status codes separated by commas, such as 200, 204; "${bad}" is not one`);
  return typed.map(Number);
}

/** The type-specific part of the REST API's body. */
function typeFields(draft: MonitorDraft, type: MonitorType): Record<string, unknown> {
  const x = draft.text;
  switch (type) {
    case 'UPTIME_HTTP':
      return {
        uptime_url: x.http_url.trim(), uptime_method: x.http_method, uptime_expected_status: statusCodes(draft), uptime_keyword: orNull(x.http_keyword),
        uptime_keyword_absent: draft.flags.http_keyword_absent, uptime_headers: headersOf(draft), uptime_request_body: orNull(x.http_body),
        uptime_timeout_ms: timeoutMs(draft, 'http_timeout'), uptime_follow_redirects: draft.flags.http_follow, uptime_verify_ssl: draft.flags.http_verify,
        uptime_json_query: orNull(x.http_json_query.trim()), uptime_json_operator: x.http_json_operator,
        uptime_json_expected: x.http_json_query.trim() === '' || x.http_json_operator === 'exists' ? null : orNull(x.http_json_expected),
      };
    case 'UPTIME_TCP':
      return { tcp_host: x.tcp_host.trim(), tcp_port: whole(draft, 'tcp_port'), tcp_timeout_ms: timeoutMs(draft, 'tcp_timeout') };
    case 'UPTIME_DNS':
      return {
        dns_hostname: x.dns_hostname.trim(), dns_record_type: x.dns_record_type, dns_expected: lines(x.dns_expected), dns_match: x.dns_match,
        dns_resolver: orNull(x.dns_resolver.trim()), dns_timeout_ms: timeoutMs(draft, 'dns_timeout'),
      };
    default:
      return {};
  }
}

/** What a type's schedule is in the draft; JOB_BASIC keeps `basic` (the API stores but never reads it). */
export function scheduleOf(draft: MonitorDraft, type: MonitorType, basic: string): string {
  const field = scheduleField(type);
  return field === null ? basic : draft.text[field].trim();
}

/**
 * The REST API's body for the draft (a create's, or a PATCH's setting every field the type has):
 * both then refuse the same things, the console in its own words (`inFormWords`).
 */
export function bodyOf(draft: MonitorDraft, type: MonitorType, basicSchedule: string): Record<string, unknown> {
  const x = draft.text;
  const isJob = !isUptimeType(type);
  const waits = type === 'JOB_CRON' || type === 'JOB_HEARTBEAT';
  const tags = x.tags.split(',').map((tag) => tag.trim()).filter((tag) => tag !== '');
  if (x.name.trim() === '') throw new FormRefusal('name', `${LABELS.name} is needed: what people see on the dashboard and in alerts`);
  return {
    name: x.name.trim(),
    type,
    schedule: scheduleOf(draft, type, basicSchedule),
    ...(x.slug.trim() === '' ? {} : { slug: x.slug.trim() }),
    description: x.description,
    tags,
    timezone: x.timezone.trim(),
    ...(waits ? { grace_period_seconds: durationSeconds(draft, 'grace', false), schedule_tolerance: whole(draft, 'missed_before_down') } : {}),
    failure_tolerance: whole(draft, 'failures_before_down'),
    ...(isJob
      ? { min_duration_seconds: durationSeconds(draft, 'min_duration', true), max_duration_seconds: durationSeconds(draft, 'max_duration', true), retention_count: whole(draft, 'retention') }
      : {}),
    alert_enabled: draft.flags.alert_enabled,
    alert_surge_threshold: whole(draft, 'surge'),
    notification_group_ids: [...draft.lists.group],
    notification_channel_ids: [...draft.lists.channel],
    depends_on: [...draft.lists.depends_on],
    escalation_policy_id: x.escalation_policy === '' ? null : x.escalation_policy,
    ...typeFields(draft, type),
  };
}
