import type { MonitorDocument } from '../../projections/monitors.js';
import { parseInterval } from '../domain/monitors/schedule.js';
import type { JsonOperator, UptimeConfig } from '../domain/monitors/monitor-config.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "just now", "3 min ago", "in 2 h", "5 days ago": how far `iso` is from `now`. */
export function relativeTime(iso: string, now: Date): string {
  const delta = Date.parse(iso) - now.getTime();
  const distance = Math.abs(delta);
  if (distance < 45_000) return delta <= 0 ? 'just now' : 'in a moment';
  const amount =
    distance < HOUR ? `${Math.round(distance / MINUTE)} min` : distance < 2 * DAY ? `${Math.round(distance / HOUR)} h` : `${Math.round(distance / DAY)} days`;
  return delta < 0 ? `${amount} ago` : `in ${amount}`;
}

/** 850 ms, 1.2 s, 3 min 5 s, 2 h 10 min. */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < MINUTE) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  if (ms < HOUR) {
    const minutes = Math.floor(ms / MINUTE);
    const seconds = Math.round((ms % MINUTE) / 1000);
    return seconds > 0 ? `${minutes} min ${seconds} s` : `${minutes} min`;
  }
  const hours = Math.floor(ms / HOUR);
  const minutes = Math.round((ms % HOUR) / MINUTE);
  return minutes > 0 ? `${hours} h ${minutes} min` : `${hours} h`;
}

/** An interval such as `5m` or `1h`, in words ("5 min", "1 h"); the schedule itself when it is not one. */
export function intervalWords(schedule: string): string {
  const ms = parseInterval(schedule);
  return ms === null ? schedule : duration(ms);
}

/** A time as a person in `timeZone` reads it: "Sun 22 Nov 2026, 03:00 CET" (with `seconds`, "03:00:15"). */
export function inZone(iso: string, timeZone: string, seconds = false): string {
  try {
    return new Intl.DateTimeFormat('en-GB', {
      timeZone, weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', ...(seconds ? { second: '2-digit' } : {}), timeZoneName: 'short',
    }).format(new Date(iso));
  } catch {
    return iso;
  }
}

/** A UTC time: "Sat, 21 Nov 2026, 12:03 UTC". */
export function utc(iso: string): string {
  return inZone(iso, 'UTC');
}

/** A UTC time to the second, where minutes would not tell times apart (an outage of 40 s): "Sat, 21 Nov 2026, 12:03:15 UTC". */
export function utcSeconds(iso: string): string {
  return inZone(iso, 'UTC', true);
}

/** The monitor's schedule as one sentence, e.g. "Cron 0 3 * * * in Europe/Paris, 5 min grace". */
export function scheduleInWords(m: MonitorDocument): string {
  const grace = `${duration(m.grace_period_seconds * 1000)} grace`;
  switch (m.type) {
    case 'JOB_CRON':
      return /^RRULE:/i.test(m.schedule) ? `Calendar rule ${m.schedule} in ${m.timezone}, ${grace}` : `Cron ${m.schedule} in ${m.timezone}, ${grace}`;
    case 'JOB_HEARTBEAT':
      return `A ping every ${intervalWords(m.schedule)}, ${grace}`;
    case 'JOB_BASIC':
      return 'No schedule: only the success and failure pings the job sends count';
    case 'UPTIME_HTTP': {
      const expected = m.uptime && m.uptime.uptime_expected_status.length > 0 ? m.uptime.uptime_expected_status.join(', ') : 'any 2xx';
      const query = m.uptime?.uptime_json_query ? `, and JSON ${jsonQueryInWords(m.uptime)}` : '';
      return `${m.uptime?.uptime_method ?? 'GET'} ${m.uptime?.uptime_url ?? ''} every ${intervalWords(m.schedule)}, expecting ${expected}${query}`;
    }
    case 'UPTIME_TCP':
      return `TCP connection to ${m.tcp?.tcp_host ?? ''} port ${m.tcp?.tcp_port ?? ''} every ${intervalWords(m.schedule)}`;
    case 'UPTIME_DNS': {
      const dns = m.dns;
      const expected = !dns || dns.dns_expected.length === 0 ? 'any answer' : `${dns.dns_expected.length === 1 ? '' : `${dns.dns_match} of `}${dns.dns_expected.join(', ')}`;
      return `${dns?.dns_record_type ?? 'A'} record of ${dns?.dns_hostname ?? ''} every ${intervalWords(m.schedule)}, expecting ${expected}${dns?.dns_resolver ? ` from ${dns.dns_resolver}` : ''}`;
    }
    default: {
      const exhaustive: never = m.type;
      return exhaustive;
    }
  }
}

export const TYPE_NAMES: Record<MonitorDocument['type'], string> = {
  JOB_CRON: 'Cron job',
  JOB_HEARTBEAT: 'Heartbeat',
  JOB_BASIC: 'Job',
  UPTIME_HTTP: 'HTTP uptime',
  UPTIME_TCP: 'TCP port',
  UPTIME_DNS: 'DNS record',
};

const JSON_OPERATOR_WORDS: Record<JsonOperator, string> = {
  equals: 'equal to',
  not_equals: 'not equal to',
  contains: 'containing',
  exists: 'present',
  greater_than: 'greater than',
  less_than: 'less than',
};

/** E.g. `status equal to "ok"`. */
function jsonQueryInWords(uptime: UptimeConfig): string {
  const operator = uptime.uptime_json_operator ?? 'equals';
  return `${uptime.uptime_json_query} ${JSON_OPERATOR_WORDS[operator]}${operator === 'exists' ? '' : ` ${JSON.stringify(uptime.uptime_json_expected ?? '')}`}`;
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
