/**
 * One writing transaction at a time among the SQLite connections of one process (the log's writer
 * and the projector's, each on a thread of its own), handed over the moment it is released.
 *
 * SQLite arbitrates writers itself, but a connection that finds the file locked sleeps in steps of
 * 1, 2, 5, 10, 15… ms before it tries again: with a projector committing beside a stream of pings,
 * the log's commits kept landing in those sleeps, and every ping in the group waited them out
 * (bench:pings measured ~1.5 ms per commit before BEGIN got its lock). Waiting here instead wakes
 * the next writer as soon as the last one commits. Other processes on the same file (the CLI, extra
 * roles) are still arbitrated by SQLite's busy timeout.
 *
 * The gate lives in a SharedArrayBuffer, so the threads of a process share it through workerData.
 */
export class WriteGate {
  private readonly cell: Int32Array;
  private readonly giveUpMs: number;

  constructor(
    readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(4),
    options: { giveUpMs?: number } = {},
  ) {
    this.cell = new Int32Array(buffer);
    this.giveUpMs = options.giveUpMs ?? GIVE_UP_MS;
  }

  /** Runs `work` (a synchronous transaction) once no other thread of this process is writing. */
  hold<T>(work: () => T): T {
    const giveUpAt = Date.now() + this.giveUpMs;
    while (Atomics.compareExchange(this.cell, 0, FREE, HELD) !== FREE) {
      // The gate only saves sleeps; SQLite's own lock is what keeps writers apart. So a gate left
      // held (a thread terminated inside its transaction) is waited out, then gone past.
      if (Date.now() >= giveUpAt) return work();
      Atomics.wait(this.cell, 0, HELD, WAIT_SLICE_MS);
    }
    return this.run(work);
  }

  /**
   * Runs `work` if no other thread of this process is writing; `{ ran: false }` if one is, for a
   * caller that would rather wait with `whenFree` than block its event loop. A gate held since
   * `waitingSince` for longer than the give-up time counts as free, as in `hold`.
   */
  holdIfFree<T>(work: () => T, waitingSince: number = Date.now()): { ran: true; value: T } | { ran: false } {
    if (Atomics.compareExchange(this.cell, 0, FREE, HELD) === FREE) return { ran: true, value: this.run(work) };
    // Gone past without taking it, as in `hold`: the gate is the stuck holder's to let go.
    return Date.now() - waitingSince >= this.giveUpMs ? { ran: true, value: work() } : { ran: false };
  }

  /** Settles when the gate is let go (or at the latest after a slice), without blocking the thread. */
  async whenFree(): Promise<void> {
    const waiting = Atomics.waitAsync(this.cell, 0, HELD, WAIT_SLICE_MS);
    if (waiting.async) await waiting.value;
  }

  private run<T>(work: () => T): T {
    try {
      return work();
    } finally {
      Atomics.store(this.cell, 0, FREE);
      // Every waiter: one may block its thread in `hold` and another wait in `whenFree`, and
      // waking only the second would leave the first asleep for the rest of its slice.
      Atomics.notify(this.cell, 0);
    }
  }
}

const FREE = 0;
const HELD = 1;
const WAIT_SLICE_MS = 50;
/** As long as SQLite's busy timeout: a writer waiting longer than that would fail anyway. */
const GIVE_UP_MS = 5000;
