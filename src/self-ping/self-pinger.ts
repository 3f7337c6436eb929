import fetch from 'node-fetch';
import type { Counter } from 'prom-client';
import type { Logger } from '../web/logger.js';
import { BackgroundLoop } from '../app/background-loop.js';
import type { ReadinessReport } from '../metrics/readiness.js';
import type { SelfPingOutcome } from '../metrics/self-ping-metrics.js';
import { type OutboundGuard, refusalIn } from '../outbound/guard.js';

export interface SelfPingSettings {
  /** The operator's URL; it may hold a token (a Healthchecks check's UUID), so only its host is ever logged. */
  url: string;
  intervalMs: number;
  timeoutMs: number;
}

export interface SelfPingDependencies {
  /** The guard deliveries go through: the heartbeat's URL is held to the same policy. */
  outbound: OutboundGuard;
  /** What /readyz answers: a heartbeat goes out only when it would answer 200. */
  readiness: () => Promise<ReadinessReport>;
  clock: () => Date;
  logger: Logger;
  counter: Counter<'outcome'>;
}

/** Longest sleep between looks at the clock, so that a clock stepped forward is noticed within a second. */
const MAX_SLEEP_MS = 1000;

/**
 * The heartbeat out, a dead man's switch for Vigil itself: every interval, while this process is
 * ready (its stores answer, the log takes commits and the read models are within the lag bound,
 * as /readyz judges), a GET to the operator's URL. Not ready, it sends nothing, so whatever
 * watches the URL sees the heartbeats stop; a `/fail` call would say so sooner, but only some
 * receivers understand it, and silence is what every dead man's switch understands.
 *
 * One attempt at a time: a tick that finds one in flight does nothing, and the next attempt is
 * due an interval after the last one was due, never sooner. A failure is logged and counted and
 * never stops the loop; `stop` cuts off an attempt in flight.
 */
export class SelfPinger {
  /** When the next attempt is due, by the injected clock; null until the first, which is due at once. */
  private dueAt: number | null = null;
  private inFlight: Promise<SelfPingOutcome | null> | null = null;
  private readonly stopping = new AbortController();
  private wasReady = true;
  private readonly host: string;
  private readonly loop: BackgroundLoop;

  constructor(
    private readonly settings: SelfPingSettings,
    private readonly deps: SelfPingDependencies,
  ) {
    this.host = new URL(settings.url).host;
    this.loop = new BackgroundLoop(() => this.tick(), () => this.msUntilDue(), (error) => deps.logger.error({ err: error }, 'self-ping failed'));
  }

  start(): void {
    this.deps.logger.info({ host: this.host, interval_ms: this.settings.intervalMs }, 'self-ping started');
    this.loop.start();
  }

  /**
   * Makes the attempt due at the clock's now, if one is and none is in flight. Returns its outcome,
   * or null when nothing was due (or it was cut off by `stop`).
   */
  async tick(): Promise<SelfPingOutcome | null> {
    if (this.inFlight || this.stopping.signal.aborted) return null;
    const now = this.deps.clock().getTime();
    if (this.dueAt !== null && now < this.dueAt) return null;
    const interval = this.settings.intervalMs;
    // After a long stall, one attempt now and the next a whole interval later: no burst to catch up.
    this.dueAt = this.dueAt === null || this.dueAt + interval <= now ? now + interval : this.dueAt + interval;
    this.inFlight = this.attempt();
    try {
      const outcome = await this.inFlight;
      if (outcome) this.deps.counter.inc({ outcome });
      return outcome;
    } finally {
      this.inFlight = null;
    }
  }

  /** Stops the loop, cutting off an attempt in flight, and closes the guard's sockets. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.loop.stop();
    await this.inFlight;
    this.deps.outbound.close();
  }

  private msUntilDue(): number {
    if (this.dueAt === null) return 0;
    return Math.max(0, Math.min(MAX_SLEEP_MS, this.dueAt - this.deps.clock().getTime()));
  }

  private async attempt(): Promise<SelfPingOutcome | null> {
    const report = await this.deps.readiness().catch(() => null);
    if (this.stopping.signal.aborted) return null;
    if (!report?.ready) {
      if (this.wasReady) {
        const failed = report ? Object.entries(report.checks).filter(([, check]) => !check.ok).map(([name]) => name) : ['readiness'];
        this.deps.logger.warn({ host: this.host, failed }, 'self-ping held back while this process is not ready');
      }
      this.wasReady = false;
      return 'skipped_unhealthy';
    }
    if (!this.wasReady) this.deps.logger.info({ host: this.host }, 'self-ping resumed: this process is ready again');
    this.wasReady = true;
    return this.send();
  }

  private async send(): Promise<SelfPingOutcome | null> {
    const { url, timeoutMs } = this.settings;
    const refused = this.deps.outbound.refusalOfUrl(url);
    if (refused) return this.refused(refused.message);
    try {
      const response = await fetch(url, {
        headers: { 'User-Agent': 'Vigil-SelfPing/0.1' },
        agent: this.deps.outbound.fetchAgent,
        // Each hop of a redirect connects through the guard, as the first does.
        follow: 5,
        signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), this.stopping.signal]),
      });
      await response.arrayBuffer().catch(() => undefined);
      if (!response.ok) return this.failed(`${this.host} answered HTTP ${response.status}`);
      this.deps.logger.debug({ host: this.host }, 'self-ping sent');
      return 'ok';
    } catch (error) {
      if (this.stopping.signal.aborted) return null;
      const refusal = refusalIn(error);
      if (refusal !== null) return this.refused(refusal);
      const name = error instanceof Error ? error.name : '';
      if (name === 'AbortError' || name === 'TimeoutError') return this.failed(`no answer from ${this.host} within ${timeoutMs} ms`);
      const code = (error as { code?: string }).code;
      return this.failed(`could not reach ${this.host}${code ? ` (${code})` : ''}`);
    }
  }

  private failed(reason: string): SelfPingOutcome {
    this.deps.logger.warn({ host: this.host, reason }, 'self-ping failed');
    return 'failed';
  }

  /** Refused by the outbound policy: no retry will change that, so it is logged as an error, every time. */
  private refused(reason: string): SelfPingOutcome {
    this.deps.logger.error({ host: this.host, reason }, 'self-ping refused by the outbound policy; set VIGIL_PRIVATE_TARGETS=allow or another URL');
    return 'refused';
  }
}
