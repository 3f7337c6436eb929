import type { CommitSignal } from '../eventstore/commit-signal.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';
import type { ReaderDemand } from './reader-demand.js';

/** Read-your-writes: a write's answer waits until the read models include its log position. */
export interface ReadModelProgress {
  waitForPosition(position: number, timeoutMs: number): Promise<void>;
  /** Everything up to this log position is in the read models. */
  committedPosition(): Promise<number>;
}

export class ReadModelLagError extends Error {
  constructor(
    readonly wanted: number,
    readonly reached: number,
  ) {
    super(`read models reached log position ${reached}, not yet ${wanted}`);
    this.name = 'ReadModelLagError';
  }
}

interface Waiter {
  position: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * For an API process whose projector runs elsewhere: reads the checkpoints in the shared
 * read-model store until every named projection has passed the position. With the projector on
 * a thread of this process, its commits signal (`commits`) and end the wait at once: the reads in
 * between are only a fallback. From another process nothing signals, so it polls, backing off
 * (each read waits twice as long as the one before, up to `maxIntervalMs`) for as long as readers
 * wait; one read a round serves every reader of this process that waits, however many there are.
 */
export class CheckpointPoller implements ReadModelProgress {
  private readonly intervalMs: number;
  private readonly maxIntervalMs: number;
  private readonly commits: CommitSignal | null;
  private readonly demand: ReaderDemand | null;
  private waiters: Waiter[] = [];
  private polling = false;
  private lastReached = 0;

  /** `demand`: where this process's projector thread learns that a reader waits (it then commits at once). */
  constructor(
    private readonly readModels: ReadModelStore,
    private readonly projectionNames: readonly string[],
    options: { intervalMs?: number; maxIntervalMs?: number; commits?: CommitSignal; demand?: ReaderDemand } = {},
  ) {
    this.intervalMs = options.intervalMs ?? 10;
    this.maxIntervalMs = Math.max(this.intervalMs, options.maxIntervalMs ?? 50);
    this.commits = options.commits ?? null;
    this.demand = options.demand ?? null;
  }

  async waitForPosition(position: number, timeoutMs: number): Promise<void> {
    // Caught up, as after most writes: one read, and no projector told to hurry.
    if ((await this.committedPosition()) >= position) return;
    const wait = () => this.enqueue(position, timeoutMs);
    await (this.demand ? this.demand.whileWaiting(wait) : wait());
  }

  async committedPosition(): Promise<number> {
    const checkpoints = await this.readModels.readCheckpoints();
    const reached = Math.min(...this.projectionNames.map((name) => checkpoints.find((c) => c.name === name)?.position ?? 0));
    this.lastReached = Math.max(this.lastReached, reached);
    return reached;
  }

  private enqueue(position: number, timeoutMs: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new ReadModelLagError(position, this.lastReached));
      }, timeoutMs);
      const waiter: Waiter = {
        position,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      this.waiters.push(waiter);
      if (!this.polling) void this.poll();
    });
  }

  /** Reads the checkpoints, settles whoever they satisfy, then sleeps until a commit or the interval; while anyone waits. */
  private async poll(): Promise<void> {
    this.polling = true;
    let interval = this.intervalMs;
    try {
      while (this.waiters.length > 0) {
        // Read before the checkpoints, so a commit between the read and the sleep is not slept through.
        const seen = this.commits?.current() ?? 0;
        const reached = await this.committedPosition();
        const ready = this.waiters.filter((w) => w.position <= reached);
        this.waiters = this.waiters.filter((w) => w.position > reached);
        for (const waiter of ready) waiter.resolve();
        if (this.waiters.length === 0) break;
        if (this.commits) await this.commits.waitPast(seen, interval);
        else await new Promise((resolve) => setTimeout(resolve, interval));
        interval = Math.min(interval * 2, this.maxIntervalMs);
      }
    } catch (error) {
      const failed = this.waiters;
      this.waiters = [];
      for (const waiter of failed) waiter.reject(error);
    } finally {
      this.polling = false;
    }
  }
}
