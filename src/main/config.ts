import { resolve } from 'node:path';
import { type TrustedProxies, parseTrustedProxies } from '../web/client-address.js';
import { SLOT_COUNT } from '../coordination/partitions.js';
import { guardFor } from '../outbound/guard.js';
import { PRIVATE_TARGETS, type PrivateTargets } from '../outbound/policy.js';
import { type OidcConfig, oidcConfig } from './oidc-config.js';

export const ROLE_NAMES = ['api', 'projector', 'timer', 'checker', 'notifier'] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

/** Every setting Vigil reads from the environment; docs/configuration.md lists them with these defaults. */
export interface VigilConfig {
  port: number;
  host: string;
  dataDir: string;
  eventStoreUrl: string | null;
  mongoUrl: string | null;
  mongoDatabase: string;
  logLevel: string;
  bodyLimitBytes: number;
  /** Requests per API key, and failed authentications per client address, in fixed windows. */
  rateLimit: { requests: number; windowSeconds: number; authFailures: number; authFailureWindowSeconds: number };
  readYourWritesTimeoutMs: number;
  apiKeyPrefix: string;
  pingPayloadLimitBytes: number;
  /** VIGIL_TRUST_PROXY: which hops in front of Vigil are its proxies, to find the client's address. */
  trustProxy: TrustedProxies;
  /** VIGIL_PUBLIC_URL: where people reach the console (no trailing slash), for links Vigil prints or mails; null when unset. */
  publicUrl: string | null;
  /** Bounds on slow clients (slowloris): headers, a whole request, an idle keep-alive connection. */
  httpTimeouts: { headersTimeoutMs: number; requestTimeoutMs: number; keepAliveTimeoutMs: number };
  repageAfterSeconds: number;
  /** How often the api role confirms it is listening; a silence over twice this is recorded as an outage. */
  listeningIntervalMs: number;
  /** VIGIL_SECRET_KEY; without it, embedded mode keeps a generated key file in the data dir. */
  secretKey: string | null;
  /** /readyz fails once the read models lack more than this many events of the log (where the log counts them: not EventStoreDB); unset, the lag is bounded in time only. */
  readyMaxLagEvents: number | null;
  /** /readyz fails once the read models lack an event recorded longer ago than this. */
  readyMaxLagSeconds: number;
  /** Where a `serve` process without the api role answers /healthz and /readyz; none when unset. */
  healthPort: number | null;
  /** When set, /metrics wants it as a Bearer token. */
  metricsToken: string | null;
  /** Where the embedded log's commits (and their fsync) run: the process's main thread or a writer thread. */
  sqliteWriter: 'inline' | 'thread';
  /** `npm start` with the projector and other roles runs the projector on a worker thread of its own. */
  projectorThread: boolean;
  /** How long the projector lets a batch gather while no reader waits for it (ProjectorOptions.lingerMs). */
  projectorLingerMs: number;
  /** How instances of the timer, checker and notifier share work: leases in the read-model store. */
  coordination: { leaseTtlMs: number; partitions: number };
  /** Settings that still work but are on their way out, each with what to set instead; logged at start. */
  deprecations: string[];
  notify: {
    /** VIGIL_PRIVATE_TARGETS, as deliveries obey it. */
    privateTargets: PrivateTargets;
    timeoutMs: number;
    maxAttempts: number;
    retryBaseMs: number;
    pollMs: number;
    concurrency: number;
    smtp: { host: string; port: number; secure: boolean; user: string | null; password: string | null; from: string } | null;
  };
  checks: {
    retries: number;
    retryDelayMs: number;
    sslWarningDays: number;
    /** VIGIL_PRIVATE_TARGETS, as checks and the check tools obey it. */
    privateTargets: PrivateTargets;
    caFile: string | null;
    region: string;
    concurrency: number;
    dnsServers: string[] | null;
  };
  /** The heartbeat out (VIGIL_SELF_PING_URL): none when unset. */
  selfPing: { url: string; intervalMs: number; timeoutMs: number } | null;
  /** Single sign-on through an OpenID Provider (VIGIL_OIDC_*): none when unset. */
  oidc: OidcConfig | null;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): VigilConfig {
  const outbound = privateTargets(env);
  return {
    port: integer(env, 'PORT', 8080, 0, 65535),
    host: env['HOST'] || '0.0.0.0',
    dataDir: resolve(env['VIGIL_DATA_DIR'] || './data'),
    eventStoreUrl: env['VIGIL_EVENTSTORE_URL'] || null,
    mongoUrl: env['VIGIL_MONGODB_URL'] || null,
    mongoDatabase: env['VIGIL_MONGODB_DATABASE'] || 'vigil',
    logLevel: env['VIGIL_LOG_LEVEL'] || 'info',
    bodyLimitBytes: integer(env, 'VIGIL_BODY_LIMIT_BYTES', 256 * 1024, 1024, 64 * 1024 * 1024),
    rateLimit: {
      requests: integer(env, 'VIGIL_RATE_LIMIT_REQUESTS', 600, 1, 1_000_000),
      windowSeconds: integer(env, 'VIGIL_RATE_LIMIT_WINDOW_SECONDS', 60, 1, 86_400),
      authFailures: integer(env, 'VIGIL_AUTH_FAILURE_LIMIT', 20, 0, 1_000_000),
      authFailureWindowSeconds: integer(env, 'VIGIL_AUTH_FAILURE_WINDOW_SECONDS', 60, 1, 86_400),
    },
    readYourWritesTimeoutMs: integer(env, 'VIGIL_READ_YOUR_WRITES_TIMEOUT_MS', 5000, 10, 120_000),
    apiKeyPrefix: pattern(env, 'VIGIL_API_KEY_PREFIX', 'vgl', /^[a-z][a-z0-9]{0,15}$/),
    pingPayloadLimitBytes: integer(env, 'VIGIL_PING_PAYLOAD_LIMIT', 100_000, 0, 10 * 1024 * 1024),
    trustProxy: trustedProxies(env['VIGIL_TRUST_PROXY'] ?? ''),
    publicUrl: publicUrl(env['VIGIL_PUBLIC_URL'] ?? ''),
    httpTimeouts: httpTimeouts(env),
    repageAfterSeconds: integer(env, 'VIGIL_REPAGE_INTERVAL_MINUTES', 60, 1, 10_080) * 60,
    listeningIntervalMs: integer(env, 'VIGIL_LISTENING_INTERVAL_MS', 2000, 100, 60_000),
    secretKey: env['VIGIL_SECRET_KEY'] || null,
    readyMaxLagEvents: env['VIGIL_READY_MAX_LAG_EVENTS'] ? integer(env, 'VIGIL_READY_MAX_LAG_EVENTS', 0, 0, 1_000_000_000) : null,
    readyMaxLagSeconds: integer(env, 'VIGIL_READY_MAX_LAG_SECONDS', 60, 1, 86_400),
    healthPort: env['VIGIL_HEALTH_PORT'] ? integer(env, 'VIGIL_HEALTH_PORT', 0, 0, 65535) : null,
    metricsToken: env['VIGIL_METRICS_TOKEN'] || null,
    sqliteWriter: pattern(env, 'VIGIL_SQLITE_WRITER', 'inline', /^(inline|thread)$/) === 'thread' ? 'thread' : 'inline',
    projectorThread: pattern(env, 'VIGIL_PROJECTOR_THREAD', 'true', /^(true|false)$/) === 'true',
    projectorLingerMs: integer(env, 'VIGIL_PROJECTOR_LINGER_MS', 20, 0, 1000),
    coordination: {
      leaseTtlMs: integer(env, 'VIGIL_LEASE_TTL_MS', 10_000, 300, 600_000),
      partitions: integer(env, 'VIGIL_PARTITIONS', 16, 1, SLOT_COUNT),
    },
    deprecations: [...outbound.deprecations, ...lagBoundNotice(env)],
    notify: {
      privateTargets: outbound.policy,
      timeoutMs: integer(env, 'VIGIL_NOTIFY_TIMEOUT_MS', 10_000, 100, 120_000),
      maxAttempts: integer(env, 'VIGIL_NOTIFY_MAX_ATTEMPTS', 6, 1, 20),
      retryBaseMs: integer(env, 'VIGIL_NOTIFY_RETRY_BASE_MS', 1000, 0, 600_000),
      pollMs: integer(env, 'VIGIL_NOTIFY_POLL_MS', 100, 10, 10_000),
      concurrency: integer(env, 'VIGIL_NOTIFY_CONCURRENCY', 32, 1, 1000),
      smtp: env['VIGIL_SMTP_HOST']
        ? {
            host: env['VIGIL_SMTP_HOST'],
            port: integer(env, 'VIGIL_SMTP_PORT', 587, 1, 65535),
            secure: pattern(env, 'VIGIL_SMTP_SECURE', 'false', /^(true|false)$/) === 'true',
            user: env['VIGIL_SMTP_USER'] || null,
            password: env['VIGIL_SMTP_PASSWORD'] || null,
            from: env['VIGIL_SMTP_FROM'] || 'Vigil <vigil@localhost>',
          }
        : null,
    },
    checks: {
      retries: integer(env, 'VIGIL_CHECK_RETRIES', 2, 0, 10),
      retryDelayMs: integer(env, 'VIGIL_CHECK_RETRY_DELAY_MS', 2000, 0, 60_000),
      sslWarningDays: integer(env, 'VIGIL_SSL_WARNING_DAYS', 14, 1, 365),
      privateTargets: outbound.policy,
      caFile: env['VIGIL_CHECK_CA_FILE'] || null,
      region: pattern(env, 'VIGIL_CHECK_REGION', 'local', /^[a-z0-9-]{1,32}$/),
      concurrency: integer(env, 'VIGIL_CHECK_CONCURRENCY', 16, 1, 1000),
      dnsServers: env['VIGIL_DNS_SERVERS'] ? env['VIGIL_DNS_SERVERS'].split(',').map((s) => s.trim()).filter(Boolean) : null,
    },
    selfPing: selfPing(env, outbound.policy),
    oidc: oidcConfig(env, (message) => new ConfigError(message)),
  };
}

export function parseRoles(value: string | undefined): RoleName[] {
  if (!value || value === 'all') return [...ROLE_NAMES];
  const roles = value.split(',').map((role) => role.trim()).filter(Boolean);
  const unknown = roles.filter((role) => !(ROLE_NAMES as readonly string[]).includes(role));
  if (unknown.length > 0) throw new ConfigError(`unknown role ${unknown.join(', ')}; roles are ${ROLE_NAMES.join(', ')}`);
  return ROLE_NAMES.filter((role) => roles.includes(role));
}

/**
 * VIGIL_PRIVATE_TARGETS, default `checks`. The variable it replaces, VIGIL_CHECK_DENY_PRIVATE, still
 * works with a warning: `true` is `deny`, `false` is the default. Asked for together, they must agree:
 * a deployment that said `true` never silently gets less than `deny`.
 */
function privateTargets(env: NodeJS.ProcessEnv): { policy: PrivateTargets; deprecations: string[] } {
  const chosen = pattern(env, 'VIGIL_PRIVATE_TARGETS', '', new RegExp(`^(${PRIVATE_TARGETS.join('|')})$`));
  const policy = PRIVATE_TARGETS.find((p) => p === chosen);
  const legacy = pattern(env, 'VIGIL_CHECK_DENY_PRIVATE', '', /^(true|false)$/);
  if (legacy === '') return { policy: policy ?? 'checks', deprecations: [] };
  const meant: PrivateTargets = legacy === 'true' ? 'deny' : 'checks';
  if (policy !== undefined && legacy === 'true' && policy !== 'deny') {
    throw new ConfigError(`VIGIL_CHECK_DENY_PRIVATE=true asks for VIGIL_PRIVATE_TARGETS=deny, not ${policy}; remove VIGIL_CHECK_DENY_PRIVATE`);
  }
  const replacement = policy ?? meant;
  return {
    policy: replacement,
    deprecations: [`VIGIL_CHECK_DENY_PRIVATE is deprecated and will be removed: set VIGIL_PRIVATE_TARGETS=${replacement} instead`],
  };
}

/**
 * EventStoreDB keeps no count of its log and its positions are byte offsets, so there the lag is
 * bounded in time only: a VIGIL_READY_MAX_LAG_EVENTS set for it would silently do nothing.
 */
function lagBoundNotice(env: NodeJS.ProcessEnv): string[] {
  if (!env['VIGIL_EVENTSTORE_URL'] || !env['VIGIL_READY_MAX_LAG_EVENTS']) return [];
  return ['VIGIL_READY_MAX_LAG_EVENTS is not applied with EventStoreDB, which cannot count the events the read models lack: /readyz bounds their lag by VIGIL_READY_MAX_LAG_SECONDS there'];
}

/**
 * The heartbeat's URL goes out through the outbound guard as a delivery does. What the guard
 * refuses without asking DNS (a literal private address, a localhost name) stops the process at
 * start, as a heartbeat that can never leave would otherwise be noticed only as Vigil being down.
 */
function selfPing(env: NodeJS.ProcessEnv, policy: PrivateTargets): VigilConfig['selfPing'] {
  const url = env['VIGIL_SELF_PING_URL'];
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError('VIGIL_SELF_PING_URL must be an http or https URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new ConfigError(`VIGIL_SELF_PING_URL must be an http or https URL, not ${parsed.protocol}`);
  const refused = guardFor(policy, 'delivery').refusalOfUrl(parsed);
  if (refused) throw new ConfigError(`VIGIL_SELF_PING_URL: ${refused.message}; VIGIL_PRIVATE_TARGETS=allow lets it through`);
  return {
    url,
    intervalMs: integer(env, 'VIGIL_SELF_PING_INTERVAL_SECONDS', 60, 1, 86_400) * 1000,
    timeoutMs: integer(env, 'VIGIL_SELF_PING_TIMEOUT_MS', 10_000, 100, 120_000),
  };
}

function httpTimeouts(env: NodeJS.ProcessEnv): VigilConfig['httpTimeouts'] {
  const headersTimeoutMs = integer(env, 'VIGIL_HEADERS_TIMEOUT_MS', 10_000, 100, 600_000);
  const requestTimeoutMs = integer(env, 'VIGIL_REQUEST_TIMEOUT_MS', 30_000, 100, 3_600_000);
  // Node refuses a server whose headers may take longer than the whole request.
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError(`VIGIL_HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not be longer than VIGIL_REQUEST_TIMEOUT_MS (${requestTimeoutMs})`);
  }
  return { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs: integer(env, 'VIGIL_KEEP_ALIVE_TIMEOUT_MS', 5000, 100, 600_000) };
}

function publicUrl(value: string): string | null {
  if (value.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new ConfigError(`VIGIL_PUBLIC_URL must be an http:// or https:// URL, got ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`VIGIL_PUBLIC_URL must be an http:// or https:// URL, got ${JSON.stringify(value)}`);
  if (url.search !== '' || url.hash !== '') throw new ConfigError('VIGIL_PUBLIC_URL must have no query or fragment');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function trustedProxies(value: string): TrustedProxies {
  const parsed = parseTrustedProxies(value);
  if ('error' in parsed) throw new ConfigError(`VIGIL_TRUST_PROXY must be true, false, a hop count or a list of proxy addresses: ${parsed.error}`);
  return parsed;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw new ConfigError(`${name} must be an integer from ${min} to ${max}, not ${raw}`);
  return value;
}

function pattern(env: NodeJS.ProcessEnv, name: string, fallback: string, shape: RegExp): string {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!shape.test(raw)) throw new ConfigError(`${name} must match ${shape}, not ${raw}`);
  return raw;
}
