import type { MonitorDocument } from '../../projections/monitors.js';
import type { PingRecord } from './pings.js';
import { isUptimeType, parseInterval } from '../domain/monitors/schedule.js';
import { Cron } from 'croner';

export interface Warning {
  type: string;
  message: string;
  affected_count: number;
  recommendation: string;
}

export const WARNING_WINDOW_DAYS = 7;
export const WARNING_MAX_PINGS = 50;

/**
 * Wiring mistakes that make a monitor look healthy while it cannot detect anything, read off its
 * recent pings (newest first). Each rule says what it saw, how often, and what to change.
 */
export function monitorWarnings(monitor: MonitorDocument, pings: readonly PingRecord[], now: string): Warning[] {
  const warnings: Warning[] = [];
  const chronological = [...pings].reverse();
  const starts = chronological.filter((p) => p.event === 'START');
  const completions = chronological.filter((p) => p.event === 'SUCCESS' || p.event === 'FAILURE');

  const withoutRunId = [...starts, ...completions].filter((p) => p.run_id === null);
  if (starts.length > 0 && withoutRunId.length > 0) {
    warnings.push({
      type: 'MISSING_RUN_ID',
      message: `${withoutRunId.length === 1 ? '1 START or completion ping carries' : `${withoutRunId.length} START or completion pings carry`} no run_id, so overlapping runs cannot be told apart and durations may pair the wrong START.`,
      affected_count: withoutRunId.length,
      recommendation: 'Send the same run_id (?run_id=...) on the START and on its SUCCESS or FAILURE ping; `vigil exec` does this for you.',
    });
  }

  const durationsWanted = monitor.min_duration_seconds !== null || monitor.max_duration_seconds !== null;
  const unmeasured = completions.filter((p) => p.duration_ms === null);
  if (durationsWanted && starts.length === 0 && unmeasured.length > 0) {
    warnings.push({
      type: 'MISSING_START',
      message: `Duration limits are set, but no START ping arrived, so ${unmeasured.length === 1 ? '1 run' : `${unmeasured.length} runs`} could not be measured.`,
      affected_count: unmeasured.length,
      recommendation: 'Send a START ping (/start) when the job begins, or pass duration_ms on the completion ping.',
    });
  }

  const closed = new Set(completions.map((p) => p.started_at));
  const graceMs = (monitor.max_duration_seconds ?? 3600) * 1000;
  const unfinished = starts.filter((p) => !closed.has(p.created_at) && Date.parse(now) - Date.parse(p.created_at) > graceMs);
  if (unfinished.length > 0) {
    warnings.push({
      type: 'UNFINISHED_RUNS',
      message: `${unfinished.length === 1 ? '1 run' : `${unfinished.length} runs`} sent START but never reported SUCCESS or FAILURE.`,
      affected_count: unfinished.length,
      recommendation: 'Make sure the job pings /success or /fail on every exit path (a shell trap, a finally block, or `vigil exec`).',
    });
  }

  const expectedMs = expectedIntervalMs(monitor);
  const checkins = chronological.filter((p) => p.event !== 'LOG');
  if (expectedMs !== null && checkins.length >= 5) {
    const gaps = checkins.slice(1).map((p, i) => Date.parse(p.created_at) - Date.parse(checkins[i]!.created_at)).sort((a, b) => a - b);
    const median = gaps[Math.floor(gaps.length / 2)]!;
    if (median < expectedMs / 4) {
      warnings.push({
        type: 'PINGS_TOO_FREQUENT',
        message: `Pings arrive about every ${Math.round(median / 1000)} s, far more often than the schedule expects (every ${Math.round(expectedMs / 1000)} s).`,
        affected_count: checkins.length,
        recommendation: 'Check that the ping is sent once per run, not from a loop or a health check, and that the schedule matches how often the job runs.',
      });
    }
  }

  if (monitor.type !== 'JOB_BASIC' && pings.length > 0 && checkins.length === 0) {
    warnings.push({
      type: 'ONLY_LOG_PINGS',
      message: `${pings.length === 1 ? 'The one recent ping is a LOG ping' : `All ${pings.length} recent pings are LOG pings`}, which record output but never count as a check-in.`,
      affected_count: pings.length,
      recommendation: 'Ping /success (or the bare ping URL) when the job completes; keep /log for extra output.',
    });
  }
  return warnings;
}

function expectedIntervalMs(monitor: MonitorDocument): number | null {
  if (monitor.type === 'JOB_HEARTBEAT' || isUptimeType(monitor.type)) return parseInterval(monitor.schedule);
  if (monitor.type !== 'JOB_CRON') return null;
  try {
    const cron = new Cron(monitor.schedule, { timezone: monitor.timezone, paused: true });
    const [first, second] = cron.nextRuns(2, new Date(monitor.created_at));
    return first && second ? second.getTime() - first.getTime() : null;
  } catch {
    return null;
  }
}
