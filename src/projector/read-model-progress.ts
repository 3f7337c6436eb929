import type { CommitSignal } from '../eventstore/commit-signal.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';
import type { ReaderDemand } from './reader-demand.js';

/** Read-your-writes: a write's answer waits until the read models include its log position. */
export interface ReadModelProgress {
  waitForPosition(position: number, timeoutMs: number): Promise<void>;
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

/**
 * For an API process whose projector runs elsewhere: polls the checkpoints in the shared
 * read-model store until every named projection has passed the position. With the projector on
 * a thread of this process, its commits signal (`commits`) and end the wait between polls.
 */
export class CheckpointPoller implements ReadModelProgress {
  private readonly intervalMs: number;
  private readonly commits: CommitSignal | null;
  private readonly demand: ReaderDemand | null;

  /** `demand`: where this process's projector thread learns that a reader waits (it then commits at once). */
  constructor(
    private readonly readModels: ReadModelStore,
    private readonly projectionNames: readonly string[],
    options: { intervalMs?: number; commits?: CommitSignal; demand?: ReaderDemand } = {},
  ) {
    this.intervalMs = options.intervalMs ?? 10;
    this.commits = options.commits ?? null;
    this.demand = options.demand ?? null;
  }

  async waitForPosition(position: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const seen = this.commits?.current() ?? 0;
    // Caught up, as after most writes: one read, and no projector told to hurry.
    const reached = await this.reached();
    if (reached >= position) return;
    const poll = () => this.poll(position, deadline, seen, reached);
    await (this.demand ? this.demand.whileWaiting(poll) : poll());
  }

  private async reached(): Promise<number> {
    const checkpoints = await this.readModels.readCheckpoints();
    return Math.min(...this.projectionNames.map((name) => checkpoints.find((c) => c.name === name)?.position ?? 0));
  }

  /** Waits for a commit (or the interval), then reads the checkpoints again, until past `position`. */
  private async poll(position: number, deadline: number, seenBefore: number, reachedBefore: number): Promise<void> {
    let seen = seenBefore;
    let reached = reachedBefore;
    while (reached < position) {
      if (Date.now() >= deadline) throw new ReadModelLagError(position, reached);
      if (this.commits) await this.commits.waitPast(seen, this.intervalMs);
      else await new Promise((resolve) => setTimeout(resolve, this.intervalMs));
      seen = this.commits?.current() ?? 0;
      reached = await this.reached();
    }
  }
}
