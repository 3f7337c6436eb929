import * as t from 'io-ts';
import { isIP } from 'node:net';
import { DNS_RECORD_TYPES, HEADER_VALUE_MASK, JSON_OPERATORS } from '../../domain/monitors/monitor-config.js';
import { parseResolver } from '../../checker/dns-check.js';
import { jsonQueryProblem } from '../../checker/json-query.js';
import { MONITOR_TYPES } from '../../domain/monitors/schedule.js';
import { MAX_DEPENDENCIES } from '../../domain/monitors/dependencies.js';
import { withRefinementKeywords } from '../json-schema.js';
import { BodyOf, BoundedString, Checked, Integer, OneOf, Uuid } from '../validation.js';
import { Label, Text } from '../labels.js';

const SLUG = /^[a-z0-9-]{1,50}$/;
export const Slug = Checked<string>('a slug', (u) =>
  typeof u === 'string' && SLUG.test(u)
    ? { ok: true, value: u }
    : { ok: false, message: 'slug must be lowercase letters, digits and hyphens, at most 50 characters' },
);

/** Items are checked one by one (a bad one is named by its index), then the count. */
const listOf = <A>(item: t.Type<A, A, unknown>, max: number) =>
  withRefinementKeywords(t.refinement(t.array(item), (items) => items.length <= max, `an array of at most ${max} items`), { maxItems: max });

const Tags = listOf(Label(1, 50), 10);
const Ids = listOf(Uuid, 50);
const Seconds = Integer(0, 30 * 24 * 3600);
const NullableSeconds = t.union([Seconds, t.null], 'an integer from 0 to 2592000, or null');

const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host', 'content-length'];
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;

export const UptimeUrl = Checked<string>('an http or https URL', (u) => {
  if (typeof u !== 'string' || u.length > 2048) return { ok: false, message: 'uptime_url must be an http or https URL of at most 2048 characters' };
  let url: URL;
  try {
    url = new URL(u);
  } catch {
    return { ok: false, message: 'uptime_url must be an http or https URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, message: 'uptime_url must be an http or https URL' };
  if (url.username || url.password) return { ok: false, message: 'uptime_url must not contain credentials; send them in uptime_headers instead' };
  return { ok: true, value: u };
});

export const UptimeHeaders = Checked<Record<string, string>>('an object of header names to string values', (u) => {
  if (typeof u !== 'object' || u === null || Array.isArray(u)) return { ok: false, message: 'uptime_headers must be an object of header names to string values' };
  const entries = Object.entries(u);
  if (entries.length > 50) return { ok: false, message: 'uptime_headers must hold at most 50 headers' };
  const headers: Record<string, string> = {};
  for (const [name, value] of entries) {
    if (!HEADER_NAME.test(name)) return { ok: false, message: `uptime_headers has an invalid header name: ${JSON.stringify(name)}` };
    if (HOP_BY_HOP.includes(name.toLowerCase())) return { ok: false, message: `uptime_headers must not set the hop-by-hop header ${name}` };
    if (typeof value !== 'string' || value.length > 8192 || /[\r\n]/.test(value)) {
      return { ok: false, message: `uptime_headers.${name} must be a single-line string of at most 8192 characters` };
    }
    headers[name] = value;
  }
  return { ok: true, value: headers };
}, {
  type: 'object',
  additionalProperties: { type: 'string', maxLength: 8192 },
  maxProperties: 50,
  description: `Header names to values. The values are stored encrypted and shown as ${HEADER_VALUE_MASK}; sending ${HEADER_VALUE_MASK} back for a header keeps its stored value.`,
});

const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\.?$/;

/** A DNS name or an IP address (an IPv6 one without brackets). */
const Host = (field: string) =>
  Checked<string>('a host name or IP address', (u) =>
    typeof u === 'string' && (HOST_NAME.test(u) || isIP(u) !== 0)
      ? { ok: true, value: u }
      : { ok: false, message: `${field} must be a host name or an IP address, without a scheme, port or path` },
  { type: 'string', maxLength: 253, description: 'A host name (example.com) or an IP address (192.0.2.1, 2001:db8::1).' });

const DnsResolver = Checked<string>('an IP address with an optional port', (u) =>
  typeof u === 'string' && u.length <= 64 && parseResolver(u) !== null
    ? { ok: true, value: u }
    : { ok: false, message: 'dns_resolver must be an IP address with an optional port, such as 9.9.9.9, 9.9.9.9:53 or [2620:fe::fe]:53' },
  { type: 'string', maxLength: 64, description: 'The resolver to ask: an IP address with an optional port (9.9.9.9, 9.9.9.9:5353, [2620:fe::fe]:53).' });

const JsonQuery = Checked<string>('a JMESPath expression', (u) => {
  if (typeof u !== 'string' || u.trim().length === 0 || u.length > 1024) return { ok: false, message: 'uptime_json_query must be a JMESPath expression of 1 to 1024 characters' };
  const problem = jsonQueryProblem(u);
  return problem === null ? { ok: true, value: u } : { ok: false, message: `uptime_json_query is not a valid JMESPath expression: ${problem}` };
}, { type: 'string', minLength: 1, maxLength: 1024, description: 'A JMESPath expression (https://jmespath.org) run on the JSON response body, e.g. status or checks[?name==`db`].ok | [0].' });

/** The uptime-only fields; accepted only on UPTIME_HTTP monitors (the handler checks the type). */
export const uptimeFields = {
  uptime_url: UptimeUrl,
  uptime_method: OneOf(['GET', 'HEAD', 'POST'] as const),
  uptime_expected_status: listOf(Integer(100, 599), 50),
  // Null (as monitor bodies show an unset one) clears them.
  uptime_keyword: t.union([BoundedString(1, 1024), t.null], 'a string of 1 to 1024 characters, or null for none'),
  uptime_keyword_absent: t.boolean,
  uptime_headers: UptimeHeaders,
  uptime_request_body: t.union([BoundedString(0, 10_000), t.null], 'a string of at most 10000 characters, or null for none'),
  uptime_timeout_ms: Integer(1000, 30_000),
  uptime_follow_redirects: t.boolean,
  uptime_verify_ssl: t.boolean,
  uptime_json_query: t.union([JsonQuery, t.null], 'a JMESPath expression of 1 to 1024 characters, or null for none'),
  uptime_json_operator: OneOf(JSON_OPERATORS),
  uptime_json_expected: t.union([BoundedString(0, 1024), t.null], 'a string of at most 1024 characters, or null'),
};
export const UPTIME_FIELD_NAMES = Object.keys(uptimeFields) as (keyof typeof uptimeFields)[];

/** The UPTIME_TCP fields; accepted only on UPTIME_TCP monitors. */
export const tcpFields = {
  tcp_host: Host('tcp_host'),
  tcp_port: Integer(1, 65_535),
  tcp_timeout_ms: Integer(1000, 30_000),
};
export const TCP_FIELD_NAMES = Object.keys(tcpFields) as (keyof typeof tcpFields)[];

/** The UPTIME_DNS fields; accepted only on UPTIME_DNS monitors. */
export const dnsFields = {
  dns_hostname: Host('dns_hostname'),
  dns_record_type: OneOf(DNS_RECORD_TYPES),
  dns_expected: listOf(BoundedString(1, 1024), 20),
  dns_match: OneOf(['any', 'all'] as const),
  dns_resolver: t.union([DnsResolver, t.null], 'an IP address with an optional port, or null for the default resolvers'),
  dns_timeout_ms: Integer(1000, 30_000),
};
export const DNS_FIELD_NAMES = Object.keys(dnsFields) as (keyof typeof dnsFields)[];

const settableFields = {
  slug: Slug,
  description: Text(0, 500),
  tags: Tags,
  timezone: BoundedString(1, 64),
  grace_period_seconds: Seconds,
  schedule_tolerance: Integer(1, 1000),
  failure_tolerance: Integer(1, 1000),
  min_duration_seconds: NullableSeconds,
  max_duration_seconds: NullableSeconds,
  alert_enabled: t.boolean,
  alert_surge_threshold: Integer(1, 1000),
  retention_count: Integer(10, 1000),
  notification_group_ids: Ids,
  notification_channel_ids: Ids,
  // Whether they exist in the project, and close no cycle, the decision checks.
  depends_on: withRefinementKeywords(listOf(Uuid, MAX_DEPENDENCIES), {
    maxItems: MAX_DEPENDENCIES,
    description:
      'Ids of monitors of the same project this one depends on. While one of them is DOWN, this monitor\'s incidents open marked caused_upstream and page nobody. No cycles; chains at most 10 deep.',
  }),
  // Whether it is a policy of the project the handler checks.
  escalation_policy_id: t.union([Uuid, t.null], 'an escalation policy id, or null for none'),
  ...uptimeFields,
  ...tcpFields,
  ...dnsFields,
};

export const CreateMonitorBody = BodyOf(
  { name: Label(1, 100), type: OneOf(MONITOR_TYPES), schedule: BoundedString(1, 200) },
  { project_id: Uuid, ...settableFields },
);

export const UpdateMonitorBody = BodyOf(
  {},
  { name: Label(1, 100), schedule: BoundedString(1, 200), type: OneOf(MONITOR_TYPES), status: OneOf(['UP', 'PAUSED'] as const), ...settableFields },
);
