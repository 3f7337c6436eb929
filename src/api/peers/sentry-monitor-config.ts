import type { MonitorConfig } from '../../domain/monitors/monitor-config.js';
import type { MonitorPatch } from '../../domain/monitors/monitor-commands.js';
import { UpdateMonitorBody } from '../../web/codecs/monitors.js';
import { HttpError } from '../../web/errors.js';
import { patchFromUpdate } from '../../web/monitor-input.js';
import { decode } from '../../web/validation.js';

/**
 * A check-in's `monitor_config` (what `Sentry.withMonitor(slug, fn, config)` sends) as Vigil's
 * monitor settings, through the codec `PATCH /v1/monitors/<id>` decodes, so a bad value is refused
 * as the API refuses it:
 *   schedule crontab → JOB_CRON, with `timezone`; schedule interval value+unit → JOB_HEARTBEAT
 *   checkin_margin (minutes) → grace_period_seconds; max_runtime (minutes) → max_duration_seconds
 *   failure_issue_threshold → failure_tolerance and schedule_tolerance (Sentry counts a missed
 *   check-in as a failed one)
 *   recovery_threshold: only 1, what Vigil does (a monitor recovers on its first success).
 * Only the fields sent are set: what is left out keeps what the monitor has.
 */
export interface SentryMonitorSettings {
  type: 'JOB_CRON' | 'JOB_HEARTBEAT';
  patch: MonitorPatch;
}

const INTERVAL_UNITS: Record<string, string> = { minute: 'm', hour: 'h', day: 'd', week: 'w' };

export function sentryMonitorSettings(given: unknown): SentryMonitorSettings {
  if (!isRecord(given)) throw refused('monitor_config must be an object');
  const schedule = given['schedule'];
  if (!isRecord(schedule)) throw refused('monitor_config.schedule is required: { "type": "crontab", "value": "0 * * * *" } or { "type": "interval", "value": 1, "unit": "hour" }');
  const { type: scheduleType, value, unit } = schedule;
  const fields: Record<string, unknown> = {};
  let type: SentryMonitorSettings['type'];
  if (scheduleType === 'crontab') {
    type = 'JOB_CRON';
    fields['schedule'] = value;
  } else if (scheduleType === 'interval') {
    type = 'JOB_HEARTBEAT';
    const suffix = typeof unit === 'string' ? INTERVAL_UNITS[unit] : undefined;
    if (suffix === undefined) {
      throw refused(`monitor_config.schedule.unit ${JSON.stringify(unit)} is not supported: Vigil's heartbeat periods are minute, hour, day or week (a month or a year has no fixed length)`);
    }
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw refused('monitor_config.schedule.value must be a whole number of at least 1');
    fields['schedule'] = `${value}${suffix}`;
  } else throw refused('monitor_config.schedule.type must be crontab or interval');
  const present = (key: string) => given[key] !== undefined && given[key] !== null;
  if (present('timezone')) fields['timezone'] = given['timezone'];
  if (present('checkin_margin')) fields['grace_period_seconds'] = minutes(given['checkin_margin']);
  if (present('max_runtime')) fields['max_duration_seconds'] = minutes(given['max_runtime']);
  if (present('failure_issue_threshold')) {
    fields['failure_tolerance'] = given['failure_issue_threshold'];
    fields['schedule_tolerance'] = given['failure_issue_threshold'];
  }
  if (present('recovery_threshold') && given['recovery_threshold'] !== 1) {
    throw refused(`monitor_config.recovery_threshold ${JSON.stringify(given['recovery_threshold'])} is not supported: a Vigil monitor recovers on its first successful check-in; send 1 or leave it out`);
  }
  const body = decode(UpdateMonitorBody, fields, 'monitor_config', 'monitor_config ');
  return { type, patch: patchFromUpdate(body, type) };
}

/** The settings of a monitor created from a check-in: the project's defaults, then what the check-in says. */
export function configuredFrom(settings: SentryMonitorSettings): (base: MonitorConfig) => MonitorConfig {
  const { uptime: _uptime, tcp: _tcp, dns: _dns, ...patch } = settings.patch;
  return (base) => ({ ...base, ...patch, type: settings.type });
}

/** Whether the patch changes anything the monitor has: a check-in repeating its config records nothing. */
export function changes(patch: MonitorPatch, current: MonitorConfig): boolean {
  const have: Record<string, unknown> = { ...current };
  return Object.entries(patch).some(([key, value]) => JSON.stringify(value) !== JSON.stringify(have[key]));
}

function minutes(value: unknown): unknown {
  // Left for the codec to refuse, naming the field, when it is not a number.
  return typeof value === 'number' ? Math.round(value * 60) : value;
}

const refused = (message: string) => new HttpError(400, message);

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
