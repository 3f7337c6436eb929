import { cronFor, cronScheduleProblem } from './cron-schedule.js';
import { isRule, nextOfRule, ruleScheduleProblem } from './rrule-schedule.js';
import { isTimeZone } from './wall-time.js';

export { instantOfWallTime, isTimeZone, wallTimeAsUtcMs } from './wall-time.js';

export type MonitorType = 'JOB_CRON' | 'JOB_HEARTBEAT' | 'JOB_BASIC' | UptimeType;
export type UptimeType = 'UPTIME_HTTP' | 'UPTIME_TCP' | 'UPTIME_DNS';
export const UPTIME_TYPES: readonly UptimeType[] = ['UPTIME_HTTP', 'UPTIME_TCP', 'UPTIME_DNS'];
export const MONITOR_TYPES: readonly MonitorType[] = ['JOB_CRON', 'JOB_HEARTBEAT', 'JOB_BASIC', ...UPTIME_TYPES];

/** Monitors Vigil checks itself, on an interval, rather than waiting for their pings. */
export const isUptimeType = (type: MonitorType): type is UptimeType => (UPTIME_TYPES as readonly string[]).includes(type);

const INTERVAL = /^(\d{1,7})(s|m|h|d|w)$/;
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;
const MAX_INTERVAL_MS = 365 * UNIT_MS.d;

/** `90s`, `5m`, `1h`, `2d`, `1w` → milliseconds; null when it is not such an interval. */
export function parseInterval(schedule: string): number | null {
  const match = INTERVAL.exec(schedule.trim());
  if (!match) return null;
  const ms = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  return ms >= 1000 && ms <= MAX_INTERVAL_MS ? ms : null;
}

/**
 * Why a schedule does not suit its monitor type, or null when it does. A JOB_CRON schedule must
 * also have a next time within HORIZON_YEARS of `now`: one that never fires can never be missed.
 */
export function scheduleProblem(type: MonitorType, schedule: string, timezone: string, now: string): string | null {
  switch (type) {
    case 'JOB_CRON': {
      const zone = isTimeZone(timezone) ? timezone : 'UTC';
      return isRule(schedule) ? ruleScheduleProblem(schedule, zone, new Date(now)) : cronScheduleProblem(schedule, zone, new Date(now));
    }
    case 'JOB_HEARTBEAT':
    case 'UPTIME_HTTP':
    case 'UPTIME_TCP':
    case 'UPTIME_DNS':
      return parseInterval(schedule) !== null
        ? null
        : `schedule must be an interval such as 30s, 5m, 1h, 2d or 1w (from 1s to 365d) for ${type} monitors`;
    case 'JOB_BASIC':
      return schedule.trim().length > 0 ? null : 'schedule must not be empty';
    default: {
      const exhaustive: never = type;
      return exhaustive;
    }
  }
}

/** When the next check-in is due after `from`; null for JOB_BASIC, which has no schedule to keep. */
export function nextExpectedAfter(type: MonitorType, schedule: string, timezone: string, from: string): string | null {
  switch (type) {
    case 'JOB_CRON': {
      const cron = cronFor(schedule, timezone);
      const next = cron ? cron.nextRun(new Date(from)) : nextOfRule(schedule, timezone, new Date(from));
      return next ? next.toISOString() : null;
    }
    case 'JOB_HEARTBEAT':
    case 'UPTIME_HTTP':
    case 'UPTIME_TCP':
    case 'UPTIME_DNS': {
      const interval = parseInterval(schedule);
      return interval === null ? null : new Date(Date.parse(from) + interval).toISOString();
    }
    case 'JOB_BASIC':
      return null;
    default: {
      const exhaustive: never = type;
      return exhaustive;
    }
  }
}

/**
 * A check-in this close before a cron slot is early for that slot (clock skew between the job's
 * host and Vigil), not a stray ping: the next expected time is then the slot after it. The window
 * is less than half the gap between slots, so a job running every minute or two is not skipped ahead.
 */
export const EARLY_CHECKIN_MS = 60_000;

export function nextExpectedAfterCheckIn(type: MonitorType, schedule: string, timezone: string, checkinAt: string): string | null {
  const next = nextExpectedAfter(type, schedule, timezone, checkinAt);
  if (type !== 'JOB_CRON' || next === null) return next;
  const following = nextExpectedAfter(type, schedule, timezone, next);
  const early = Date.parse(next) - Date.parse(checkinAt);
  if (following !== null && early <= EARLY_CHECKIN_MS && Date.parse(following) - Date.parse(next) > 2 * EARLY_CHECKIN_MS) return following;
  return next;
}

export function addSeconds(iso: string, seconds: number): string {
  return new Date(Date.parse(iso) + seconds * 1000).toISOString();
}

/** The next `count` expected times from `first` on: what a person checks a schedule against. */
export function upcomingSlots(type: MonitorType, schedule: string, timezone: string, first: string | null, count: number): string[] {
  const slots: string[] = [];
  for (let at = first; at !== null && slots.length < count; at = nextExpectedAfter(type, schedule, timezone, at)) slots.push(at);
  return slots;
}
