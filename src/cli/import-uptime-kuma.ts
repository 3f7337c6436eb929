import { isIP } from 'node:net';
import { jsonQueryProblem } from '../checker/json-query.js';
import { DNS_RECORD_TYPES, type JsonOperator } from '../domain/monitors/monitor-config.js';
import { type ImportPlan, ImportFileError, SlugAllocator, flagAt, graceOf, intervalOf, isObject, numberAt, stringAt, tagsOf, textOf } from './import-plan.js';

/** Every status code IANA registers: a Kuma range such as 200-399 becomes the ones in it that exist. */
const REGISTERED = [
  100, 101, 102, 103, 200, 201, 202, 203, 204, 205, 206, 207, 208, 226, 300, 301, 302, 303, 304, 305, 307, 308, 400, 401, 402, 403, 404, 405, 406, 407, 408, 409,
  410, 411, 412, 413, 414, 415, 416, 417, 421, 422, 423, 424, 425, 426, 428, 429, 431, 451, 500, 501, 502, 503, 504, 505, 506, 507, 508, 510, 511,
];

const METHODS = ['GET', 'HEAD', 'POST'];

/** Kuma's accepted status codes (`["200-299", "418"]`) as Vigil's list; empty (any 2xx) for Kuma's default. */
function statusCodes(given: unknown, notes: string[]): number[] | string {
  const entries = Array.isArray(given) ? given.filter((entry): entry is string => typeof entry === 'string') : ['200-299'];
  if (entries.length === 0 || (entries.length === 1 && entries[0] === '200-299')) return [];
  const codes = new Set<number>();
  for (const entry of entries) {
    const range = /^(\d{3})(?:-(\d{3}))?$/.exec(entry.trim());
    if (!range) return `accepted status code "${entry}" is neither a code nor a range`;
    const [low, high] = [Number(range[1]), Number(range[2] ?? range[1])];
    if (range[2] === undefined) codes.add(low);
    else for (const code of REGISTERED) if (code >= low && code <= high) codes.add(code);
  }
  const list = [...codes].filter((code) => code >= 100 && code <= 599).sort((a, b) => a - b);
  if (list.length > 50) return `accepts ${list.length} status codes; Vigil takes at most 50`;
  if (entries.some((entry) => entry.includes('-'))) notes.push(`accepted status codes ${entries.join(', ')} kept as the ${list.length} registered codes they cover`);
  return list;
}

/** Kuma keeps request headers as a JSON object in a string. */
function headersOf(monitor: Record<string, unknown>): Record<string, string> | string {
  const headers: Record<string, string> = {};
  const raw = stringAt(monitor, 'headers');
  if (raw !== null && raw.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return 'its request headers are not a JSON object';
    }
    if (!isObject(parsed)) return 'its request headers are not a JSON object';
    for (const [name, value] of Object.entries(parsed)) headers[name] = String(value);
  }
  if (stringAt(monitor, 'authMethod') === 'basic' || (stringAt(monitor, 'authMethod') === null && stringAt(monitor, 'basic_auth_user'))) {
    const user = stringAt(monitor, 'basic_auth_user') ?? '';
    const password = stringAt(monitor, 'basic_auth_pass') ?? '';
    if (user !== '' || password !== '') headers['Authorization'] = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  } else if (stringAt(monitor, 'authMethod') && stringAt(monitor, 'authMethod') !== 'null') {
    return `authentication method ${stringAt(monitor, 'authMethod')} is not supported (basic auth and headers are)`;
  }
  return headers;
}

const IMPORTED_TYPES = ['http', 'keyword', 'json-query', 'port', 'dns', 'push'];

/** Kuma's json-query operators (2.0; 1.x compares for equality only) as Vigil's. */
const JSON_OPERATORS: Record<string, JsonOperator> = { '==': 'equals', '!=': 'not_equals', contains: 'contains', '>': 'greater_than', '<': 'less_than' };

/**
 * A dotted path (`status`, `checks[0].status`) reads the same in JSONata, which Kuma runs, and
 * JMESPath, which Vigil does; anything else (functions, filters, arithmetic) does not.
 */
const SIMPLE_PATH = /^[A-Za-z_][A-Za-z0-9_]*(\[-?\d+\])*(\.[A-Za-z_][A-Za-z0-9_]*(\[-?\d+\])*)*$/;

/** Kuma's json-query settings as Vigil's `uptime_json_*`, or why they cannot be. */
function jsonQueryOf(monitor: Record<string, unknown>): Record<string, string> | string {
  const given = (stringAt(monitor, 'jsonPath') ?? '').trim();
  const path = given.startsWith('$.') ? given.slice(2) : given;
  if (!SIMPLE_PATH.test(path) || jsonQueryProblem(path) !== null) {
    return `JSON query ${JSON.stringify(given)} is a JSONata expression Vigil cannot run: it takes a JMESPath expression, and only dotted paths read the same in both`;
  }
  const operator = stringAt(monitor, 'jsonPathOperator') ?? '==';
  const mapped = JSON_OPERATORS[operator];
  if (!mapped) return `JSON query operator ${operator} is not supported (==, !=, contains, > and < are)`;
  const expected = stringAt(monitor, 'expectedValue');
  if (expected === null) return 'its JSON query has no expected value';
  return { uptime_json_query: path, uptime_json_operator: mapped, uptime_json_expected: expected };
}

/** Kuma's `dns` settings as UPTIME_DNS's, or why they cannot be. Kuma 1.x is up on any answer. */
function dnsOf(monitor: Record<string, unknown>, notes: string[]): Record<string, unknown> | string {
  const recordType = (stringAt(monitor, 'dns_resolve_type') ?? 'A').toUpperCase();
  if (!(DNS_RECORD_TYPES as readonly string[]).includes(recordType)) return `DNS record type ${recordType} is not supported (${DNS_RECORD_TYPES.join(', ')} are)`;
  const servers = (stringAt(monitor, 'dns_resolve_server') ?? '').split(',').map((server) => server.trim()).filter(Boolean);
  const [server] = servers;
  if (server !== undefined && isIP(server) === 0) return `DNS resolver ${server} is not an IP address`;
  if (servers.length > 1) notes.push(`only the first DNS resolver (${server}) kept; left out: ${servers.slice(1).join(', ')}`);
  const port = numberAt(monitor, 'port') ?? 53;
  const resolver = server === undefined ? null : port === 53 ? server : isIP(server) === 6 ? `[${server}]:${port}` : `${server}:${port}`;
  const expected: string[] = [];
  // Kuma 2.0 keeps a DNS monitor's conditions as JSON; only "the record is / contains <value>" has an equivalent.
  const raw = monitor['conditions'];
  let conditions: unknown = raw;
  if (typeof raw === 'string') {
    try {
      conditions = raw.trim() === '' ? [] : JSON.parse(raw);
    } catch {
      return 'its DNS conditions are not JSON';
    }
  }
  for (const condition of Array.isArray(conditions) ? conditions : []) {
    const fits = isObject(condition) && stringAt(condition, 'variable') === 'record' && ['equals', 'contains'].includes(stringAt(condition, 'operator') ?? '') && stringAt(condition, 'value');
    if (!fits) return `DNS condition ${JSON.stringify(condition)} has no Vigil equivalent (a record equal to or containing a value has)`;
    expected.push(stringAt(condition, 'value')!);
  }
  return { dns_hostname: stringAt(monitor, 'hostname') ?? '', dns_record_type: recordType, dns_expected: expected, dns_match: 'any', dns_resolver: resolver };
}

/**
 * The monitors of an Uptime Kuma JSON backup (`{"version", "notificationList", "monitorList"}`) as
 * Vigil monitors: `http`, `keyword` and `json-query` become UPTIME_HTTP (a JSONata path that reads
 * the same in JMESPath kept as its JSON query), `port` UPTIME_TCP, `dns` UPTIME_DNS, `push`
 * JOB_HEARTBEAT on its interval; Kuma's retries become the failures in a row that open an
 * incident. Other types are reported, and so is a monitor's Kuma group: a group sums up its
 * members' status, which is not what Vigil's `depends_on` means.
 */
export function planUptimeKuma(file: unknown): ImportPlan {
  const monitors = isObject(file) && Array.isArray(file['monitorList']) ? file['monitorList'] : null;
  if (monitors === null) throw new ImportFileError('this is not an Uptime Kuma JSON backup: it has no "monitorList"');
  const plan: ImportPlan = { drafts: [], unmapped: [] };
  const slugs = new SlugAllocator();
  const groups = new Map(monitors.filter((m): m is Record<string, unknown> => isObject(m) && m['type'] === 'group').map((group) => [group['id'], stringAt(group, 'name') ?? `group ${String(group['id'])}`]));
  monitors.forEach((monitor: unknown, index) => {
    if (!isObject(monitor)) {
      plan.unmapped.push({ source: `monitorList[${index}]`, reason: 'not a monitor object' });
      return;
    }
    const name = (stringAt(monitor, 'name') ?? '').trim();
    const source = name || `monitorList[${index}]`;
    const type = stringAt(monitor, 'type') ?? '';
    const unmapped = (reason: string) => plan.unmapped.push({ source, reason });
    if (name === '') return unmapped('the monitor has no name');
    if (!IMPORTED_TYPES.includes(type)) {
      return unmapped(type === 'group' ? 'a group only holds other monitors; its members are imported on their own' : `type ${type || '(none)'} is not supported: Vigil imports http, keyword, json-query, port, dns and push monitors`);
    }
    if (flagAt(monitor, 'upsideDown')) return unmapped('upside-down mode (up when the check fails) has no Vigil equivalent');
    const notes: string[] = [];
    const intervalSeconds = numberAt(monitor, 'interval') ?? 60;
    const interval = intervalOf(intervalSeconds);
    if (interval === null) return unmapped(`interval ${intervalSeconds}s is outside Vigil's 1s to 365d`);
    const retries = Math.max(0, Math.round(numberAt(monitor, 'maxretries') ?? 0));
    const common = {
      name: textOf(name, 100, 'name', notes),
      description: textOf(stringAt(monitor, 'description') ?? '', 500, 'description', notes),
      tags: tagsOf(Array.isArray(monitor['tags']) ? monitor['tags'].map((tag) => (isObject(tag) ? [stringAt(tag, 'name'), stringAt(tag, 'value')].filter(Boolean).join(':') : String(tag))) : [], notes),
    };
    if (isObject(monitor['notificationIDList']) && Object.values(monitor['notificationIDList']).some(Boolean)) notes.push('notifications not imported: attach Vigil notification channels');
    const group = monitor['parent'] === null || monitor['parent'] === undefined ? undefined : groups.get(monitor['parent']);
    if (group !== undefined) notes.push(`Kuma group "${group}" not imported (Vigil has no groups; set depends_on by hand if this monitor needs another to be up)`);
    let query: Record<string, string> = {};
    if (type === 'json-query') {
      const mapped = jsonQueryOf(monitor);
      if (typeof mapped === 'string') return unmapped(mapped);
      query = mapped;
    }
    let dns: Record<string, unknown> = {};
    if (type === 'dns') {
      const mapped = dnsOf(monitor, notes);
      if (typeof mapped === 'string') return unmapped(mapped);
      dns = mapped;
    }
    const slug = slugs.allocate(name);
    const paused = monitor['active'] !== undefined && !flagAt(monitor, 'active');
    if (type === 'push') {
      // Kuma marks a push monitor down once a beat is `interval` late and each retry's wait has passed too.
      const grace = retries * (numberAt(monitor, 'retryInterval') ?? intervalSeconds);
      const pushToken = (stringAt(monitor, 'pushToken') ?? '').trim();
      if (pushToken === '') notes.push('push clients must be pointed at the monitor’s Vigil push URL (/api/push/<monitor id>)');
      plan.drafts.push({
        source,
        slug,
        body: { ...common, slug, type: 'JOB_HEARTBEAT', schedule: interval, grace_period_seconds: graceOf(grace, notes) },
        paused,
        notes,
        ...(pushToken === '' ? {} : { peerAlias: { peer: 'uptime_kuma' as const, alias: pushToken } }),
      });
      return;
    }
    // Kuma applies its timeout to HTTP requests only: TCP and DNS checks keep Vigil's defaults.
    if (type === 'port') {
      const tcp = { tcp_host: stringAt(monitor, 'hostname') ?? '', tcp_port: numberAt(monitor, 'port') ?? 0 };
      plan.drafts.push({ source, slug, body: { ...common, slug, type: 'UPTIME_TCP', schedule: interval, failure_tolerance: retries + 1, ...tcp }, paused, notes });
      return;
    }
    if (type === 'dns') {
      plan.drafts.push({ source, slug, body: { ...common, slug, type: 'UPTIME_DNS', schedule: interval, failure_tolerance: retries + 1, ...dns }, paused, notes });
      return;
    }
    const url = stringAt(monitor, 'url') ?? '';
    const method = (stringAt(monitor, 'method') ?? 'GET').toUpperCase();
    if (!METHODS.includes(method)) return unmapped(`method ${method} is not supported (GET, HEAD and POST are)`);
    const codes = statusCodes(monitor['accepted_statuscodes'], notes);
    if (typeof codes === 'string') return unmapped(codes);
    const headers = headersOf(monitor);
    if (typeof headers === 'string') return unmapped(headers);
    const body = stringAt(monitor, 'body');
    if (body && method === 'POST' && stringAt(monitor, 'httpBodyEncoding') !== 'form' && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      headers['Content-Type'] = stringAt(monitor, 'httpBodyEncoding') === 'xml' ? 'text/xml; charset=utf-8' : 'application/json';
    }
    if (body && method !== 'POST') notes.push(`request body not kept: Vigil sends one with POST only`);
    const timeoutSeconds = numberAt(monitor, 'timeout') ?? intervalSeconds * 0.8;
    const timeoutMs = Math.min(30_000, Math.max(1000, Math.round(timeoutSeconds * 1000)));
    if (timeoutMs !== Math.round(timeoutSeconds * 1000)) notes.push(`timeout ${timeoutSeconds}s kept as ${timeoutMs / 1000}s (Vigil takes 1 to 30s)`);
    const keyword = type === 'keyword' ? stringAt(monitor, 'keyword') : null;
    plan.drafts.push({
      source,
      slug,
      body: {
        ...common,
        slug,
        type: 'UPTIME_HTTP',
        schedule: interval,
        failure_tolerance: retries + 1,
        uptime_url: url,
        uptime_method: method,
        uptime_expected_status: codes,
        uptime_headers: headers,
        uptime_timeout_ms: timeoutMs,
        uptime_follow_redirects: (numberAt(monitor, 'maxredirects') ?? 10) > 0,
        uptime_verify_ssl: !flagAt(monitor, 'ignoreTls'),
        ...(keyword ? { uptime_keyword: keyword, uptime_keyword_absent: flagAt(monitor, 'invertKeyword') } : {}),
        ...(body && method === 'POST' ? { uptime_request_body: body } : {}),
        ...query,
      },
      paused,
      notes,
    });
  });
  return plan;
}
