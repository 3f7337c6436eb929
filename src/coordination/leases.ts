/**
 * The lease port: named, time-limited claims that the store arbitrates. Whoever holds a live
 * lease on a name is the only one meant to do the work it names; a holder that dies simply stops
 * renewing, and once the lease has expired anyone may take it. Time is the caller's (`now`), so
 * the holders' clocks must agree to well within a lease's time to live.
 */
export interface LeaseStore {
  /**
   * Takes `name` for `holder` until `now + ttlMs` if it is free, expired or already the holder's
   * (a renewal). Returns false, changing nothing, while someone else holds it.
   */
  acquire(name: string, holder: string, ttlMs: number, now: Date): Promise<boolean>;
  /** Gives `name` up if `holder` still has it; a lease taken over since is left alone. */
  release(name: string, holder: string): Promise<void>;
  /** The live leases whose names start with `prefix`, by name. */
  holders(prefix: string, now: Date): Promise<Lease[]>;
  /** Forgets leases that expired before `now` (dead holders' leftovers); they were free already. */
  purgeExpired(now: Date): Promise<void>;
  close(): Promise<void>;
}

export interface Lease {
  name: string;
  holder: string;
  expiresAt: Date;
}
