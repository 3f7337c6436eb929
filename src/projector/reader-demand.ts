/**
 * Tells a projector on another thread of this process that a reader is waiting for it to commit
 * (a GET waiting for read-your-writes), so that it commits what it holds now instead of letting
 * its batch grow (see ProjectorOptions.lingerMs). A count of waiting readers in a
 * SharedArrayBuffer, so it crosses to a worker thread through workerData.
 */
export class ReaderDemand {
  private readonly cell: Int32Array;

  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT)) {
    this.cell = new Int32Array(buffer);
  }

  /** Counts the caller as waiting while `wait` runs, waking a projector that lingers. */
  async whileWaiting<T>(wait: () => Promise<T>): Promise<T> {
    Atomics.add(this.cell, 0, 1);
    Atomics.notify(this.cell, 0);
    try {
      return await wait();
    } finally {
      Atomics.sub(this.cell, 0, 1);
    }
  }

  waiting(): boolean {
    return Atomics.load(this.cell, 0) > 0;
  }

  /** Settles once a reader starts waiting (at once if one is), or after `timeoutMs`. */
  async whenWanted(timeoutMs: number): Promise<void> {
    const waiting = Atomics.waitAsync(this.cell, 0, 0, timeoutMs);
    if (waiting.async) await waiting.value;
  }
}
