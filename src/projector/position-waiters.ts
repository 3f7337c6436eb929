import { ReadModelLagError } from './read-model-progress.js';

/** The readers of this thread waiting for the read models to reach a log position. */
export class PositionWaiters {
  private waiters: { position: number; resolve: () => void }[] = [];

  get any(): boolean {
    return this.waiters.length > 0;
  }

  /** Settles once `release` reaches `position`; after `timeoutMs` fails with how far `committed` got. */
  wait(position: number, timeoutMs: number, committed: () => number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new ReadModelLagError(position, committed()));
      }, timeoutMs);
      const waiter = {
        position,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      this.waiters.push(waiter);
    });
  }

  /** Everything up to `position` is committed: the readers waiting for it go on. */
  release(position: number): void {
    const ready = this.waiters.filter((w) => w.position <= position);
    this.waiters = this.waiters.filter((w) => w.position > position);
    for (const waiter of ready) waiter.resolve();
  }
}
