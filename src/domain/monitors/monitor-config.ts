import { invalid } from '../errors.js';
import { type MonitorType, isTimeZone, scheduleProblem } from './schedule.js';

export type HttpMethod = 'GET' | 'HEAD' | 'POST';

/** How a JSON query's result is compared with `uptime_json_expected`. */
export const JSON_OPERATORS = ['equals', 'not_equals', 'contains', 'exists', 'greater_than', 'less_than'] as const;
export type JsonOperator = (typeof JSON_OPERATORS)[number];

export const DNS_RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT'] as const;
export type DnsRecordType = (typeof DNS_RECORD_TYPES)[number];

/** The uptime-only settings, present on UPTIME_HTTP monitors only. */
export interface UptimeConfig {
  uptime_url: string;
  uptime_method: HttpMethod;
  /** Empty means any 2xx. */
  uptime_expected_status: number[];
  uptime_keyword: string | null;
  uptime_keyword_absent: boolean;
  /**
   * Header names to values. The values are sealed (see SecretBox) wherever `uptime_headers_sealed`
   * is true, which is every monitor recorded since header values were sealed; one recorded before
   * holds them as they were sent, until its next update seals them.
   */
  uptime_headers: Record<string, string>;
  /** Absent from events recorded before header values were sealed. */
  uptime_headers_sealed?: boolean;
  uptime_request_body: string | null;
  uptime_timeout_ms: number;
  uptime_follow_redirects: boolean;
  uptime_verify_ssl: boolean;
  /**
   * A JMESPath expression run on the JSON body of a response that passed the status and keyword
   * checks; its result is compared with `uptime_json_expected` by `uptime_json_operator`. All three
   * are absent from events recorded before JSON queries existed, which means no query.
   */
  uptime_json_query?: string | null;
  uptime_json_operator?: JsonOperator;
  /** Compared with the result's text: a string as it is, anything else as JSON (true, 42, null). */
  uptime_json_expected?: string | null;
}

/** The settings of an UPTIME_TCP monitor: up when a TCP connection to host:port opens in time. */
export interface TcpCheckConfig {
  tcp_host: string;
  tcp_port: number;
  tcp_timeout_ms: number;
}

/**
 * The settings of an UPTIME_DNS monitor: up when the record resolves and its values match
 * `dns_expected` (any one of them, or all of them). The values are only compared, never connected to.
 */
export interface DnsCheckConfig {
  dns_hostname: string;
  dns_record_type: DnsRecordType;
  /** Empty means any answer at all. */
  dns_expected: string[];
  dns_match: 'any' | 'all';
  /** An IP address (with an optional :port) to ask instead of VIGIL_DNS_SERVERS or the system's resolvers. */
  dns_resolver: string | null;
  dns_timeout_ms: number;
}

export interface MonitorConfig {
  name: string;
  slug: string;
  description: string;
  tags: string[];
  type: MonitorType;
  schedule: string;
  timezone: string;
  grace_period_seconds: number;
  schedule_tolerance: number;
  failure_tolerance: number;
  min_duration_seconds: number | null;
  max_duration_seconds: number | null;
  alert_enabled: boolean;
  alert_surge_threshold: number;
  retention_count: number;
  notification_group_ids: string[];
  notification_channel_ids: string[];
  uptime: UptimeConfig | null;
  /** UPTIME_TCP only; absent from events recorded before TCP checks existed. */
  tcp?: TcpCheckConfig | null;
  /** UPTIME_DNS only; absent from events recorded before DNS checks existed. */
  dns?: DnsCheckConfig | null;
  /**
   * Monitors of the same project this one depends on: while one of them is DOWN, this one's
   * incidents open marked as caused upstream and page nobody. Absent from events recorded before
   * dependencies existed, which means none.
   */
  depends_on?: string[];
  /**
   * The escalation policy (of the same project) that pages this monitor's opened incidents step by
   * step instead of repaging; absent from events recorded before escalations existed, which means none.
   */
  escalation_policy_id?: string | null;
}

export const MONITOR_DEFAULTS = {
  description: '',
  tags: [] as string[],
  timezone: 'UTC',
  grace_period_seconds: 300,
  schedule_tolerance: 1,
  failure_tolerance: 1,
  min_duration_seconds: null,
  max_duration_seconds: null,
  alert_enabled: true,
  alert_surge_threshold: 10,
  retention_count: 200,
  notification_group_ids: [] as string[],
  notification_channel_ids: [] as string[],
} as const;

export const UPTIME_DEFAULTS: Omit<UptimeConfig, 'uptime_url'> = {
  uptime_method: 'GET',
  uptime_expected_status: [],
  uptime_keyword: null,
  uptime_keyword_absent: false,
  uptime_headers: {},
  uptime_request_body: null,
  uptime_timeout_ms: 10_000,
  uptime_follow_redirects: true,
  uptime_verify_ssl: true,
  uptime_json_query: null,
  uptime_json_operator: 'equals',
  uptime_json_expected: null,
};

export const TCP_DEFAULTS: Omit<TcpCheckConfig, 'tcp_host' | 'tcp_port'> = { tcp_timeout_ms: 10_000 };

export const DNS_DEFAULTS: Omit<DnsCheckConfig, 'dns_hostname'> = {
  dns_record_type: 'A',
  dns_expected: [],
  dns_match: 'any',
  dns_resolver: null,
  dns_timeout_ms: 5_000,
};

/**
 * What is shown in place of a header's value, wherever one is shown: the names stay visible, the
 * values never leave. Sent back as a value, it stands for the one stored under that name.
 */
export const HEADER_VALUE_MASK = '••••••';

export const maskedHeaders = (headers: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.keys(headers).map((name) => [name, HEADER_VALUE_MASK]));

/** The uptime settings as documents and the API hold them: every header value masked, sealed or not. */
export function shownUptime(uptime: UptimeConfig): UptimeConfig {
  const { uptime_headers_sealed: _sealed, ...shown } = uptime;
  return { ...UPTIME_DEFAULTS, ...shown, uptime_headers: maskedHeaders(uptime.uptime_headers) };
}

/**
 * Rules that tie fields together; each refusal names the field. The schedule is judged at `now`
 * when it is new, or its timezone is: one already kept is not refused again when a later change
 * leaves it be (a COUNT used up since, a rule accepted before these checks were as strict).
 */
export function assertConsistent(config: MonitorConfig, now: string, previous: MonitorConfig | null = null): void {
  if (!isTimeZone(config.timezone)) throw invalid('timezone must be an IANA time zone such as Europe/Berlin');
  const rescheduled = previous === null || previous.schedule !== config.schedule || previous.timezone !== config.timezone || previous.type !== config.type;
  const problem = rescheduled ? scheduleProblem(config.type, config.schedule, config.timezone, now) : null;
  if (problem) throw invalid(problem);
  const { min_duration_seconds: min, max_duration_seconds: max } = config;
  if (min !== null && max !== null && min >= max) throw invalid('min_duration_seconds must be less than max_duration_seconds');
  if (config.type === 'UPTIME_HTTP' && (config.uptime === null || config.uptime.uptime_url === '')) {
    throw invalid('uptime_url is required for UPTIME_HTTP monitors');
  }
  if (config.type !== 'UPTIME_HTTP' && config.uptime !== null) throw invalid('uptime_* fields are only accepted on UPTIME_HTTP monitors');
  const json = config.uptime;
  if (json?.uptime_json_query && json.uptime_json_operator !== 'exists' && (json.uptime_json_expected ?? null) === null) {
    throw invalid(`uptime_json_expected is required when uptime_json_operator is ${json.uptime_json_operator}`);
  }
  const tcp = config.tcp ?? null;
  if (config.type === 'UPTIME_TCP' && (tcp === null || tcp.tcp_host === '' || tcp.tcp_port === 0)) {
    throw invalid(tcp === null || tcp.tcp_host === '' ? 'tcp_host is required for UPTIME_TCP monitors' : 'tcp_port is required for UPTIME_TCP monitors');
  }
  if (config.type !== 'UPTIME_TCP' && tcp !== null) throw invalid('tcp_* fields are only accepted on UPTIME_TCP monitors');
  const dns = config.dns ?? null;
  if (config.type === 'UPTIME_DNS' && (dns === null || dns.dns_hostname === '')) throw invalid('dns_hostname is required for UPTIME_DNS monitors');
  if (config.type !== 'UPTIME_DNS' && dns !== null) throw invalid('dns_* fields are only accepted on UPTIME_DNS monitors');
}
