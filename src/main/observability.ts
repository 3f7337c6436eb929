import { Registry, collectDefaultMetrics } from 'prom-client';
import type { Logger } from '../web/logger.js';
import { type ReadinessReport, checkReadiness } from '../metrics/readiness.js';
import { type MonitorStatus, type VigilMetrics, createVigilMetrics } from '../metrics/vigil-metrics.js';
import { type ProjectionIdentity, readModelLag } from '../projector/read-model-lag.js';
import type { Stores } from './stores.js';

/** A probe that waits longer than this for a store reports it down rather than hanging the probe. */
const READINESS_TIMEOUT_MS = 2000;
/** How far /metrics counts the events the read models lack: a count is a scan, and past this, the number matters less than that it is large. */
const LAG_COUNT_LIMIT = 100_000;

export interface Observability {
  metrics: VigilMetrics;
  readiness: () => Promise<ReadinessReport>;
}

/**
 * This RunningVigil's own registry and readiness probe. Gauges are read from the shared stores at
 * scrape time, so any process reports the same monitors and lag. Node's process metrics (CPU,
 * memory, event loop, GC) start timers and observers that are never released: right once per
 * server process, a leak in a test run that starts hundreds of Vigils, which turns them off.
 */
export function observability(
  stores: Stores,
  projections: readonly ProjectionIdentity[],
  options: { processMetrics: boolean; readyMaxLagEvents: number | null; readyMaxLagSeconds: number; clock: () => Date; logger: Logger },
): Observability {
  const registry = new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry });
  const metrics = createVigilMetrics(registry, {
    monitorsByStatus: async () => {
      const count = (status: MonitorStatus) => stores.readModels.count('monitors', { status });
      const [up, down, paused] = await Promise.all([count('UP'), count('DOWN'), count('PAUSED')]);
      return { UP: up, DOWN: down, PAUSED: paused };
    },
    projectorLag: () => readModelLag(stores.events, stores.readModels, projections, { clock: options.clock, countUpTo: LAG_COUNT_LIMIT }),
  });
  const readiness = () =>
    checkReadiness({
      events: stores.events,
      readModels: stores.readModels,
      projections,
      maxLagEvents: options.readyMaxLagEvents,
      maxLagSeconds: options.readyMaxLagSeconds,
      clock: options.clock,
      timeoutMs: READINESS_TIMEOUT_MS,
      onError: (check, error) => options.logger.warn({ err: error, check }, 'readiness check failed'),
    });
  return { metrics, readiness };
}
