import type { LeaseStore } from './leases.js';

/**
 * Short leases on single pieces of work, held while the work is done: two instances never make
 * the same delivery at once, even while a partition changes hands or a renewal comes too late.
 * A holder that dies mid-work leaves its claim to expire, and then the work is done again.
 */
export interface WorkClaims {
  /** Claims `key` for as long as the work may take (`workMs`), plus a margin; false if another holds it. */
  claim(key: string, workMs: number): Promise<boolean>;
  release(key: string): Promise<void>;
}

/** For a single instance: nobody to race with. */
export const UNCONTESTED: WorkClaims = { claim: async () => true, release: async () => undefined };

export class LeasedClaims implements WorkClaims {
  constructor(
    private readonly leases: LeaseStore,
    private readonly prefix: string,
    private readonly holder: string,
    /** On top of the work's own longest duration, so only a dead holder's claim ever expires. */
    private readonly marginMs: number,
    private readonly clock: () => Date,
  ) {}

  claim(key: string, workMs: number): Promise<boolean> {
    return this.leases.acquire(`${this.prefix}${key}`, this.holder, workMs + this.marginMs, this.clock());
  }

  release(key: string): Promise<void> {
    return this.leases.release(`${this.prefix}${key}`, this.holder);
  }
}
