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
 * Writers that answer requests (the log's) go before background ones (the projector, the WAL
 * checkpointer): a writer that finds the gate held says it waits, a background writer lets every
 * such waiter go first before it takes the gate, and one inside a long transaction can see it
 * (`writerWaiting`) and end that transaction early. Without that, a ping that arrived while the
 * projector committed a batch waited out the whole batch (p50 5 ms, p99 11 ms at half of
 * bench:pings' peak), which made most of the ping's p99.
 *
 * The gate lives in a SharedArrayBuffer, so the threads of a process share it through workerData.
 */
export class WriteGate {
  private readonly cell: Int32Array;
  private readonly giveUpMs: number;
  private readonly waitForWritersMs: number;
  /** Whether this thread's writer is counted among the waiters (`holdIfFree` found the gate held). */
  private counted = false;

  constructor(
    readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(8),
    options: { giveUpMs?: number; waitForWritersMs?: number } = {},
  ) {
    if (buffer.byteLength < 8) throw new Error('a WriteGate needs 8 bytes: the lock, and the count of writers waiting for it');
    this.cell = new Int32Array(buffer);
    this.giveUpMs = options.giveUpMs ?? GIVE_UP_MS;
    this.waitForWritersMs = options.waitForWritersMs ?? WAIT_SLICE_MS;
  }

  /**
   * Runs `work` (a synchronous transaction) once no other thread of this process is writing: for
   * the log's writer, counted as waiting meanwhile, so background writers let it go first.
   */
  hold<T>(work: () => T): T {
    return this.take(work, true);
  }

  /**
   * As `hold`, for a background writer: first lets every writer that waits for the gate have it,
   * and is not itself counted as waiting. It waits for them a while at most (`waitForWritersMs`),
   * so a waiter that never comes back (a thread terminated while it waited) only slows it down.
   */
  holdAfterWaiters<T>(work: () => T): T {
    const until = Date.now() + this.waitForWritersMs;
    for (let waiting = Atomics.load(this.cell, WAITERS); this.othersAmong(waiting) > 0 && Date.now() < until; waiting = Atomics.load(this.cell, WAITERS)) {
      Atomics.wait(this.cell, WAITERS, waiting, until - Date.now());
    }
    return this.take(work, false);
  }

  /** Whether a writer waits for the gate: a background writer holding it can end its transaction early. */
  writerWaiting(): boolean {
    return this.othersAmong(Atomics.load(this.cell, WAITERS)) > 0;
  }

  /**
   * The waiters other than this thread's own writer. Where the log's writer and a background one
   * share this instance (one thread: the projector without a thread of its own), the waiting
   * writer cannot run before the background one returns, so waiting for it only blocks the thread.
   */
  private othersAmong(waiting: number): number {
    return this.counted ? waiting - 1 : waiting;
  }

  /**
   * Runs `work` if no other thread of this process is writing; `{ ran: false }` if one is, for a
   * caller that would rather wait with `whenFree` than block its event loop. A gate held since
   * `waitingSince` for longer than the give-up time counts as free, as in `hold`.
   */
  holdIfFree<T>(work: () => T, waitingSince: number = Date.now()): { ran: true; value: T } | { ran: false } {
    if (Atomics.compareExchange(this.cell, LOCK, FREE, HELD) === FREE) return { ran: true, value: this.run(work) };
    // Gone past without taking it, as in `hold`: the gate is the stuck holder's to let go.
    if (Date.now() - waitingSince >= this.giveUpMs) return { ran: true, value: this.uncounted(work) };
    this.count();
    return { ran: false };
  }

  /** Settles when the gate is let go (or at the latest after a slice), without blocking the thread. */
  async whenFree(): Promise<void> {
    const waiting = Atomics.waitAsync(this.cell, LOCK, HELD, WAIT_SLICE_MS);
    if (waiting.async) await waiting.value;
  }

  private take<T>(work: () => T, counted: boolean): T {
    const giveUpAt = Date.now() + this.giveUpMs;
    while (Atomics.compareExchange(this.cell, LOCK, FREE, HELD) !== FREE) {
      // The gate only saves sleeps; SQLite's own lock is what keeps writers apart. So a gate left
      // held (a thread terminated inside its transaction) is waited out, then gone past.
      if (Date.now() >= giveUpAt) return this.uncounted(work);
      if (counted) this.count();
      Atomics.wait(this.cell, LOCK, HELD, WAIT_SLICE_MS);
    }
    return this.run(work);
  }

  private run<T>(work: () => T): T {
    try {
      return this.uncounted(work);
    } finally {
      Atomics.store(this.cell, LOCK, FREE);
      // Every waiter: one may block its thread in `hold` and another wait in `whenFree`, and
      // waking only the second would leave the first asleep for the rest of its slice.
      Atomics.notify(this.cell, LOCK);
    }
  }

  private count(): void {
    if (this.counted) return;
    this.counted = true;
    Atomics.add(this.cell, WAITERS, 1);
  }

  /** Runs `work` no longer counted as waiting: from here on, background writers may go. */
  private uncounted<T>(work: () => T): T {
    if (this.counted) {
      this.counted = false;
      Atomics.sub(this.cell, WAITERS, 1);
      Atomics.notify(this.cell, WAITERS);
    }
    return work();
  }
}

/** The cells of the buffer: the lock itself, and how many writers wait for it. */
const LOCK = 0;
const WAITERS = 1;
const FREE = 0;
const HELD = 1;
const WAIT_SLICE_MS = 50;
/** As long as SQLite's busy timeout: a writer waiting longer than that would fail anyway. */
const GIVE_UP_MS = 5000;
