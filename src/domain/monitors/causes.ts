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
