/**
 * Keeps up to `size` tasks running, starting the next one as soon as any finishes, so a slow task
 * holds up one place rather than a whole batch (and every batch queued behind it). The first
 * failure stops further starts; `settle` waits for what is still running, then throws it.
 * One caller at a time: `run` and `settle` are awaited in turn, never side by side.
 */
export class SlidingWindow {
  private running = 0;
  private failure: { error: unknown } | null = null;
  private wake: (() => void) | null = null;

  constructor(private readonly size: number) {}

  get failed(): boolean {
    return this.failure !== null;
  }

  get busy(): boolean {
    return this.running > 0;
  }

  /** Waits for a free place, then starts `task`; false, starting nothing, once a task has failed. */
  async run(task: () => Promise<void>): Promise<boolean> {
    while (this.running >= this.size && !this.failure) await this.oneFinished();
    if (this.failure) return false;
    this.running += 1;
    task()
      .catch((error: unknown) => {
        this.failure ??= { error };
      })
      .finally(() => {
        this.running -= 1;
        const wake = this.wake;
        this.wake = null;
        wake?.();
      });
    return true;
  }

  /** Waits until nothing is running; throws the first failure, if any. */
  async settle(): Promise<void> {
    while (this.running > 0) await this.oneFinished();
    if (this.failure) throw this.failure.error;
  }

  private oneFinished(): Promise<void> {
    return new Promise((resolve) => (this.wake = resolve));
  }
}
