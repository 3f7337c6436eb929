import type { EventStore } from '../eventstore/event-store.js';
import { type ProjectionIdentity, committedPosition, lagBehind } from '../projector/read-model-lag.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';

export type CheckResult = { ok: true; [detail: string]: number | boolean } | { ok: false; error: string };

export interface ReadinessReport {
  ready: boolean;
  checks: { event_store: CheckResult; read_store: CheckResult; projector: CheckResult };
}

export interface ReadinessSources {
  events: EventStore;
  readModels: ReadModelStore;
  projections: readonly ProjectionIdentity[];
  /** More than this many log positions behind, and the read models are too stale to serve. */
  maxLagEvents: number;
  /** A store that takes longer than this is as good as down for a probe. */
  timeoutMs: number;
  onError: (check: string, error: unknown) => void;
}

/**
 * Can this process serve? Each store answers its cheapest query (the log's head, the
 * checkpoints), and the read models are within the lag bound. The error named in a failed check
 * stays generic, as the endpoint is unauthenticated; the cause goes to the log.
 */
export async function checkReadiness(sources: ReadinessSources): Promise<ReadinessReport> {
  const [head, committed] = await Promise.all([
    answered('event_store', () => sources.events.headPosition(), sources),
    answered('read_store', () => committedPosition(sources.readModels, sources.projections), sources),
  ]);
  const lag = typeof head === 'number' && typeof committed === 'number' ? lagBehind(head, committed) : null;
  const projector: CheckResult =
    lag === null
      ? { ok: false, error: 'lag unknown while a store does not answer' }
      : lag <= sources.maxLagEvents
        ? { ok: true, lag_events: lag, max_lag_events: sources.maxLagEvents }
        : { ok: false, error: `read models are ${lag} events behind the log, more than ${sources.maxLagEvents}` };
  const checks = {
    event_store: typeof head === 'number' ? { ok: true as const, head_position: head } : head,
    read_store: typeof committed === 'number' ? { ok: true as const, committed_position: committed } : committed,
    projector,
  };
  return { ready: checks.event_store.ok && checks.read_store.ok && projector.ok, checks };
}

async function answered(check: string, query: () => Promise<number>, sources: ReadinessSources): Promise<number | { ok: false; error: string }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<{ ok: false; error: string }>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, error: `did not answer within ${sources.timeoutMs} ms` }), sources.timeoutMs);
  });
  try {
    return await Promise.race([
      query().catch((error: unknown) => {
        sources.onError(check, error);
        return { ok: false as const, error: 'query failed' };
      }),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
