import type { CommitSignal } from '../eventstore/commit-signal.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';

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

  constructor(
    private readonly readModels: ReadModelStore,
    private readonly projectionNames: readonly string[],
    options: { intervalMs?: number; commits?: CommitSignal } = {},
  ) {
    this.intervalMs = options.intervalMs ?? 10;
    this.commits = options.commits ?? null;
  }

  async waitForPosition(position: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const seen = this.commits?.current() ?? 0;
      const checkpoints = await this.readModels.readCheckpoints();
      const reached = Math.min(
        ...this.projectionNames.map((name) => checkpoints.find((c) => c.name === name)?.position ?? 0),
      );
      if (reached >= position) return;
      if (Date.now() >= deadline) throw new ReadModelLagError(position, reached);
      if (this.commits) await this.commits.waitPast(seen, this.intervalMs);
      else await new Promise((resolve) => setTimeout(resolve, this.intervalMs));
    }
  }
}
