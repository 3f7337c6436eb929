import * as t from 'io-ts';
import { NOTE_KINDS, NOTE_VISIBILITIES } from '../../domain/incidents/incident-notes.js';
import { INCIDENT_KINDS, INCIDENT_STATUSES } from '../../domain/monitors/incidents.js';
import { PING_KINDS } from '../../domain/monitors/pings.js';
import { ROLES } from '../../domain/access/roles.js';
import { SCOPES } from '../../domain/access/scopes.js';
import { DNS_RECORD_TYPES, HEADER_VALUE_MASK, JSON_OPERATORS } from '../../domain/monitors/monitor-config.js';
import { MONITOR_TYPES } from '../../domain/monitors/schedule.js';
import { PROVISIONED_TYPES } from '../../domain/projects/auto-provisioning.js';
import { described } from '../../web/json-schema.js';

/**
 * What the API answers, as codecs. They are documentation, not decoders the server runs; the
 * OpenAPI spec keeps them honest by validating real responses against the published schemas,
 * which are closed (an undocumented key fails it).
 */

const nullable = <C extends t.Any>(codec: C) => t.union([codec, t.null]);
const Id = described(t.string, { type: 'string', format: 'uuid' });
const Time = described(t.string, { type: 'string', format: 'date-time' });
const Enum = (values: readonly string[]) => described(t.string, { type: 'string', enum: [...values] });
/** Free-form objects whose keys vary by kind (event data, a cause's details). */
const AnyObject = t.UnknownRecord;

export const ErrorResponse = t.intersection([t.type({ error: t.string }), t.partial({ code: t.string })]);

export const Pagination = t.type({
  page: t.number, limit: t.number, total: t.number, total_pages: t.number, has_next: t.boolean, has_prev: t.boolean,
});
export const PageOf = <C extends t.Any>(item: C) => t.type({ data: t.array(item), pagination: Pagination });

export const User = t.type({ id: Id, email: t.string, first_name: t.string, last_name: t.string });

export const Member = t.intersection([
  t.type({ id: Id, project_id: Id, user_id: Id, role: Enum(ROLES), joined_at: Time }),
  t.partial({ user: nullable(User) }),
]);

export const Project = t.type({
  id: Id,
  name: t.string,
  description: t.string,
  owner_id: Id,
  owner: nullable(User),
  members: t.array(Member),
  _count: t.type({ members: t.number }),
  ping_key: t.string,
  /** Monitors created by a first ping to an unknown slug with `?create=1`. */
  auto_provisioning: t.type({
    enabled: t.boolean,
    max_per_hour: t.number,
    defaults: t.type({ type: Enum(PROVISIONED_TYPES), schedule: t.string, timezone: t.string, grace_period_seconds: t.number }),
  }),
  created_at: Time,
  updated_at: Time,
});

export const ApiKey = t.type({
  id: Id,
  name: t.string,
  kind: Enum(['account', 'project']),
  scopes: t.array(Enum(SCOPES)),
  project_id: nullable(Id),
  env: Enum(['live', 'test']),
  key_preview: t.string,
  created_at: Time,
  expires_at: Time,
  revoked_at: nullable(Time),
  last_used_at: nullable(Time),
});

/** Present on UPTIME_HTTP monitors only; uptime_locations on every uptime monitor. */
const uptimeFields = t.partial({
  uptime_url: t.string,
  uptime_method: Enum(['GET', 'HEAD', 'POST']),
  uptime_expected_status: t.array(t.number),
  uptime_keyword: nullable(t.string),
  uptime_keyword_absent: t.boolean,
  uptime_headers: described(t.record(t.string, t.string), {
    type: 'object',
    additionalProperties: { type: 'string', const: HEADER_VALUE_MASK },
    description: `Header names, each with its value masked as ${HEADER_VALUE_MASK}`,
  }),
  uptime_request_body: nullable(t.string),
  uptime_timeout_ms: t.number,
  uptime_follow_redirects: t.boolean,
  uptime_verify_ssl: t.boolean,
  uptime_json_query: nullable(t.string),
  uptime_json_operator: Enum(JSON_OPERATORS),
  uptime_json_expected: nullable(t.string),
  uptime_locations: t.array(t.string),
});

/** Present on UPTIME_TCP monitors only. */
const tcpFields = t.partial({
  tcp_host: t.string,
  tcp_port: t.number,
  tcp_timeout_ms: t.number,
});

/** Present on UPTIME_DNS monitors only. */
const dnsFields = t.partial({
  dns_hostname: t.string,
  dns_record_type: Enum(DNS_RECORD_TYPES),
  dns_expected: t.array(t.string),
  dns_match: Enum(['any', 'all']),
  dns_resolver: nullable(t.string),
  dns_timeout_ms: t.number,
});

export const Monitor = t.intersection([
  t.type({
    id: Id,
    project_id: Id,
    slug: t.string,
    name: t.string,
    description: t.string,
    tags: t.array(t.string),
    type: Enum(MONITOR_TYPES),
    schedule: nullable(t.string),
    timezone: t.string,
    grace_period_seconds: t.number,
    schedule_tolerance: t.number,
    failure_tolerance: t.number,
    min_duration_seconds: nullable(t.number),
    max_duration_seconds: nullable(t.number),
    alert_enabled: t.boolean,
    alert_surge_threshold: nullable(t.number),
    alerts_paused_until: nullable(Time),
    retention_count: t.number,
    notification_group_ids: t.array(Id),
    notification_channel_ids: t.array(Id),
    depends_on: t.array(Id),
    escalation_policy_id: nullable(Id),
    status: Enum(['UP', 'DOWN', 'PAUSED']),
    is_new: t.boolean,
    consecutive_failures: t.number,
    consecutive_misses: t.number,
    consecutive_alerts: t.number,
    last_success_at: nullable(Time),
    next_expected_at: nullable(Time),
    total_pings_received: t.number,
    created_at: Time,
    updated_at: Time,
  }),
  uptimeFields,
  tcpFields,
  dnsFields,
]);

const IncidentActor = AnyObject;

export const Incident = t.type({
  id: Id,
  monitor_id: Id,
  project_id: Id,
  monitor: t.type({ id: Id, name: t.string, slug: t.string, project_id: Id }),
  event: Enum(INCIDENT_KINDS),
  cause: t.string,
  status: Enum(INCIDENT_STATUSES),
  started_at: Time,
  acknowledged_at: nullable(Time),
  acknowledged_by: nullable(IncidentActor),
  resolved_at: nullable(Time),
  resolved_by: nullable(IncidentActor),
  reopened_at: nullable(Time),
  caused_upstream: nullable(t.type({ monitor_id: Id, name: t.string })),
});

export const IncidentNote = t.type({
  id: Id,
  incident_id: Id,
  monitor_id: Id,
  project_id: Id,
  kind: Enum(NOTE_KINDS),
  visibility: Enum(NOTE_VISIBILITIES),
  text: t.string,
  added_at: Time,
  author_user_id: Id,
  author_email: t.string,
});

export const Ping = t.type({
  id: Id,
  run_id: nullable(t.string),
  event: Enum(PING_KINDS),
  exit_code: nullable(t.number),
  duration_ms: nullable(t.number),
  duration_assertion: nullable(Enum(['PASS', 'TOO_FAST', 'TOO_SLOW'])),
  message: nullable(t.string),
  payload: nullable(t.string),
  payload_truncated: t.boolean,
  payload_bytes: nullable(t.number),
  request_ip: nullable(t.string),
  request_ua: nullable(t.string),
  started_at: nullable(Time),
  created_at: Time,
});

export const PingDetail = t.intersection([Ping, t.type({ truncated: t.boolean })]);

export const PingAccepted = t.intersection([
  t.type({ ok: t.literal(true), ping_id: Id, monitor_id: Id, event: Enum(PING_KINDS) }),
  t.partial({ code: t.literal('MONITOR_PAUSED'), created: t.literal(true) }),
]);

export const Schedule = t.type({
  type: t.string,
  schedule: nullable(t.string),
  timezone: t.string,
  grace_period_seconds: t.number,
  early_checkin_window_seconds: t.number,
  next_expected_at: nullable(Time),
  upcoming: t.array(Time),
});

export const Warnings = t.type({
  warnings: t.array(AnyObject),
  analyzed_period: t.type({ from: Time, to: Time, total_pings: t.number }),
});

export const RecordedEvent = t.type({
  id: t.string,
  type: t.string,
  time: Time,
  actor: nullable(AnyObject),
  stream: t.string,
  revision: t.number,
  data: AnyObject,
});

export const Timeline = t.type({ incident: Incident, configuration: nullable(AnyObject), entries: t.array(AnyObject) });

const ChannelFields = {
  id: Id,
  project_id: Id,
  name: t.string,
  type: t.string,
  enabled: t.boolean,
  is_default: t.boolean,
  quiet_hours: nullable(t.type({ days: t.array(t.number), start: t.string, end: t.string, time_zone: t.string })),
  owner_user_id: nullable(Id),
  last_delivery_at: nullable(Time),
  last_error: nullable(t.string),
  owner: nullable(User),
  created_at: Time,
  updated_at: Time,
};
export const ChannelItem = t.type(ChannelFields);
export const Channel = t.type({ ...ChannelFields, config_fields_set: t.array(t.string) });

export const GroupItem = t.type({
  id: Id,
  project_id: Id,
  name: t.string,
  description: t.string,
  is_default: t.boolean,
  channel_count: t.number,
  monitors: t.array(t.type({ id: Id, name: t.string })),
});

export const GroupDetail = t.intersection([GroupItem, t.type({ channels: t.array(ChannelItem) })]);

export const UptimeStats = t.type({
  avg_ms: nullable(t.number),
  min_ms: nullable(t.number),
  max_ms: nullable(t.number),
  p95_ms: nullable(t.number),
  total_checks: t.number,
  up_count: t.number,
  down_count: t.number,
  uptime_percentage: nullable(t.number),
});

export const CheckResult = t.type({
  id: t.string,
  monitor_id: Id,
  status_code: nullable(t.number),
  response_time_ms: t.number,
  is_up: t.boolean,
  error: nullable(t.string),
  ssl_expires_at: nullable(Time),
  ssl_issuer: nullable(t.string),
  check_region: t.string,
  check_status: Enum(['ok', 'probe_error']),
  cycle_id: nullable(t.string),
  created_at: Time,
});

export const UptimeSummary = t.type({
  period_hours: t.number,
  monitors: t.array(
    t.type({
      monitor_id: Id, name: t.string, uptime_percentage: nullable(t.number), total_checks: t.number,
      up_count: t.number, down_count: t.number, avg_ms: nullable(t.number), p95_ms: nullable(t.number),
    }),
  ),
  overall: t.type({ uptime_percentage: nullable(t.number), total_checks: t.number, up_count: t.number, down_count: t.number }),
});

/** The diagnostic tools answer what the probe saw; their fields vary with what could be reached. */
export const ToolReport = described(t.UnknownRecord, {
  type: 'object',
  required: ['ok', 'checked_at', 'check_region'],
  properties: { ok: { const: true }, checked_at: { type: 'string', format: 'date-time' }, check_region: { type: 'string' } },
});

export const EscalationStep = t.type({
  delay_seconds: t.number,
  notification_group_ids: t.array(Id),
  notification_channel_ids: t.array(Id),
  on_call_schedule_ids: t.array(Id),
  urgent: t.boolean,
});

export const EscalationPolicy = t.type({
  id: Id,
  project_id: Id,
  name: t.string,
  steps: t.array(EscalationStep),
  repeat: t.number,
  monitors: t.array(t.type({ id: Id, name: t.string })),
  created_at: Time,
  updated_at: Time,
});
