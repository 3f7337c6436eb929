import * as t from 'io-ts';
import { INCIDENT_KINDS } from '../domain/monitors/incidents.js';
import { PING_KINDS } from '../domain/monitors/pings.js';
import { DNS_RECORD_TYPES, JSON_OPERATORS } from '../domain/monitors/monitor-config.js';
import { MONITOR_TYPES } from '../domain/monitors/schedule.js';
import { NullableNumber, NullableString, nullable, oneOf } from './fields.js';
import { UserActor } from './incidents.js';
import { PageReason } from './notifications.js';

const Ids = { monitor_id: t.string, project_id: t.string };

const PingCounters = t.type({
  consecutive_failures: t.number,
  consecutive_misses: t.number,
  next_expected_at: NullableString,
  total_pings_received: t.number,
  last_success_at: NullableString,
  last_checkin_at: NullableString,
  last_ping_at: NullableString,
  retention_count: t.number,
});

/**
 * `uptime_headers_sealed` stays optional in the type (monitor-config.ts declares it so), but
 * every event reaches the codec with it: version 1 events, recorded before header values were
 * sealed, get it from their upcaster (see upcasters.ts).
 */
const UptimeConfig = t.intersection([
  t.type({
    uptime_url: t.string,
    uptime_method: oneOf(['GET', 'HEAD', 'POST'], 'HttpMethod'),
    uptime_expected_status: t.array(t.number),
    uptime_keyword: NullableString,
    uptime_keyword_absent: t.boolean,
    uptime_headers: t.record(t.string, t.string),
    uptime_request_body: NullableString,
    uptime_timeout_ms: t.number,
    uptime_follow_redirects: t.boolean,
    uptime_verify_ssl: t.boolean,
  }),
  // Absent from events recorded before sealed headers and JSON queries existed.
  t.partial({
    uptime_headers_sealed: t.boolean,
    uptime_json_query: NullableString,
    uptime_json_operator: oneOf(JSON_OPERATORS, 'JsonOperator'),
    uptime_json_expected: NullableString,
  }),
]);

const TcpCheckConfig = t.type({ tcp_host: t.string, tcp_port: t.number, tcp_timeout_ms: t.number });

const DnsCheckConfig = t.type({
  dns_hostname: t.string,
  dns_record_type: oneOf(DNS_RECORD_TYPES, 'DnsRecordType'),
  dns_expected: t.array(t.string),
  dns_match: oneOf(['any', 'all'], 'DnsMatch'),
  dns_resolver: NullableString,
  dns_timeout_ms: t.number,
});

export const MonitorConfig = t.intersection([t.type({
  name: t.string,
  slug: t.string,
  description: t.string,
  tags: t.array(t.string),
  type: oneOf(MONITOR_TYPES, 'MonitorType'),
  schedule: t.string,
  timezone: t.string,
  grace_period_seconds: t.number,
  schedule_tolerance: t.number,
  failure_tolerance: t.number,
  min_duration_seconds: NullableNumber,
  max_duration_seconds: NullableNumber,
  alert_enabled: t.boolean,
  alert_surge_threshold: t.number,
  retention_count: t.number,
  notification_group_ids: t.array(t.string),
  notification_channel_ids: t.array(t.string),
  uptime: nullable(UptimeConfig),
}),
// Absent from events recorded before TCP and DNS checks, and dependencies, existed (optional
// fields: the drift check cannot see them, so they are listed here by hand).
t.partial({ tcp: nullable(TcpCheckConfig), dns: nullable(DnsCheckConfig), depends_on: t.array(t.string), escalation_policy_id: NullableString })]);

const Ping = {
  ping_id: t.string,
  event: oneOf(PING_KINDS, 'PingKind'),
  run_id: NullableString,
  exit_code: NullableNumber,
  duration_ms: NullableNumber,
  message: NullableString,
  payload: NullableString,
  payload_truncated: t.boolean,
  payload_bytes: NullableNumber,
  request_ip: NullableString,
  request_ua: NullableString,
};

const CheckObservation = {
  check_id: t.string,
  status_code: NullableNumber,
  response_time_ms: t.number,
  is_up: t.boolean,
  error: NullableString,
  ssl_expires_at: NullableString,
  ssl_issuer: NullableString,
  check_region: t.string,
  check_status: oneOf(['ok', 'probe_error'], 'CheckStatus'),
  cycle_id: NullableString,
  attempts: t.number,
};

export const monitorEventCodecs = {
  MonitorCreated: t.type({ ...Ids, config: MonitorConfig, created_at: t.string, next_expected_at: NullableString }),
  MonitorUpdated: t.type({ ...Ids, config: MonitorConfig, updated_at: t.string, last_ping_seq: NullableNumber, next_expected_at: NullableString }),
  MonitorPaused: t.type({ ...Ids, paused_at: t.string }),
  MonitorResumed: t.type({ ...Ids, resumed_at: t.string, next_expected_at: NullableString }),
  MonitorCountersReset: t.type({ ...Ids, reset_at: t.string }),
  MonitorWentDown: t.type({ ...Ids, reason: oneOf(['FAILURES', 'MISSES'], 'DownReason'), at: t.string }),
  RunOverdue: t.type({
    ...Ids,
    start_ping_id: t.string,
    run_id: NullableString,
    started_at: t.string,
    deadline_at: t.string,
    closed_as_failure: t.boolean,
    consecutive_failures: t.number,
    counters: nullable(PingCounters),
  }),
  CheckInMissed: t.type({ ...Ids, expected_at: t.string, deadline_at: t.string, consecutive_misses: t.number, next_expected_at: NullableString, counters: nullable(PingCounters) }),
  CheckInUnheard: t.type({
    ...Ids,
    expected_at: t.string,
    last_expected_at: t.string,
    deadline_at: t.string,
    slots: t.number,
    outage_from: t.string,
    outage_to: t.string,
    next_expected_at: NullableString,
    counters: PingCounters,
  }),
  RunUnheard: t.type({ ...Ids, start_ping_id: t.string, run_id: NullableString, started_at: t.string, deadline_at: t.string, outage_from: t.string, outage_to: t.string, counters: PingCounters }),
  MonitorWentUp: t.type({ ...Ids, reason: oneOf(['SUCCESS_PING', 'FORCED'], 'UpReason'), at: t.string }),
  PingReceived: t.type({
    ...Ids,
    ...Ping,
    duration_assertion: nullable(oneOf(['PASS', 'TOO_FAST', 'TOO_SLOW'], 'DurationAssertion')),
    started_at: NullableString,
    received_at: t.string,
    evaluated: t.boolean,
    closed_start_ping_id: NullableString,
    consecutive_failures: t.number,
    consecutive_misses: t.number,
    total_pings_received: t.number,
    last_success_at: NullableString,
    last_checkin_at: NullableString,
    next_expected_at: NullableString,
    retention_count: t.number,
  }),
  CheckCompleted: t.type({
    ...Ids,
    ...CheckObservation,
    checked_at: t.string,
    check_number: NullableNumber,
    consecutive_failures: t.number,
    last_success_at: NullableString,
    next_expected_at: NullableString,
    retention_count: t.number,
  }),
  ChecksSummarized: t.type({
    ...Ids,
    hour: t.string,
    total: t.number,
    up: t.number,
    down: t.number,
    times: t.array(t.number),
    summarized_at: t.string,
    previous_hour: NullableString,
    summaries_kept: NullableNumber,
  }),
  IncidentOpened: t.type({
    ...Ids,
    incident_id: t.string,
    event: oneOf(INCIDENT_KINDS, 'IncidentKind'),
    cause: t.string,
    started_at: t.string,
    monitor_name: t.string,
    monitor_slug: t.string,
    ping_id: NullableString,
  }),
  IncidentCausedUpstream: t.type({ ...Ids, incident_id: t.string, upstream_monitor_id: t.string, upstream_monitor_name: t.string, at: t.string }),
  IncidentAcknowledged: t.type({ ...Ids, ...UserActor, incident_id: t.string, acknowledged_at: t.string }),
  IncidentResolved: t.type({
    ...Ids,
    incident_id: t.string,
    resolved_at: t.string,
    by_kind: oneOf(['user', 'system'], 'ResolvedBy'),
    user_id: NullableString,
    email: NullableString,
    api_key_id: NullableString,
    reason: NullableString,
  }),
  MonitorDeleted: t.type({ ...Ids, deleted_at: t.string }),
  PageScheduled: t.type({ ...Ids, page_id: t.string, incident_id: t.string, reason: PageReason, at: t.string, repage_at: NullableString }),
  AlertsPaused: t.type({ ...Ids, until: t.string, consecutive_alerts: t.number, at: t.string }),
  SlugClaimed: t.type({ project_id: t.string, slug: t.string, monitor_id: t.string, claimed_at: t.string }),
  SlugReleased: t.type({ project_id: t.string, slug: t.string, monitor_id: t.string, released_at: t.string }),
};
