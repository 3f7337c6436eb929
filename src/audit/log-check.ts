import type { LogVerification } from './verify-log.js';
import { WorkerClient } from './worker-client.js';
import type { CompactionLimits, CompactionPlanning } from '../eventstore/log-compaction.js';

/** What the audit page asks of the log itself: a check of its hash chain (its head is not the page's to show). */
export interface LogCheck {
  /** Walks the whole hash chain (see verify-log.ts); null where the store has none (EventStoreDB). */
  verify(): Promise<LogVerification | null>;
  close(): Promise<void>;
}

/** Where the log is EventStoreDB: it keeps no hash chain to verify. */
export function storeLogCheck(): LogCheck {
  return {
    verify: async () => null,
    close: async () => {},
  };
}

/** A request for the log check thread, numbered by its WorkerClient. */
export type LogCheckQuery = { kind: 'verify' } | { kind: 'plan-compaction'; limits: CompactionLimits };
export type LogCheckRequest = LogCheckQuery & { id: number };

/**
 * The embedded log read on a thread of its own (log-check-thread.ts), on its own read-only use of
 * the file: a verification walks every event, which would otherwise hold the thread that answers
 * requests for as long as the log is long. One verification at a time: asking again while one
 * runs gets that one's result.
 */
export class LogCheckThread implements LogCheck {
  private readonly client: WorkerClient<LogCheckQuery>;
  private running: Promise<LogVerification | null> | null = null;

  constructor(path: string) {
    this.client = new WorkerClient(import.meta.url, 'log-check-thread', { path }, 'the log check thread');
  }

  verify(): Promise<LogVerification | null> {
    this.running ??= (this.client.ask({ kind: 'verify' }) as Promise<LogVerification>).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Plans a compaction of the log (see log-compaction.ts): a walk of the whole log, kept off the thread that answers requests. */
  planCompaction(limits: CompactionLimits): Promise<CompactionPlanning> {
    return this.client.ask({ kind: 'plan-compaction', limits }) as Promise<CompactionPlanning>;
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
