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

/**
 * The monitors of an Uptime Kuma JSON backup (`{"version", "notificationList", "monitorList"}`) as
 * Vigil monitors: `http` and `keyword` become UPTIME_HTTP, `push` JOB_HEARTBEAT on its interval;
 * Kuma's retries become the failures in a row that open an incident. Other types are reported.
 */
export function planUptimeKuma(file: unknown): ImportPlan {
  const monitors = isObject(file) && Array.isArray(file['monitorList']) ? file['monitorList'] : null;
  if (monitors === null) throw new ImportFileError('this is not an Uptime Kuma JSON backup: it has no "monitorList"');
  const plan: ImportPlan = { drafts: [], unmapped: [] };
  const slugs = new SlugAllocator();
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
    if (type !== 'http' && type !== 'keyword' && type !== 'push') {
      return unmapped(type === 'group' ? 'a group only holds other monitors; its members are imported on their own' : `type ${type || '(none)'} is not supported: Vigil imports http, keyword and push monitors`);
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
    const slug = slugs.allocate(name);
    const paused = monitor['active'] !== undefined && !flagAt(monitor, 'active');
    if (type === 'push') {
      // Kuma marks a push monitor down once a beat is `interval` late and each retry's wait has passed too.
      const grace = retries * (numberAt(monitor, 'retryInterval') ?? intervalSeconds);
      notes.push('push clients must be pointed at the monitor’s Vigil ping URL');
      plan.drafts.push({ source, slug, body: { ...common, slug, type: 'JOB_HEARTBEAT', schedule: interval, grace_period_seconds: graceOf(grace, notes) }, paused, notes });
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
      },
      paused,
      notes,
    });
  });
  return plan;
}
