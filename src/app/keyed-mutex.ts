/**
 * Runs work for the same key one after another, and for different keys concurrently. Commands
 * to one stream queue here instead of racing to append and retrying: under a burst that turns
 * n² reads into n. Other processes can still race; expected revisions catch those.
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const tail = previous.then(() => new Promise<void>((resolve) => (release = resolve)));
    this.tails.set(key, tail);
    await previous;
    try {
      return await work();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** Keys with work queued or running; empty when idle (no leak of finished keys). */
  get size(): number {
    return this.tails.size;
  }
}
