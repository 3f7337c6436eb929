import { type LogCheck, LogCheckThread } from '../audit/log-check.js';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RETIRED_PROJECTIONS, allProjections } from '../../projections/index.js';
import { apiListener, authFailureThrottle } from '../api/app.js';
import { createWebApp } from './web-app.js';
import type { ApiDependencies } from '../web/dependencies.js';
import { createHttpServer } from '../api/http-server.js';
import { type Logger, createLogger } from '../web/logger.js';
import { type CommandContext, commandContext } from '../app/context.js';
import { Timer } from '../timer/timer.js';
import { ListeningLoop, keepListeningStreamsBounded } from '../app/listening.js';
import { Checker } from '../checker/checker.js';
import { Notifier } from '../notifier/notifier.js';
import { Escalator } from '../app/escalator.js';
import { MonitorDeleter } from '../app/monitor-deleter.js';
import { SecretBox } from '../app/secret-box.js';
import { SetupLink, anyUserExists } from '../app/setup-link.js';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { newHolderId, releaseDeadLocalHolders } from '../coordination/holders.js';
import { LeadProjector, PROJECTOR_LEASE } from '../coordination/lead-projector.js';
import { PartitionLeases } from '../coordination/partition-leases.js';
import { LeasedClaims } from '../coordination/work-claims.js';
import { LogCompactor } from '../eventstore/log-compactor.js';
import { SqliteEventStore } from '../eventstore/sqlite-event-store.js';
import { type AsOfReader, AsOfThread, inlineAsOfReader } from '../audit/as-of-reader.js';

const VIGIL_VERSION = '0.1';
import { Projector } from '../projector/projector.js';
import { CheckpointPoller, type ReadModelProgress } from '../projector/read-model-progress.js';
import { ConfigError, type RoleName, type VigilConfig } from './config.js';
import { type Stores, type WalCheckpoints, openStores } from './stores.js';
import { type ThreadLinks, newThreadLinks } from './thread-links.js';
import { observability } from './observability.js';
import { type HealthListener, startHealthListener } from './health-listener.js';
import type { VigilMetrics } from '../metrics/vigil-metrics.js';
import { selfPingCounter } from '../metrics/self-ping-metrics.js';
import { guardFor } from '../outbound/guard.js';
import { SelfPinger } from '../self-ping/self-pinger.js';

export interface RunningVigil {
  /** Base URL of the API, when the api role runs. */
  url: string | null;
  /** Base URL of /healthz and /readyz in a process without the api role (StartOptions.healthListener). */
  healthUrl: string | null;
  /** The Koa app behind that URL (its routers say which routes it serves). */
  api: ReturnType<typeof createWebApp> | null;
  stores: Stores;
  projector: Projector | null;
  timer: Timer | null;
  checker: Checker | null;
  notifier: Notifier | null;
  /** Runs beside the notifier: the escalation policies' steps (src/app/escalator.ts). */
  escalator: Escalator | null;
  /** Runs beside the notifier: finishes the monitor deletions a crash left half-way (src/app/monitor-deleter.ts). */
  monitorDeleter: MonitorDeleter | null;
  /** Keeps the embedded log compacted, in the process with the api role (driven by hand with manualTimer). */
  compactor: LogCompactor | null;
  /** The heartbeat out to VIGIL_SELF_PING_URL, run by the api role. */
  selfPing: SelfPinger | null;
  /** The api role's confirmations that it is listening (docs/concepts.md#vigils-own-outages). */
  listening: ListeningLoop | null;
  /** This process in the lease store: hostname:pid:process start:random. */
  holder: string;
  /** The partitions each coordinated role of this process holds, shared with its other instances. */
  shares: Partial<Record<CoordinatedRole, PartitionLeases>>;
  /** The command side shared by the roles of this process (one lock table, one state cache). */
  commands: CommandContext;
  logger: Logger;
  /** This process's metrics, the ones /metrics serves. */
  metrics: VigilMetrics;
  /** The first-run setup link this process printed at start (no user existed then), or null. */
  setupLink: string | null;
  stop: () => Promise<void>;
}

type CoordinatedRole = 'timer' | 'checker' | 'notifier';

export interface StartOptions {
  roles: readonly RoleName[];
  clock?: () => Date;
  logger?: Logger;
  /** Build the timer, checker, notifier and self-ping but leave it to the caller to tick them (tests drive time by hand). */
  manualTimer?: boolean;
  /** Node's process metrics (CPU, memory, event loop, GC) on /metrics; on unless turned off. */
  processMetrics?: boolean;
  /** Shared with the other threads of this process that work on the embedded file (see ThreadLinks). */
  threads?: ThreadLinks;
  /** Who checkpoints the embedded file's WAL (see WalCheckpoints); SQLite's own way unless told. */
  walCheckpoints?: WalCheckpoints;
  /** Without the api role, answer /healthz and /readyz on VIGIL_HEALTH_PORT when it is set (the `serve` entry points). */
  healthListener?: boolean;
  /** The projector role runs on a worker thread of this process, sharing `threads` (server.ts). */
  projectorOnThread?: boolean;
  /** Where the api role prints what an operator must see at start (the first-run setup link); stderr unless told. */
  announce?: (line: string) => void;
}

/** Starts the chosen roles in this process against the stores the config names. */
export async function startVigil(config: VigilConfig, options: StartOptions): Promise<RunningVigil> {
  const logger = options.logger ?? createLogger(config.logLevel);
  for (const deprecation of config.deprecations) logger.warn(deprecation);
  const threads = options.threads ?? newThreadLinks();
  const stores = await openStores(config, { ...(options.clock ? { clock: options.clock } : {}), threads, ...(options.walCheckpoints ? { walCheckpoints: options.walCheckpoints } : {}) });
  const projections = allProjections();
  const clock = options.clock ?? (() => new Date());
  const { metrics, readiness } = observability(stores, projections, {
    processMetrics: options.processMetrics ?? true,
    readyMaxLagEvents: config.readyMaxLagEvents,
    readyMaxLagSeconds: config.readyMaxLagSeconds,
    clock,
    logger,
  });
  const holder = newHolderId();
  // Restarted after a crash, take back at once what the dead process held rather than wait out its leases.
  await releaseDeadLocalHolders(stores.leases, clock());
  const checkpoints = new CheckpointPoller(stores.readModels, projections.map((p) => p.name), { commits: threads.readModelCommits, demand: threads.readerDemand });
  let lead: LeadProjector | null = null;
  if (options.roles.includes('projector')) {
    const makeProjector = () => new Projector(stores.events, stores.readModels, projections, {
      onError: (error) => logger.error({ err: error }, 'projector failed; retrying'),
      metrics,
      lingerMs: config.projectorLingerMs,
      readerDemand: threads.readerDemand,
      retired: RETIRED_PROJECTIONS,
      fence: { lease: PROJECTOR_LEASE, holder },
    });
    lead = new LeadProjector(
      stores.leases, holder, { ttlMs: config.coordination.leaseTtlMs, clock, onError: (error) => logger.error({ err: error }, 'projector lease failed; retrying') },
      makeProjector, checkpoints,
    );
    await lead.start();
  }
  if (!lead?.projector) {
    await stores.readModels.ensureCollections(projections.map((p) => p.collection));
  }

  const shares: RunningVigil['shares'] = {};
  const shareOf = async (role: CoordinatedRole): Promise<PartitionLeases> => {
    const { leaseTtlMs, partitions } = config.coordination;
    const share = new PartitionLeases(stores.leases, role, holder, {
      ttlMs: leaseTtlMs, partitions, clock, onError: (error) => logger.error({ err: error }, `${role} leases failed; retrying`),
    });
    // Driven by hand, leases are renewed when a tick finds them old by the test's clock.
    await (options.manualTimer ? share.refresh() : share.start());
    shares[role] = share;
    return share;
  };

  // Every role that records a monitor's settings or sends its checks seals or opens header values.
  const secrets = (['api', 'checker', 'notifier'] as const).some((role) => options.roles.includes(role)) ? secretBoxFor(config, stores) : null;
  const commands = commandContext(stores.events, {
    appender: stores.appender,
    secrets,
    apiKeyPrefix: config.apiKeyPrefix,
    repageAfterSeconds: config.repageAfterSeconds,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  // Before the timer: a fire after a stop must find the outage recorded.
  let listening: ListeningLoop | null = null;
  if (options.roles.includes('api')) {
    await keepListeningStreamsBounded(commands);
    listening = new ListeningLoop(commands, config.listeningIntervalMs, (error) => logger.error({ err: error }, 'listening confirmation failed; retrying'), (outage) =>
      logger.warn({ outage }, `Vigil could not hear pings from ${outage.from} to ${outage.to}: deadlines then are recorded unheard`));
    if (!options.manualTimer) await listening.start();
  }
  let timer: Timer | null = null;
  if (options.roles.includes('timer')) {
    timer = new Timer(commands, stores.readModels, { onError: (error) => logger.error({ err: error }, 'timer failed; retrying'), metrics, share: await shareOf('timer') });
    if (!options.manualTimer) timer.start();
  }

  const extraCaPem = config.checks.caFile ? readFileSync(config.checks.caFile, 'utf8') : null;
  let checker: Checker | null = null;
  if (options.roles.includes('checker')) {
    checker = new Checker(
      commands,
      stores.readModels,
      {
        ...config.checks,
        extraCaPem,
        userAgent: `Vigil-Uptime/${VIGIL_VERSION}`,
        maxSleepMs: 1000,
      },
      undefined,
      (error) => logger.error({ err: error }, 'check failed to run'),
      { share: await shareOf('checker'), claims: new LeasedClaims(stores.leases, 'checker/check/', holder, config.coordination.leaseTtlMs, clock) },
    );
    if (!options.manualTimer) checker.start();
  }

  let notifier: Notifier | null = null;
  let escalator: Escalator | null = null;
  let monitorDeleter: MonitorDeleter | null = null;
  if (options.roles.includes('notifier') && secrets) {
    const claims = new LeasedClaims(stores.leases, 'notifier/delivery/', holder, config.coordination.leaseTtlMs, clock);
    const progress: ReadModelProgress = lead ?? checkpoints;
    const share = await shareOf('notifier');
    notifier = new Notifier(commands, stores.readModels, secrets, config.notify, (error) => logger.error({ err: error }, 'notifier failed; retrying'), metrics, { share, claims });
    if (!options.manualTimer) notifier.start();
    // The deletions of the notifier's partitions: the pages a deletion hands over are the notifier's to deliver.
    monitorDeleter = new MonitorDeleter(
      { commands, readModels: stores.readModels, settled: (position) => progress.waitForPosition(position, config.readYourWritesTimeoutMs) },
      { share, pollMs: config.notify.pollMs, onError: (error) => logger.error({ err: error }, 'monitor deletion failed; retrying') },
    );
    if (!options.manualTimer) monitorDeleter.start();
    escalator = new Escalator(commands, stores.readModels, { pollMs: config.notify.pollMs, onError: (error) => logger.error({ err: error }, 'escalator failed; retrying') });
    if (!options.manualTimer) escalator.start();
  }

  let server: Server | null = null;
  let api: RunningVigil['api'] = null;
  let url: string | null = null;
  // `as_of` reads on a thread of its own where both stores are the embedded file it can open too.
  let asOf: AsOfReader | null = null;
  let logCheck: LogCheck | null = null;
  let compactor: LogCompactor | null = null;
  const stopping = new AbortController();
  const setup = new SetupLink();
  let setupLink: string | null = null;
  if (options.roles.includes('api') && secrets) {
    asOf = stores.sqlitePath && !config.eventStoreUrl && !config.mongoUrl ? new AsOfThread(stores.sqlitePath) : inlineAsOfReader(stores.readModels, stores.events);
    logCheck = stores.sqlitePath && !config.eventStoreUrl ? new LogCheckThread(stores.sqlitePath) : null;
    // The process that hears the pings keeps the embedded log compacted: retention bounds the file.
    if (logCheck instanceof LogCheckThread && stores.events instanceof SqliteEventStore) {
      const thread = logCheck;
      compactor = new LogCompactor(stores.events, (limits) => thread.planCompaction(limits), {
        onError: (error) => logger.error({ err: error }, 'log compaction failed; retrying'),
        onOutcome: (outcome) => {
          if (outcome.kind === 'compacted') logger.info(outcome, 'log compacted');
          if (outcome.kind === 'refused') logger.error({ reason: outcome.reason }, 'log compaction refused: the log does not verify (run vigil verify)');
        },
      });
      if (!options.manualTimer) compactor.start();
    }
    const progress: ReadModelProgress = lead ?? checkpoints;
    const deps: ApiDependencies = {
      commands,
      secrets,
      readModels: stores.readModels,
      progress,
      logger,
      metrics,
      readiness,
      sessions: stores.sessions,
      challenges: stores.challenges,
      setup,
      stopping: stopping.signal,
      asOf,
      ...(logCheck ? { logCheck } : {}),
      config: {
        bodyLimitBytes: config.bodyLimitBytes,
        rateLimit: config.rateLimit,
        readYourWritesTimeoutMs: config.readYourWritesTimeoutMs,
        readsWaitForLogHead: !config.eventStoreUrl && (options.roles.includes('projector') || options.projectorOnThread === true),
        pingPayloadLimitBytes: config.pingPayloadLimitBytes,
        trustProxy: config.trustProxy,
        checks: { extraCaPem, region: config.checks.region, dnsServers: config.checks.dnsServers },
        privateTargets: config.notify.privateTargets,
        smtp: config.notify.smtp,
        metricsToken: config.metricsToken,
        oidc: config.oidc,
        publicUrl: config.publicUrl,
      },
    };
    const throttle = authFailureThrottle(deps);
    const app = createWebApp(deps, throttle);
    api = app;
    server = createHttpServer(apiListener(deps, app, throttle), config.httpTimeouts).listen(config.port, config.host);
    await new Promise<void>((resolve, reject) => {
      server!.once('listening', resolve);
      server!.once('error', reject);
    });
    const address = server.address() as AddressInfo;
    url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
    setupLink = await offerSetup(setup, deps, config.publicUrl ?? reachableUrl(address), options.announce ?? ((line) => process.stderr.write(`${line}\n`)));
  }

  // The heartbeat goes out from the api: the role that takes the pings and answers /readyz, whose
  // verdict decides each heartbeat. One per api process, each on its own readiness.
  const selfPing = server && config.selfPing
    ? new SelfPinger(config.selfPing, { outbound: guardFor(config.notify.privateTargets, 'delivery'), readiness, clock, logger, counter: selfPingCounter(metrics.registry) })
    : null;
  if (selfPing && !options.manualTimer) selfPing.start();

  // A process without the API answers its container's health checks on a port of its own.
  let health: HealthListener | null = null;
  if (!server && options.healthListener && config.healthPort !== null) {
    health = await startHealthListener(readiness, { port: config.healthPort, host: config.host, timeouts: config.httpTimeouts });
  }

  let stopped = false;
  return {
    url,
    healthUrl: health?.url ?? null,
    api,
    stores,
    get projector() {
      return lead?.projector ?? null;
    },
    timer,
    checker,
    notifier,
    escalator,
    monitorDeleter,
    compactor,
    selfPing,
    listening,
    holder,
    shares,
    commands,
    logger,
    metrics,
    setupLink,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await selfPing?.stop();
      if (server) {
        stopping.abort();
        server.closeIdleConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
      await health?.close();
      await listening?.stop();
      await escalator?.stop();
      await monitorDeleter?.stop();
      await notifier?.stop();
      await checker?.stop();
      await timer?.stop();
      // Let go of the partitions only once no tick is in progress, so the others take over at once.
      // Letting go is a courtesy (a lease lapses anyway): a store that cannot write it (a full
      // disk) must not keep the stores from closing.
      const leaseNotReleased = (error: unknown) => logger.warn({ err: error }, 'a lease was not let go of; it lapses instead');
      for (const share of Object.values(shares)) await share.stop().catch(leaseNotReleased);
      await lead?.stop().catch(leaseNotReleased);
      await compactor?.stop();
      await asOf?.close();
      await logCheck?.close();
      await stores.close();
    },
  };
}

/** The server's address as a browser on this machine reaches it: a wildcard listen is reached at localhost. */
function reachableUrl(address: AddressInfo): string {
  const host = address.address === '0.0.0.0' || address.address === '::' ? 'localhost' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/**
 * While no account exists, prints a one-time link to create the first one (SetupLink) and answers
 * it; null once there is an account. It waits for the read models to reach the log's head first,
 * so that a user created before this start (a rebuild under way, `vigil bootstrap`) is seen.
 */
async function offerSetup(setup: SetupLink, deps: ApiDependencies, base: string, announce: (line: string) => void): Promise<string | null> {
  await deps.progress.waitForPosition(await deps.commands.events.headPosition(), 10_000).catch(() => undefined);
  if (await anyUserExists(deps.readModels)) return null;
  const link = `${base}/setup?token=${setup.issue()}`;
  announce(`vigil: no account exists yet. Create the first one in a browser (this link works once): ${link}`);
  return link;
}

/**
 * The key that seals channel configs and uptime header values: VIGIL_SECRET_KEY, or in embedded
 * mode a key file generated beside the data. With a server-side event store there is no file
 * every process shares, so the variable is required there.
 */
export function secretBoxFor(config: VigilConfig, stores: Stores): SecretBox {
  if (config.secretKey) return SecretBox.fromEncodedKey(config.secretKey);
  if (!stores.sqlitePath) throw new ConfigError('VIGIL_SECRET_KEY is required when the event store is EventStoreDB');
  return SecretBox.fromKeyFile(join(config.dataDir, 'secret.key'));
}
