import type { ReadModelStore } from '../readstore/read-model-store.js';
import type { CheckHourDocument } from '../../projections/check-results.js';

export interface UptimeStats {
  avg_ms: number | null;
  min_ms: number | null;
  max_ms: number | null;
  p95_ms: number | null;
  total_checks: number;
  up_count: number;
  down_count: number;
  uptime_percentage: number | null;
}

/** From the start of the hour `periodHours` back: stats are kept by the hour. */
export function periodStart(now: Date, periodHours: number): string {
  const from = new Date(now.getTime() - periodHours * 3_600_000);
  return `${from.toISOString().slice(0, 13)}:00:00.000Z`;
}

export function summarize(hours: readonly CheckHourDocument[]): UptimeStats {
  const times = hours.flatMap((h) => h.times).sort((a, b) => a - b);
  const total = hours.reduce((n, h) => n + h.total, 0);
  const up = hours.reduce((n, h) => n + h.up, 0);
  return {
    avg_ms: times.length > 0 ? Math.round(times.reduce((a, b) => a + b, 0) / times.length) : null,
    min_ms: times[0] ?? null,
    max_ms: times.at(-1) ?? null,
    p95_ms: times.length > 0 ? times[Math.ceil(0.95 * times.length) - 1]! : null,
    total_checks: total,
    up_count: up,
    down_count: total - up,
    uptime_percentage: total > 0 ? Math.round((up / total) * 10_000) / 100 : null,
  };
}

export async function checkHours(readModels: ReadModelStore, filter: { monitor_id: string } | { project_id: string }, from: string): Promise<CheckHourDocument[]> {
  return (await readModels.find<CheckHourDocument>('check_hours', { ...filter, hour: { $gte: from } })).map((s) => s.doc);
}
