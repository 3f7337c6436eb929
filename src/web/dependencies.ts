import type { CommandContext } from '../app/context.js';
import type { Requester } from '../app/requester.js';
import { actorOf } from './actor.js';
import type { DeletionDependencies } from '../app/monitor-deletion.js';
import type { SecretBox } from '../app/secret-box.js';
import type { ChallengeStore } from './challenge-store.js';
import type { SetupLink } from '../app/setup-link.js';
import type { SessionStore } from './session-store.js';
import type { SmtpSettings } from '../notifications/senders.js';
import type { PrivateTargets } from '../outbound/policy.js';
import type { ReadModelProgress } from '../projector/read-model-progress.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';
import type { AsOfReader } from '../audit/as-of-reader.js';
import type { LogCheck } from '../audit/log-check.js';
import type { ReadinessReport } from '../metrics/readiness.js';
import type { VigilMetrics } from '../metrics/vigil-metrics.js';
import type { OidcConfig } from '../main/oidc-config.js';
import type { TrustedProxies } from './client-address.js';
import type { Logger } from './logger.js';
import type { RateLimitConfig } from './rate-limit.js';
import type { VigilState } from './state.js';

export interface ApiConfig {
  bodyLimitBytes: number;
  rateLimit: RateLimitConfig;
  /**
   * How long a write waits for the read models to include it, and a read for the position its
   * Vigil-Min-Position names, before answering 503.
   */
  readYourWritesTimeoutMs: number;
  /**
   * Every request first waits, briefly, for the read models to reach the log's head: where reading
   * the head is one SQLite call and the projector runs in this process (it signals its commits).
   * Elsewhere a request waits only for the position its Vigil-Min-Position names.
   */
  readsWaitForLogHead: boolean;
  pingPayloadLimitBytes: number;
  /** Which hops in front of Vigil are its proxies, to find the client's address (clientAddressResolver). */
  trustProxy: TrustedProxies;
  /** What the diagnostic tools share with the checker. */
  checks: { extraCaPem: string | null; region: string; dnsServers: string[] | null };
  /** VIGIL_PRIVATE_TARGETS: what the check tools, channel URLs and test messages may reach. */
  privateTargets: PrivateTargets;
  /** For test messages to email channels. */
  smtp: SmtpSettings | null;
  /** VIGIL_METRICS_TOKEN: when set, /metrics answers only to it as a Bearer token. */
  metricsToken?: string | null;
  /** VIGIL_OIDC_*: the console offers single sign-on through this provider; none when unset. */
  oidc?: OidcConfig | null;
  /** VIGIL_PUBLIC_URL: the origin (and path) links in mail point to; never taken from a request's Host. */
  publicUrl?: string | null;
}

export interface ApiDependencies {
  commands: CommandContext;
  /** Seals channel configs before they enter any event. */
  secrets: SecretBox;
  readModels: ReadModelStore;
  progress: ReadModelProgress;
  logger: Logger;
  config: ApiConfig;
  /** This process's metrics, served at /metrics; without them the API records none. */
  metrics?: VigilMetrics;
  /** What /readyz reports. */
  readiness?: () => Promise<ReadinessReport>;
  /** The web console's sessions; without them, sessions live in this process only. */
  sessions?: SessionStore;
  /** The WebAuthn challenges given out; without them, kept in this process only. */
  challenges?: ChallengeStore;
  /** The first-run setup link this process printed, while no user exists (src/app/setup-link.ts). */
  setup?: SetupLink;
  /** Aborted when the server starts to stop: answers that last (the console's live streams) end then rather than hold the stop up. */
  stopping?: AbortSignal;
  /** Where `as_of` queries run; without it, on this thread. */
  asOf?: AsOfReader;
  /** The log's head and hash-chain check for the console's audit page; without it, read from the event store (no hashes). */
  logCheck?: LogCheck;
}

/**
 * Read-your-writes: answer only once the read models include the write at `position`. Given the
 * request's state, the answer names the position (Vigil-Position), so that the client can ask a
 * later read to include it; also when the wait runs out and the write is answered with a 503.
 */
export async function settled(deps: ApiDependencies, position: number | null, state?: Pick<VigilState, 'writtenPosition'>): Promise<void> {
  if (position === null) return;
  if (state) state.writtenPosition = Math.max(state.writtenPosition ?? 0, position);
  await deps.progress.waitForPosition(position, deps.config.readYourWritesTimeoutMs);
}

/** What the monitor-deletion workflow needs, waiting for the read models as a write's answer does. */
export function deletion(deps: ApiDependencies): DeletionDependencies {
  return { commands: deps.commands, readModels: deps.readModels, settled: (position) => settled(deps, position) };
}

/** The requester a use case in src/app is given for this request: its answer waits as `settled` does. */
export function requesterOf(deps: ApiDependencies, state: VigilState): Requester {
  return { caller: state.caller, actor: actorOf(state), settled: (position) => settled(deps, position, state) };
}
