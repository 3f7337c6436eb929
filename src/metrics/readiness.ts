import type { EventStore } from '../eventstore/event-store.js';
import type { WriteHealth } from '../eventstore/storage-fault.js';
import { type ProjectionIdentity, type ReadModelLag, committedPosition, lagAfter } from '../projector/read-model-lag.js';
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
  /**
   * More than this many events behind the log, and the read models are too stale to serve (where
   * the log counts them); null, the default, bounds their lag in time only: a burst of pings puts
   * thousands of events between the log and the read models for a few seconds, and a process that
   * took them all in time is no less able to serve.
   */
  maxLagEvents: number | null;
  /** An event the read models lack recorded longer ago than this, and they are too stale to serve. */
  maxLagSeconds: number;
  clock: () => Date;
  /** A store that takes longer than this is as good as down for a probe. */
  timeoutMs: number;
  onError: (check: string, error: unknown) => void;
}

/**
 * Can this process serve? Each store answers its cheapest query (the log's head, the
 * checkpoints), the log can commit, and the read models are within the lag bound. The error named
 * in a failed check stays generic, as the endpoint is unauthenticated (the cause goes to the log),
 * except for a disk that refuses the log's commits: that it is full is what the operator needs to
 * read there, and it tells nothing about the data.
 */
export async function checkReadiness(sources: ReadinessSources): Promise<ReadinessReport> {
  const [head, committed, writable] = await Promise.all([
    answered('event_store', () => sources.events.headPosition(), sources),
    answered('read_store', () => committedPosition(sources.readModels, sources.projections), sources),
    answered('event_store', () => sources.events.writeHealth(), sources),
  ]);
  // Counted no further than one past the bound: enough to judge, and the count's cost stays bounded.
  const lag =
    typeof committed === 'number'
      ? await answered('event_store', () => lagAfter(sources.events, committed, { clock: sources.clock, countUpTo: sources.maxLagEvents === null ? null : sources.maxLagEvents + 1 }), sources)
      : null;
  const checks = {
    event_store: eventStoreCheck(head, writable),
    read_store: typeof committed === 'number' ? { ok: true as const, committed_position: committed } : committed,
    projector: projectorCheck(lag, sources),
  };
  return { ready: checks.event_store.ok && checks.read_store.ok && checks.projector.ok, checks };
}

/**
 * Within both bounds: events, where one is set and the log counts them (not EventStoreDB's), and
 * the age of the oldest event not yet projected, which every store can tell from one event.
 */
function projectorCheck(lag: ReadModelLag | Failed | null, sources: ReadinessSources): CheckResult {
  if (lag === null || 'ok' in lag) return { ok: false, error: 'lag unknown while a store does not answer' };
  const seconds = Math.round(lag.seconds * 1000) / 1000;
  if (sources.maxLagEvents !== null && lag.events !== null && lag.events > sources.maxLagEvents) {
    return { ok: false, error: `read models are more than ${sources.maxLagEvents} events behind the log` };
  }
  if (seconds > sources.maxLagSeconds) {
    return { ok: false, error: `read models lack an event recorded ${seconds} s ago, more than ${sources.maxLagSeconds} s` };
  }
  return {
    ok: true,
    ...(sources.maxLagEvents !== null && lag.events !== null ? { lag_events: lag.events, max_lag_events: sources.maxLagEvents } : {}),
    lag_seconds: seconds,
    max_lag_seconds: sources.maxLagSeconds,
  };
}

/** The log answers its head, and takes commits (a disk that refuses them says why, and since when). */
function eventStoreCheck(head: number | Failed, writable: WriteHealth | Failed): CheckResult {
  if (typeof head !== 'number') return head;
  if (!writable.ok) return 'since' in writable ? { ok: false, error: `${writable.error} since ${writable.since}` } : writable;
  return { ok: true, head_position: head };
}

type Failed = { ok: false; error: string };

async function answered<T>(check: string, query: () => Promise<T>, sources: ReadinessSources): Promise<T | Failed> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Failed>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, error: `did not answer within ${sources.timeoutMs} ms` }), sources.timeoutMs);
  });
  try {
    return await Promise.race([
      query().catch((error: unknown): Failed => {
        sources.onError(check, error);
        return { ok: false, error: 'query failed' };
      }),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
