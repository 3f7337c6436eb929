/**
 * Tells the other threads of this process that a writer committed: the log's writer, so the
 * projector's thread reads the new events now rather than at its next poll (every 100 ms, which
 * every GET waiting for read-your-writes waited out too); the projector's, so the API's thread
 * sees the checkpoint move at once. A count in a SharedArrayBuffer, bumped on each commit; waiters
 * note the count, look for work, and sleep until it moves. Polling stays, for other processes.
 */
export class CommitSignal {
  private readonly cell: Int32Array;

  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT)) {
    this.cell = new Int32Array(buffer);
  }

  /** After a commit: wakes every thread waiting past the count before it. */
  committed(): void {
    Atomics.add(this.cell, 0, 1);
    Atomics.notify(this.cell, 0);
  }

  /** The count to wait past: read it before looking for work, so a commit in between is not missed. */
  current(): number {
    return Atomics.load(this.cell, 0);
  }

  /** Resolves once the count is past `seen` (at once if it already is), or after `timeoutMs`. */
  async waitPast(seen: number, timeoutMs: number): Promise<void> {
    const waiting = Atomics.waitAsync(this.cell, 0, seen, timeoutMs);
    if (waiting.async) await waiting.value;
  }
}
