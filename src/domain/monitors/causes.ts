import { formatDuration } from './pings.js';

/** Sentences a person reads in an incident's `cause`. */
export function failureCause(consecutiveFailures: number, exitCode: number | null, message: string | null): string {
  const count = consecutiveFailures === 1 ? '1 failure' : `${consecutiveFailures} consecutive failures`;
  const last = exitCode !== null ? `last exit code ${exitCode}` : message ? `last message: ${message.slice(0, 200)}` : 'last ping was FAILURE';
  return `${count}; ${last}`;
}

export function tooSlowCause(durationMs: number, maxSeconds: number): string {
  return `Run took ${formatDuration(durationMs)}, longer than the ${formatDuration(maxSeconds * 1000)} maximum`;
}

export function tooFastCause(durationMs: number, minSeconds: number): string {
  return `Run took ${formatDuration(durationMs)}, shorter than the ${formatDuration(minSeconds * 1000)} minimum`;
}

/**
 * One formatter per time zone, built on first use: `toLocaleString` builds one on every call, and
 * this runs on every MISSED incident the timer opens.
 * why: see bench/NOTES.md#a-formatter-per-time-zone
 */
const localTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** `2026-11-21 07:00` in the zone (what toLocaleString('sv-SE') gives, to the minute). */
function localMinute(at: string, timezone: string): string {
  let format = localTimeFormats.get(timezone);
  if (!format) {
    format = new Intl.DateTimeFormat('sv-SE', { timeZone: timezone, hour12: false, year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    localTimeFormats.set(timezone, format);
  }
  return format.format(new Date(at)).slice(0, 16);
}

export function missedCause(expectedAt: string, timezone: string, graceSeconds: number, consecutiveMisses: number): string {
  const local = localMinute(expectedAt, timezone);
  const count = consecutiveMisses === 1 ? '1 missed check-in' : `${consecutiveMisses} consecutive missed check-ins`;
  return `No check-in for the run expected at ${local} (${timezone}) within the ${formatDuration(graceSeconds * 1000)} grace period; ${count}`;
}

export function hungRunCause(startedAt: string, maxSeconds: number, watchdog: boolean): string {
  const base = `A run started at ${startedAt} has not finished within the ${formatDuration(maxSeconds * 1000)} maximum`;
  return watchdog ? `${base}; the watchdog counted it as a failure` : base;
}

export function checkFailureCause(consecutiveFailures: number, error: string | null): string {
  const count = consecutiveFailures === 1 ? '1 failed check' : `${consecutiveFailures} consecutive failed checks`;
  return `${count}; last: ${error ?? 'check failed'}`;
}

export function sslExpiringCause(url: string, expiresAt: string, daysLeft: number, issuer: string | null): string {
  let host = url;
  try {
    host = new URL(url).host;
  } catch {
    // keep the raw text
  }
  const when = daysLeft < 0 ? `expired on ${expiresAt.slice(0, 10)}` : `expires on ${expiresAt.slice(0, 10)} (in ${Math.floor(daysLeft)} days)`;
  return `The TLS certificate of ${host} ${when}${issuer ? `; issuer ${issuer}` : ''}`;
}
