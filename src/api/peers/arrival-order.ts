/**
 * Requests being answered in this process, by order of arrival, for one that must let those that
 * arrived before it finish first (a Sentry check-in naming a monitor that an earlier envelope may
 * be creating). Numbers in a Set, not a map of the answers' promises: nearly every request leaves
 * as soon as it is parsed, and costs an add and a delete rather than a promise and a callback.
 */
export class ArrivalOrder {
  private last = 0;
  /** Iterated in insertion order, which is arrival order: the first is the earliest still here. */
  private readonly present = new Set<number>();
  private waiting: { arrival: number; wake: () => void }[] = [];

  arrive(): number {
    const arrival = ++this.last;
    this.present.add(arrival);
    return arrival;
  }

  /** Done, or known to be of no concern to those after it; leaving twice is leaving once. */
  leave(arrival: number): void {
    if (!this.present.delete(arrival) || this.waiting.length === 0) return;
    this.waiting = this.waiting.filter((waiter) => {
      const stillWaiting = this.anyBefore(waiter.arrival);
      if (!stillWaiting) waiter.wake();
      return stillWaiting;
    });
  }

  /**
   * Once every request that arrived before `arrival` has left, or `timeoutMs` has passed: true
   * where there were any to wait for.
   */
  async earlierLeft(arrival: number, timeoutMs: number): Promise<boolean> {
    if (!this.anyBefore(arrival)) return false;
    let timer: NodeJS.Timeout | undefined;
    let waiter: { arrival: number; wake: () => void } | undefined;
    await new Promise<void>((resolve) => {
      waiter = { arrival, wake: resolve };
      this.waiting.push(waiter);
      timer = setTimeout(resolve, timeoutMs);
    });
    clearTimeout(timer);
    this.waiting = this.waiting.filter((other) => other !== waiter);
    return true;
  }

  /** Requests still here, for tests: none once every one has left. */
  get size(): number {
    return this.present.size;
  }

  private anyBefore(arrival: number): boolean {
    for (const earliest of this.present) return earliest < arrival;
    return false;
  }
}
