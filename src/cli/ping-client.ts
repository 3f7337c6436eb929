import { type PingTarget, pingPath } from './ping-target.js';

export type PingSuffix = 'start' | 'success' | 'fail' | 'log';

export interface PingRequest {
  suffix: PingSuffix;
  runId?: string;
  exitCode?: number;
  durationMs?: number;
  message?: string;
  /** Sent as the POST body, which Vigil stores as the ping's payload. */
  payload?: string;
}

export interface PingDelivery {
  /** Pause before each retry; its length is the number of retries. */
  retryDelaysMs: readonly number[];
  /** How long one request may take before it is abandoned (and retried). */
  requestTimeoutMs: number;
}

/**
 * Three attempts, about ten seconds at worst against a server that hangs, and a second or so against one
 * that is down: a cron job waits for its pings, so they must give up quickly.
 */
export const DEFAULT_PING_DELIVERY: PingDelivery = { retryDelaysMs: [250, 1000], requestTimeoutMs: 3000 };

export type PingAnswer =
  | { ok: true; status: number; body: unknown }
  | { ok: false; status: number | null; error: string };

export function pingUrl(target: PingTarget, request: PingRequest): string {
  // The base may carry a path prefix (Vigil behind a proxy at https://host/vigil), so the path is appended to it.
  const url = new URL(`${target.baseUrl.replace(/\/+$/, '')}${pingPath(target, request.suffix)}`);
  const query: [string, string | number | undefined][] = [
    ['run_id', request.runId],
    ['exit_code', request.exitCode],
    ['duration_ms', request.durationMs],
    ['message', request.message],
  ];
  for (const [name, value] of query) if (value !== undefined) url.searchParams.set(name, String(value));
  return url.toString();
}

/**
 * Sends one ping. A network error, a timeout, a 5xx or a 429 is worth another try; any other 4xx
 * (unknown monitor, bad parameter) will not change on a retry, so it is returned at once.
 */
export async function sendPing(target: PingTarget, request: PingRequest, delivery: PingDelivery = DEFAULT_PING_DELIVERY): Promise<PingAnswer> {
  const url = pingUrl(target, request);
  let answer: PingAnswer = { ok: false, status: null, error: 'not sent' };
  for (let attempt = 0; attempt <= delivery.retryDelaysMs.length; attempt += 1) {
    if (attempt > 0) await sleep(delivery.retryDelaysMs[attempt - 1] ?? 0);
    answer = await attemptPing(url, request, delivery.requestTimeoutMs);
    if (answer.ok || !isWorthRetrying(answer)) return answer;
  }
  return answer;
}

function isWorthRetrying(answer: PingAnswer): boolean {
  return answer.status === null || answer.status >= 500 || answer.status === 429;
}

async function attemptPing(url: string, request: PingRequest, timeoutMs: number): Promise<PingAnswer> {
  try {
    const response = await fetch(url, {
      method: request.payload === undefined ? 'GET' : 'POST',
      headers: { 'User-Agent': 'vigil-cli', ...(request.payload === undefined ? {} : { 'Content-Type': 'text/plain; charset=utf-8' }) },
      ...(request.payload === undefined ? {} : { body: request.payload }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    const body = parseJson(text);
    if (response.status === 200) return { ok: true, status: 200, body };
    return { ok: false, status: response.status, error: `${response.status} ${errorMessageOf(body) ?? (text.slice(0, 200) || response.statusText)}` };
  } catch (error) {
    return { ok: false, status: null, error: describeFetchError(error, url, timeoutMs) };
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function errorMessageOf(body: unknown): string | null {
  if (typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'string') return body.error;
  return null;
}

/** fetch says only "fetch failed"; the reason (ECONNREFUSED, a DNS failure) is in its cause. */
function describeFetchError(error: unknown, url: string, timeoutMs: number): string {
  const origin = new URL(url).origin;
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return `no answer from ${origin} within ${timeoutMs} ms`;
  const cause = error instanceof Error ? error.cause : undefined;
  const reason = cause instanceof Error ? ('code' in cause && typeof cause.code === 'string' ? cause.code : cause.message) : error instanceof Error ? error.message : String(error);
  return `${origin} unreachable (${reason})`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
