import { parseInterval } from './schedule.js';

/**
 * Checks are kept with the pings (their stream is truncated to retention_count), but the hourly
 * figures need every counted check of an hour for as long as the read models show it. So before a
 * check can leave the log, the hour it counts in is summarized (ChecksSummarized) on a stream of
 * its own, `checkhours-<monitor id>`: when a later hour's check arrives, or when its oldest check
 * not yet summarized is retention_count checks back, the last place retention still keeps it.
 * That makes at most one summary per hour of checks, or one per retention_count checks when more
 * come in an hour, and the stream keeps SUMMARY_DAYS_KEPT days of them (summaryWindow).
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

/**
 * Days of summaries the log keeps: the 92 of check_days (CHECK_DAYS_KEPT, the status pages' 90 and
 * a margin), and one more for the summaries that split an hour further (a retention lowered within
 * it, checks run again at once on a resume) and for the hour under way.
 */
export const SUMMARY_DAYS_KEPT = 93;

/**
 * How many summaries the `checkhours-` stream of a monitor checked on `schedule` keeps:
 * SUMMARY_DAYS_KEPT days of hours, each holding at most one summary per `retentionCount` of its
 * checks and the one that closes it. An hour of 30 s checks kept 200 at a time has one (2,232
 * summaries); of 1 s checks kept 10 at a time, 361.
 */
export function summaryWindow(schedule: string, retentionCount: number): number {
  const checksPerHour = Math.ceil(3_600_000 / (parseInterval(schedule) ?? 3_600_000));
  return SUMMARY_DAYS_KEPT * 24 * (Math.floor(checksPerHour / retentionCount) + 1);
}
