import { randomUUID } from 'node:crypto';
import { BackgroundLoop } from '../app/background-loop.js';
import type { Actor } from '../app/command-handler.js';
import type { CommandContext } from '../app/context.js';
import { loadMonitorState, runMonitorCommandIfExists } from '../app/monitors.js';
import { openHeaders } from '../app/uptime-headers.js';
import { UNCONTESTED, type WorkClaims } from '../coordination/work-claims.js';
import { ALL_THE_WORK, type WorkShare } from '../coordination/work-share.js';
import type { CheckObservation } from '../domain/monitors/monitor.js';
import { type MonitorConfig, DNS_DEFAULTS, TCP_DEFAULTS, UPTIME_DEFAULTS } from '../domain/monitors/monitor-config.js';
import { isUptimeType } from '../domain/monitors/schedule.js';
import { type OutboundGuard, guardFor } from '../outbound/guard.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';
import type { DeadlineDocument } from '../../projections/deadlines.js';
import type { MonitorDocument } from '../../projections/monitors.js';
import { runDnsCheck } from './dns-check.js';
import { type CheckerEnvironment, runHttpCheck } from './http-check.js';
import type { ProbeOutcome } from './probe.js';
import { runTcpCheck } from './tcp-check.js';

export interface CheckerConfig extends CheckerEnvironment {
  /** Extra attempts after a failed check before it counts. */
  retries: number;
  retryDelayMs: number;
  sslWarningDays: number;
  region: string;
  concurrency: number;
  maxSleepMs: number;
  /** VIGIL_DNS_SERVERS: where DNS checks without a resolver of their own ask; null for the system's. */
  dnsServers: readonly string[] | null;
}

/** How checker instances divide the work: by monitor partition, and one claim per check in progress. */
export interface CheckerCoordination {
  share?: WorkShare;
  claims?: WorkClaims;
}

const CHECKER_ACTOR: Actor = { kind: 'system', user_id: null, api_key_id: null, request_id: null };

/**
 * Runs the uptime checks (HTTP, TCP, DNS) that are due (from the deadlines read model, `kind: check`) and records
 * each outcome as a command; the monitor decides what it means. A failed check is retried a few
 * times, seconds apart, before it counts, so one dropped packet pages nobody.
 *
 * Several checkers split the monitors by partition; a check is also claimed while it runs and
 * made only if the monitor's own stream still says it is due, so two checkers never probe a
 * target for the same slot, even while a partition changes hands.
 */
export class Checker {
  private readonly inFlight = new Map<string, string>();
  private readonly share: WorkShare;
  private readonly claims: WorkClaims;
  private readonly loop = new BackgroundLoop(() => this.tick(), () => this.config.maxSleepMs, (error) => this.onError(error));

  constructor(
    private readonly commands: CommandContext,
    private readonly readModels: ReadModelStore,
    private readonly config: CheckerConfig,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    private readonly onError: (error: unknown) => void = (error) => console.error('checker error', error),
    coordination: CheckerCoordination = {},
  ) {
    this.share = coordination.share ?? ALL_THE_WORK;
    this.claims = coordination.claims ?? UNCONTESTED;
  }

  /** Checks every monitor due now, a few at a time; returns how many it checked. */
  async tick(): Promise<number> {
    const scope = await this.share.scope();
    if (!scope) return 0;
    const now = this.commands.clock().toISOString();
    const due = await this.readModels.find<DeadlineDocument>('deadlines', { ...scope, check_due_at: { $lte: now } }, { sort: [['check_due_at', 1]], limit: 1000 });
    const fresh = due.filter((d) => d.doc.check_due_at !== null && this.inFlight.get(d.id) !== d.doc.check_due_at);
    const cycleId = randomUUID();
    for (let i = 0; i < fresh.length; i += this.config.concurrency) {
      await Promise.all(
        fresh.slice(i, i + this.config.concurrency).map(async ({ id, doc }) => {
          this.inFlight.set(id, doc.check_due_at!);
          try {
            // Another checker has it: look again next tick, in case that one dies before recording.
            if ((await this.checkMonitor(doc.monitor_id, cycleId, now)) === 'claimed elsewhere') this.inFlight.delete(id);
          } catch (error) {
            // Not recorded: check it again next tick rather than waiting for a due time that will not move.
            this.inFlight.delete(id);
            this.onError(error);
          }
        }),
      );
    }
    return fresh.length;
  }

  private async checkMonitor(monitorId: string, cycleId: string, dueBy: string): Promise<'claimed elsewhere' | void> {
    const monitor = (await this.readModels.get<MonitorDocument>('monitors', monitorId))?.doc;
    if (!monitor || !isUptimeType(monitor.type) || monitor.paused) return;
    const longestMs = (this.config.retries + 1) * (timeoutOf(monitor) + this.config.retryDelayMs);
    if (!(await this.claims.claim(monitorId, longestMs))) return 'claimed elsewhere';
    try {
      const settings = await this.dueSettings(monitorId, dueBy);
      if (settings) await this.probeAndRecord(monitorId, settings, cycleId);
    } finally {
      await this.claims.release(monitorId);
    }
  }

  /**
   * The monitor's stream, not the read model, says whether the check is still to be made, and
   * with what settings: the header values are only there (the read model masks them).
   */
  private async dueSettings(monitorId: string, dueBy: string): Promise<MonitorConfig | null> {
    const state = await loadMonitorState(this.commands, monitorId);
    const due = state.lifecycle === 'active' && !state.paused && state.nextExpectedAt !== null && Date.parse(state.nextExpectedAt) <= Date.parse(dueBy);
    return due ? state.config : null;
  }

  /** One attempt of the monitor's check, whatever its type; null when it has nothing to check. */
  private probe(config: MonitorConfig, guard: OutboundGuard): Promise<ProbeOutcome> | null {
    const { uptime, tcp, dns } = config;
    switch (config.type) {
      case 'UPTIME_HTTP':
        if (!uptime) return null;
        return runHttpCheck(
          {
            url: uptime.uptime_url,
            method: uptime.uptime_method,
            headers: openHeaders(this.commands.secrets, uptime),
            body: uptime.uptime_request_body,
            timeoutMs: uptime.uptime_timeout_ms,
            followRedirects: uptime.uptime_follow_redirects,
            verifySsl: uptime.uptime_verify_ssl,
            expectedStatus: uptime.uptime_expected_status,
            keyword: uptime.uptime_keyword,
            keywordAbsent: uptime.uptime_keyword_absent,
            json: uptime.uptime_json_query
              ? { query: uptime.uptime_json_query, operator: uptime.uptime_json_operator ?? 'equals', expected: uptime.uptime_json_expected ?? null }
              : null,
          },
          this.config,
          guard,
        );
      case 'UPTIME_TCP':
        return tcp ? runTcpCheck({ host: tcp.tcp_host, port: tcp.tcp_port, timeoutMs: tcp.tcp_timeout_ms }, guard) : null;
      case 'UPTIME_DNS':
        if (!dns) return null;
        return runDnsCheck(
          { hostname: dns.dns_hostname, recordType: dns.dns_record_type, expected: dns.dns_expected, match: dns.dns_match, resolver: dns.dns_resolver, timeoutMs: dns.dns_timeout_ms },
          this.config.dnsServers,
          guard,
        );
      default:
        return null;
    }
  }

  private async probeAndRecord(monitorId: string, config: MonitorConfig, cycleId: string): Promise<void> {
    const guard = guardFor(this.config.privateTargets, 'check');
    let outcome: ProbeOutcome;
    let attempts = 0;
    for (;;) {
      attempts += 1;
      const attempt = this.probe(config, guard);
      if (attempt === null) return;
      outcome = await attempt;
      if (outcome.is_up || outcome.probe_error || attempts > this.config.retries) break;
      await this.sleep(this.config.retryDelayMs);
    }
    const check: CheckObservation = {
      check_id: randomUUID(),
      status_code: outcome.status_code,
      response_time_ms: outcome.response_time_ms,
      is_up: outcome.is_up,
      error: outcome.error,
      ssl_expires_at: outcome.ssl_expires_at,
      ssl_issuer: outcome.ssl_issuer,
      check_region: this.config.region,
      check_status: outcome.probe_error ? 'probe_error' : 'ok',
      cycle_id: cycleId,
      attempts,
    };
    await runMonitorCommandIfExists(
      this.commands,
      {
        type: 'RecordCheck',
        monitor_id: monitorId,
        check,
        incident_ids: { failed: this.commands.newId(), ssl: this.commands.newId() },
        ssl_warning_days: this.config.sslWarningDays,
        repage_after_seconds: this.commands.repageAfterSeconds,
        now: this.commands.clock().toISOString(),
      },
      CHECKER_ACTOR,
    );
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }
}

/** How long one attempt of the monitor's check may take. */
function timeoutOf(monitor: MonitorDocument): number {
  switch (monitor.type) {
    case 'UPTIME_TCP':
      return monitor.tcp?.tcp_timeout_ms ?? TCP_DEFAULTS.tcp_timeout_ms;
    case 'UPTIME_DNS':
      return monitor.dns?.dns_timeout_ms ?? DNS_DEFAULTS.dns_timeout_ms;
    default:
      return monitor.uptime?.uptime_timeout_ms ?? UPTIME_DEFAULTS.uptime_timeout_ms;
  }
}
