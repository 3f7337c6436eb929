import type * as t from 'io-ts';
import { type DnsCheckConfig, type MonitorConfig, type TcpCheckConfig, type UptimeConfig, DNS_DEFAULTS, MONITOR_DEFAULTS, TCP_DEFAULTS, UPTIME_DEFAULTS } from '../domain/monitors/monitor-config.js';
import type { MonitorPatch, UptimePatch } from '../domain/monitors/monitor.js';
import type { MonitorType } from '../domain/monitors/schedule.js';
import { type CreateMonitorBody, type UpdateMonitorBody, DNS_FIELD_NAMES, TCP_FIELD_NAMES, UPTIME_FIELD_NAMES } from './codecs/monitors.js';
import { badRequest } from './errors.js';

type CreateBody = t.TypeOf<typeof CreateMonitorBody>;
type UpdateBody = t.TypeOf<typeof UpdateMonitorBody>;

function uptimePatchOf(body: CreateBody | UpdateBody, type: MonitorType): UptimePatch | undefined {
  const given = UPTIME_FIELD_NAMES.filter((field) => body[field] !== undefined);
  if (given.length === 0) return undefined;
  if (type !== 'UPTIME_HTTP') throw badRequest(`${given[0]} is only accepted on UPTIME_HTTP monitors`);
  const patch: UptimePatch = {};
  if (body.uptime_url !== undefined) patch.uptime_url = body.uptime_url;
  if (body.uptime_method !== undefined) patch.uptime_method = body.uptime_method;
  if (body.uptime_expected_status !== undefined) patch.uptime_expected_status = body.uptime_expected_status;
  if (body.uptime_keyword !== undefined) patch.uptime_keyword = body.uptime_keyword;
  if (body.uptime_keyword_absent !== undefined) patch.uptime_keyword_absent = body.uptime_keyword_absent;
  if (body.uptime_headers !== undefined) patch.uptime_headers = body.uptime_headers;
  if (body.uptime_request_body !== undefined) patch.uptime_request_body = body.uptime_request_body;
  if (body.uptime_timeout_ms !== undefined) patch.uptime_timeout_ms = body.uptime_timeout_ms;
  if (body.uptime_follow_redirects !== undefined) patch.uptime_follow_redirects = body.uptime_follow_redirects;
  if (body.uptime_verify_ssl !== undefined) patch.uptime_verify_ssl = body.uptime_verify_ssl;
  if (body.uptime_json_query !== undefined) patch.uptime_json_query = body.uptime_json_query;
  if (body.uptime_json_operator !== undefined) patch.uptime_json_operator = body.uptime_json_operator;
  if (body.uptime_json_expected !== undefined) patch.uptime_json_expected = body.uptime_json_expected;
  return patch;
}

function tcpPatchOf(body: CreateBody | UpdateBody, type: MonitorType): Partial<TcpCheckConfig> | undefined {
  const given = TCP_FIELD_NAMES.filter((field) => body[field] !== undefined);
  if (given.length === 0) return undefined;
  if (type !== 'UPTIME_TCP') throw badRequest(`${given[0]} is only accepted on UPTIME_TCP monitors`);
  const patch: Partial<TcpCheckConfig> = {};
  if (body.tcp_host !== undefined) patch.tcp_host = body.tcp_host;
  if (body.tcp_port !== undefined) patch.tcp_port = body.tcp_port;
  if (body.tcp_timeout_ms !== undefined) patch.tcp_timeout_ms = body.tcp_timeout_ms;
  return patch;
}

function dnsPatchOf(body: CreateBody | UpdateBody, type: MonitorType): Partial<DnsCheckConfig> | undefined {
  const given = DNS_FIELD_NAMES.filter((field) => body[field] !== undefined);
  if (given.length === 0) return undefined;
  if (type !== 'UPTIME_DNS') throw badRequest(`${given[0]} is only accepted on UPTIME_DNS monitors`);
  const patch: Partial<DnsCheckConfig> = {};
  if (body.dns_hostname !== undefined) patch.dns_hostname = body.dns_hostname;
  if (body.dns_record_type !== undefined) patch.dns_record_type = body.dns_record_type;
  if (body.dns_expected !== undefined) patch.dns_expected = [...new Set(body.dns_expected)];
  if (body.dns_match !== undefined) patch.dns_match = body.dns_match;
  if (body.dns_resolver !== undefined) patch.dns_resolver = body.dns_resolver;
  if (body.dns_timeout_ms !== undefined) patch.dns_timeout_ms = body.dns_timeout_ms;
  return patch;
}

/** The fields both create and update can set, copied one by one so unknown keys never travel on. */
function commonPatch(body: CreateBody | UpdateBody): Omit<MonitorPatch, 'uptime' | 'tcp' | 'dns'> {
  const patch: Omit<MonitorPatch, 'uptime' | 'tcp' | 'dns'> = {};
  if (body.slug !== undefined) patch.slug = body.slug;
  if (body.description !== undefined) patch.description = body.description;
  if (body.tags !== undefined) patch.tags = body.tags;
  if (body.timezone !== undefined) patch.timezone = body.timezone;
  if (body.grace_period_seconds !== undefined) patch.grace_period_seconds = body.grace_period_seconds;
  if (body.schedule_tolerance !== undefined) patch.schedule_tolerance = body.schedule_tolerance;
  if (body.failure_tolerance !== undefined) patch.failure_tolerance = body.failure_tolerance;
  if (body.min_duration_seconds !== undefined) patch.min_duration_seconds = body.min_duration_seconds;
  if (body.max_duration_seconds !== undefined) patch.max_duration_seconds = body.max_duration_seconds;
  if (body.alert_enabled !== undefined) patch.alert_enabled = body.alert_enabled;
  if (body.alert_surge_threshold !== undefined) patch.alert_surge_threshold = body.alert_surge_threshold;
  if (body.retention_count !== undefined) patch.retention_count = body.retention_count;
  if (body.notification_group_ids !== undefined) patch.notification_group_ids = [...new Set(body.notification_group_ids)];
  if (body.notification_channel_ids !== undefined) patch.notification_channel_ids = [...new Set(body.notification_channel_ids)];
  if (body.depends_on !== undefined) patch.depends_on = [...new Set(body.depends_on.map((id) => id.toLowerCase()))];
  if (body.escalation_policy_id !== undefined) patch.escalation_policy_id = body.escalation_policy_id?.toLowerCase() ?? null;
  return patch;
}

/** A create body with every default filled in; an empty slug means "derive it from the name". */
export function configFromCreate(body: CreateBody): MonitorConfig {
  const uptimePatch = uptimePatchOf(body, body.type);
  let uptime: UptimeConfig | null = null;
  if (body.type === 'UPTIME_HTTP') {
    if (uptimePatch?.uptime_url === undefined) throw badRequest('uptime_url is required for UPTIME_HTTP monitors');
    uptime = { ...UPTIME_DEFAULTS, ...uptimePatch, uptime_url: uptimePatch.uptime_url };
  }
  const tcpPatch = tcpPatchOf(body, body.type);
  const dnsPatch = dnsPatchOf(body, body.type);
  let checks: Pick<MonitorConfig, 'tcp' | 'dns'> = {};
  if (body.type === 'UPTIME_TCP') {
    if (tcpPatch?.tcp_host === undefined) throw badRequest('tcp_host is required for UPTIME_TCP monitors');
    if (tcpPatch.tcp_port === undefined) throw badRequest('tcp_port is required for UPTIME_TCP monitors');
    checks = { tcp: { ...TCP_DEFAULTS, ...tcpPatch, tcp_host: tcpPatch.tcp_host, tcp_port: tcpPatch.tcp_port } };
  }
  if (body.type === 'UPTIME_DNS') {
    if (dnsPatch?.dns_hostname === undefined) throw badRequest('dns_hostname is required for UPTIME_DNS monitors');
    checks = { dns: { ...DNS_DEFAULTS, ...dnsPatch, dns_hostname: dnsPatch.dns_hostname } };
  }
  return {
    ...MONITOR_DEFAULTS,
    tags: [],
    notification_group_ids: [],
    notification_channel_ids: [],
    slug: '',
    ...commonPatch(body),
    name: body.name,
    type: body.type,
    schedule: body.schedule,
    uptime,
    ...checks,
  };
}

export function patchFromUpdate(body: UpdateBody, type: MonitorType): MonitorPatch {
  if (body.type !== undefined && body.type !== type) throw badRequest('type cannot be changed; create a new monitor instead');
  const uptime = uptimePatchOf(body, type);
  const tcp = tcpPatchOf(body, type);
  const dns = dnsPatchOf(body, type);
  return {
    ...commonPatch(body),
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.schedule !== undefined ? { schedule: body.schedule } : {}),
    ...(uptime ? { uptime } : {}),
    ...(tcp ? { tcp } : {}),
    ...(dns ? { dns } : {}),
  };
}
