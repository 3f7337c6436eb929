/**
 * Checks are kept with the pings (their stream is truncated to retention_count), but the hourly
 * figures need every counted check of an hour for good. So before a check can leave the log, the
 * hour it counts in is summarized on the monitor's own stream (ChecksSummarized): when a later
 * hour's check arrives, or when its oldest check not yet summarized is retention_count checks
 * back, the last place retention still keeps it. The monitor stream then grows by at most one
 * event per hour of checks (or per retention_count checks, when more come in an hour).
 */

/** The counted checks (check_status `ok`) of one UTC hour that no ChecksSummarized covers yet. */
export interface UnsummarizedHour {
  /** Start of the hour, ISO. */
  hour: string;
  total: number;
  up: number;
  down: number;
  /** Their response times, in the order recorded. */
  times: readonly number[];
  /** Checks recorded since the first of them, it included: how far back in the checks' stream it is. */
  depth: number;
}

export const hourOf = (iso: string): string => `${iso.slice(0, 13)}:00:00.000Z`;

/** What a recorded check adds to the hours not yet summarized. */
export interface CountedCheck {
  checked_at: string;
  check_status: 'ok' | 'probe_error';
  is_up: boolean;
  response_time_ms: number;
}

/** The hours not yet summarized after one more check: every hour is a check deeper, and a counted one joins its hour. */
export function withCheck(hours: readonly UnsummarizedHour[], check: CountedCheck): UnsummarizedHour[] {
  const deeper = hours.map((h) => ({ ...h, depth: h.depth + 1 }));
  if (check.check_status !== 'ok') return deeper;
  const hour = hourOf(check.checked_at);
  const current = deeper.find((h) => h.hour === hour);
  const up = check.is_up ? 1 : 0;
  if (!current) return [...deeper, { hour, total: 1, up, down: 1 - up, times: [check.response_time_ms], depth: 1 }];
  return deeper.map((h) => (h === current ? { ...h, total: h.total + 1, up: h.up + up, down: h.down + 1 - up, times: [...h.times, check.response_time_ms] } : h));
}

/**
 * The hours to summarize now: those before the hour of `at` (a later hour has begun) and those
 * whose first check would leave a log keeping only `kept` checks after one more.
 */
export function hoursToSummarize(hours: readonly UnsummarizedHour[], at: string, kept: number): UnsummarizedHour[] {
  const current = hourOf(at);
  return hours.filter((h) => h.hour < current || h.depth >= kept);
}
