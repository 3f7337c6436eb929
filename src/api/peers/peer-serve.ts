import type { IncomingMessage, ServerResponse } from 'node:http';
import { receivePing } from '../../app/monitors.js';
import type { PingKind } from '../../domain/monitors/pings.js';
import { DomainError } from '../../domain/errors.js';
import type { ApiDependencies } from '../../web/dependencies.js';
import { HttpError, errorResponse } from '../../web/errors.js';
import type { PingApiConfig } from '../ping-api.js';
import { POSITION_HEADER, positionToken } from '../position-token.js';
import type { CappedBody } from '../raw-body.js';
import { logRequest, requestIdFrom } from '../../web/request-context.js';

/** What a peer's route answers: its status, body and type as the peer itself would send them. */
export interface PeerAnswer {
  status: number;
  body: string;
  contentType: 'text/plain; charset=utf-8' | 'application/json';
  headers?: Record<string, string>;
}

/** A ping in Vigil's terms, translated from a peer's request. */
export interface PeerPing {
  kind: PingKind;
  runId: string | null;
  exitCode: number | null;
  durationMs: number | null;
  message: string | null;
  body: CappedBody | null;
}

/** Where a peer's request came from, as every ping records it. */
export interface PingOrigin {
  requestId: string;
  address: string;
  userAgent: string | null;
}

/**
 * What the peers' routes share with the Ping API: one request id, log line and duration metric per
 * request, the same command to record a ping (answered only once it is durably in the log), the
 * same throttle on wrong secrets, and errors turned into the peer's own shape by `refusal`.
 */
export class PeerPingCore {
  constructor(
    readonly deps: ApiDependencies,
    readonly config: PingApiConfig,
  ) {}

  serve(request: IncomingMessage, response: ServerResponse, route: string, path: string, respond: (origin: PingOrigin) => Promise<PeerAnswer>, refusal: (status: number, message: string) => PeerAnswer): void {
    this.answer(request, response, route, path, respond, refusal).catch((error: unknown) => {
      this.deps.logger.error({ err: error }, 'answering a ping failed');
      response.destroy();
    });
  }

  /** One async function, as the Ping API's: a chain of `.then`s made several promises more per request. */
  private async answer(request: IncomingMessage, response: ServerResponse, route: string, path: string, respond: (origin: PingOrigin) => Promise<PeerAnswer>, refusal: (status: number, message: string) => PeerAnswer): Promise<void> {
    const started = process.hrtime.bigint();
    const stopTimer = this.deps.metrics?.httpRequestDuration.startTimer();
    const requestId = requestIdFrom(request.headers['x-request-id']);
    const origin: PingOrigin = { requestId, address: this.config.clientAddress(request), userAgent: (request.headers['user-agent'] ?? '').slice(0, 512) || null };
    let answer: PeerAnswer;
    try {
      answer = await respond(origin);
    } catch (caught) {
      const { status, body, headers } = errorResponse(caught);
      if (status >= 500) this.deps.logger.error({ err: caught, request_id: requestId }, 'request failed');
      answer = { ...refusal(status, body.error), headers: { ...headers } };
    }
    if (!response.destroyed && !response.writableEnded) {
      const headers = ['X-Request-Id', requestId, 'X-Content-Type-Options', 'nosniff', 'Content-Type', answer.contentType];
      for (const [name, value] of Object.entries(answer.headers ?? {})) headers.push(name, value);
      headers.push('Content-Length', String(Buffer.byteLength(answer.body)));
      response.writeHead(answer.status, headers);
      response.end(request.method === 'HEAD' ? undefined : answer.body);
    }
    const method = request.method ?? '';
    stopTimer?.({ method, route, status_code: String(answer.status) });
    logRequest(this.deps.logger, { requestId, method, path, status: answer.status, started, routine: true });
  }

  /**
   * Records the ping as the Ping API does. A monitor that is not there (deleted since it was looked
   * up, or an id that names nothing), or that no longer has the slug it was looked up by
   * (`addressedAsSlug`), is a DomainError `not_found`, for the caller to look further or refuse.
   */
  async record(monitorId: string, ping: PeerPing, origin: PingOrigin, addressedAsSlug?: string) {
    const recorded = await receivePing(
      this.deps.commands,
      monitorId,
      {
        event: ping.kind,
        run_id: ping.runId,
        exit_code: ping.exitCode,
        duration_ms: ping.durationMs,
        message: ping.message,
        payload: ping.body && ping.body.bytes > 0 ? ping.body.text : null,
        payload_truncated: ping.body?.truncated ?? false,
        payload_bytes: ping.body && ping.body.bytes > 0 ? ping.body.bytes : null,
        request_ip: origin.address || null,
        request_ua: origin.userAgent,
      },
      { kind: 'system', user_id: null, api_key_id: null, request_id: origin.requestId },
      addressedAsSlug,
    );
    this.deps.metrics?.pingsReceived.inc({ event: recorded.event });
    return recorded;
  }

  /** As `record`, or null when no monitor has this id. */
  async recordIfThere(monitorId: string, ping: PeerPing, origin: PingOrigin, addressedAsSlug?: string) {
    try {
      return await this.record(monitorId, ping, origin, addressedAsSlug);
    } catch (error) {
      if (error instanceof DomainError && error.reason === 'not_found') return null;
      throw error;
    }
  }

  /**
   * A secret that names nothing (a monitor id, ping key, token or DSN key): counted against the
   * client's address in the throttle every door shares; past its limit, the 429 it gives.
   */
  unknownSecret(address: string, refusal: HttpError): HttpError {
    const throttled = this.config.throttle?.recordFailure(address) ?? null;
    this.deps.metrics?.authFailures.inc({ outcome: throttled ? 'throttled' : 'refused' });
    return throttled ?? refusal;
  }

  /**
   * Looks again once the read models have caught up with the log (up to 2 s), where a first look
   * found nothing: a monitor a check-in created a moment ago, or an alias an import just claimed,
   * is in the log before it is in the read models, and the job's next ping must find it.
   */
  async lookTwice<T>(look: () => Promise<T>, found: (value: T) => boolean): Promise<T> {
    const first = await look();
    if (found(first)) return first;
    await this.readModelsCaughtUp();
    return look();
  }

  /** Once the read models have reached the log's head as it is now, or 2 s have passed. */
  async readModelsCaughtUp(): Promise<void> {
    const head = await this.deps.commands.events.headPosition();
    await this.deps.progress.waitForPosition(head, 2_000).catch(() => undefined);
  }

  /** The Vigil-Position of a write, for a client that reads back its own pings. */
  static positionHeaders(position: number | null): Record<string, string> {
    return position === null ? {} : { [POSITION_HEADER]: positionToken(position) };
  }
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
