import type { LeaseStore } from './leases.js';

/**
 * Short leases on single pieces of work, held while the work is done: two instances never make
 * the same delivery at once, even while a partition changes hands or a renewal comes too late.
 * A holder that dies mid-work leaves its claim to expire, and then the work is done again.
 */
export interface WorkClaims {
  claim(key: string): Promise<boolean>;
  release(key: string): Promise<void>;
}

/** For a single instance: nobody to race with. */
export const UNCONTESTED: WorkClaims = { claim: async () => true, release: async () => undefined };

export class LeasedClaims implements WorkClaims {
  constructor(
    private readonly leases: LeaseStore,
    private readonly prefix: string,
    private readonly holder: string,
    private readonly ttlMs: number,
    private readonly clock: () => Date,
  ) {}

  claim(key: string): Promise<boolean> {
    return this.leases.acquire(`${this.prefix}${key}`, this.holder, this.ttlMs, this.clock());
  }

  release(key: string): Promise<void> {
    return this.leases.release(`${this.prefix}${key}`, this.holder);
  }
}
