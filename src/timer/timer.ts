import { BackgroundLoop } from '../app/background-loop.js';
import type { Actor } from '../app/command-handler.js';
import type { CommandContext } from '../app/context.js';
import { runMonitorCommandIfExists } from '../app/monitors.js';
import { ALL_THE_WORK, type WorkShare } from '../coordination/work-share.js';
import type { VigilMetrics } from '../metrics/vigil-metrics.js';
import type { ReadModelStore, StoredDocument } from '../readstore/read-model-store.js';
import type { DeadlineDocument } from '../../projections/deadlines.js';
import { SlidingWindow } from './sliding-window.js';

export interface TimerOptions {
  /** Deadlines read per query. */
  batchSize?: number;
  /** Longest sleep between ticks; also how soon a deadline written by another process is seen. */
  maxSleepMs?: number;
  /** Monitors expired at once: commands in flight, each started as soon as another is done. */
  concurrency?: number;
  onError?: (error: unknown) => void;
  /** Observes how late each deadline is fired. */
  metrics?: Pick<VigilMetrics, 'timerLateness'>;
  /** The monitors this instance fires for, when several timers share the work. */
  share?: WorkShare;
}

/** Due because a maintenance window that held something back ended or changed: the monitor looks at it again. */
function reviewDue(doc: DeadlineDocument, now: string): boolean {
  return Object.values(doc.suppressed ?? {}).some((held) => held.due_at <= now);
}

/**
 * What a fire is remembered by: the due time, and for a review the document's position too, since
 * a window changed twice within the same millisecond asks for a second look at the same due time.
 */
function firedMark(stored: StoredDocument<DeadlineDocument>): string {
  return reviewDue(stored.doc, stored.doc.due_at!) ? `${stored.doc.due_at!}@${stored.position}` : stored.doc.due_at!;
}

const TIMER_ACTOR: Actor = { kind: 'system', user_id: null, api_key_id: null, request_id: null };

/**
 * Turns deadlines into commands. It reads what is due from the deadlines read model (an index on
 * `due_at`, never a scan) and sends ExpireDeadlines; the monitor decides what, if anything, was
 * missed, stamped at the deadline. A fire the read model has not caught up with yet, a second
 * timer, or a ping racing the deadline all cost a no-op.
 */
export class Timer {
  private readonly batchSize: number;
  private readonly maxSleepMs: number;
  private readonly concurrency: number;
  private readonly onError: (error: unknown) => void;
  private readonly metrics: Pick<VigilMetrics, 'timerLateness'> | null;
  /** The due time last fired per monitor, so a lagging read model is not fired again and again. */
  private readonly fired = new Map<string, string>();
  private readonly loop: BackgroundLoop;
  private readonly share: WorkShare;

  constructor(
    private readonly commands: CommandContext,
    private readonly readModels: ReadModelStore,
    options: TimerOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 500;
    this.maxSleepMs = options.maxSleepMs ?? 1000;
    // A backlog (a stall, downtime, a burst of deadlines) drains faster the more misses share one
    // group commit of the log: 128 in flight measured ~20% more misses/s than 32 opening 20,000
    // incidents (bench:timer); 256 was not clearly faster and kept API requests waiting longer.
    this.concurrency = options.concurrency ?? 128;
    this.onError = options.onError ?? ((error) => console.error('timer error', error));
    this.metrics = options.metrics ?? null;
    this.share = options.share ?? ALL_THE_WORK;
    this.loop = new BackgroundLoop(() => this.tick(), () => this.msUntilNextDeadline(), this.onError);
  }

  /** Fires every deadline due by now; returns how many monitors it looked at. */
  async tick(): Promise<number> {
    const scope = await this.share.scope();
    if (!scope) return 0;
    const now = this.commands.clock().toISOString();
    // Commands to different monitors share the store's group commits, so the more in flight the
    // fewer commits per miss; a window rather than batches, so a slow one delays nobody else.
    const window = new SlidingWindow(this.concurrency);
    let sent = 0;
    try {
      for (;;) {
        const due = await this.readModels.find<DeadlineDocument>('deadlines', { ...scope, due_at: { $lte: now } }, { sort: [['due_at', 1]], limit: this.batchSize });
        const fresh = due.filter((d) => d.doc.due_at !== null && this.fired.get(d.id) !== firedMark(d));
        for (const stored of fresh) {
          const { id, doc } = stored;
          if (!(await window.run(() => this.fire(id, firedMark(stored), doc.monitor_id, now, reviewDue(doc, now))))) break;
          sent += 1;
        }
        if (window.failed || due.length < this.batchSize) break;
        if (fresh.length === 0) {
          // A page of deadlines already fired: the ones in flight, and those the read model has
          // not caught up with. Once those in flight are done the next page may hold new ones.
          if (!window.busy) break;
          await window.settle();
        }
      }
    } catch (error) {
      await window.settle().catch(() => {});
      throw error;
    }
    await window.settle();
    return sent;
  }

  private async fire(id: string, mark: string, monitorId: string, now: string, review: boolean): Promise<void> {
    this.fired.set(id, mark);
    const dueAt = mark.split('@')[0]!;
    this.metrics?.timerLateness.observe(Math.max(0, Date.parse(now) - Date.parse(dueAt)) / 1000);
    try {
      await this.expire(monitorId, now, review);
    } catch (error) {
      // Not fired after all: the next tick tries again rather than skipping it for good.
      this.fired.delete(id);
      throw error;
    }
  }

  private async expire(monitorId: string, now: string, review: boolean): Promise<void> {
    const incident_ids = { missed: this.commands.newId(), overdue: this.commands.newId(), failed: this.commands.newId() };
    await runMonitorCommandIfExists(
      this.commands,
      { type: 'ExpireDeadlines', monitor_id: monitorId, incident_ids, repage_after_seconds: this.commands.repageAfterSeconds, now, ...(review ? { review_suppressed: true } : {}) },
      TIMER_ACTOR,
    );
  }

  /** Ticks until stopped, sleeping until the next deadline (at most maxSleepMs). */
  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  private async msUntilNextDeadline(): Promise<number> {
    const scope = await this.share.scope();
    if (!scope) return this.maxSleepMs;
    const [next] = await this.readModels.find<DeadlineDocument>('deadlines', { ...scope, due_at: { $gt: this.commands.clock().toISOString() } }, { sort: [['due_at', 1]], limit: 1 });
    const ms = next?.doc.due_at ? Date.parse(next.doc.due_at) - this.commands.clock().getTime() : this.maxSleepMs;
    return Math.max(10, Math.min(ms, this.maxSleepMs));
  }
}
