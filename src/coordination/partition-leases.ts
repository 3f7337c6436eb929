import { BackgroundLoop } from '../app/background-loop.js';
import type { Filter } from '../readstore/read-model-store.js';
import type { LeaseStore } from './leases.js';
import { slotsOfPartition } from './partitions.js';
import type { WorkShare } from './work-share.js';

export interface PartitionLeasesOptions {
  /** How long a lease lives unrenewed: how soon a dead instance's partitions are taken over. */
  ttlMs: number;
  partitions: number;
  clock: () => Date;
  onError?: (error: unknown) => void;
}

/**
 * One role instance's share of the partitions. Every instance of a role keeps a membership lease
 * alive, and partition p is meant for the (p mod n)-th of the n live members in holder order, so
 * the members agree on a fair split without talking to each other. An instance works only on the
 * partitions whose leases it holds: it takes the ones meant for it (once their previous holder has
 * let go or died) and lets go of the ones that are not (when a member joins). A dead instance's
 * membership and partitions expire together after the ttl, and the survivors take them over, so no
 * work is done twice and none is dropped for longer than the ttl.
 *
 * Leases are renewed every ttl/3 in the background, and before handing out a scope when the last
 * renewal is that old by the injected clock (so tests that drive time by hand renew by ticking).
 * The partition count is part of the lease names: instances configured differently see no one to
 * share with and all work everything, which duplicates work rather than dropping any.
 */
export class PartitionLeases implements WorkShare {
  /** Partition → when its lease runs out by our clock, unless renewed. */
  private readonly held = new Map<number, number>();
  private lastRefreshAt = Number.NEGATIVE_INFINITY;
  private refreshing: Promise<void> | null = null;
  private readonly loop: BackgroundLoop;
  private readonly prefix: string;
  private readonly onError: (error: unknown) => void;

  constructor(
    private readonly leases: LeaseStore,
    readonly role: string,
    readonly holder: string,
    private readonly options: PartitionLeasesOptions,
  ) {
    this.prefix = `${role}/${options.partitions}/`;
    this.onError = options.onError ?? ((error) => console.error(`${role} leases`, error));
    this.loop = new BackgroundLoop(() => this.refresh(), () => this.renewEveryMs, this.onError);
  }

  private get renewEveryMs(): number {
    return Math.max(1, Math.floor(this.options.ttlMs / 3));
  }

  /** The partitions this instance holds now, in order. */
  owned(): number[] {
    const now = this.options.clock().getTime();
    return [...this.held.entries()].filter(([, until]) => until > now).map(([partition]) => partition).sort((a, b) => a - b);
  }

  async scope(): Promise<Filter | null> {
    if (this.options.clock().getTime() - this.lastRefreshAt >= this.renewEveryMs) await this.refresh();
    const owned = this.owned();
    if (owned.length === 0) return null;
    if (owned.length === this.options.partitions) return {};
    return { slot: { $in: owned.flatMap((partition) => slotsOfPartition(partition, this.options.partitions)) } };
  }

  /** Renews membership, then takes or lets go of partitions to match the current members. */
  refresh(): Promise<void> {
    this.refreshing ??= this.rebalance().finally(() => (this.refreshing = null));
    return this.refreshing;
  }

  private async rebalance(): Promise<void> {
    const now = this.options.clock();
    const { ttlMs, partitions } = this.options;
    await this.leases.acquire(this.memberLease(this.holder), this.holder, ttlMs, now);
    const members = new Set((await this.leases.holders(`${this.prefix}member/`, now)).map((lease) => lease.holder));
    members.add(this.holder);
    const ordered = [...members].sort();
    for (let partition = 0; partition < partitions; partition += 1) {
      const name = this.partitionLease(partition);
      if (ordered[partition % ordered.length] === this.holder) {
        if (await this.leases.acquire(name, this.holder, ttlMs, now)) this.held.set(partition, now.getTime() + ttlMs);
        else this.held.delete(partition);
      } else if (this.held.has(partition)) {
        this.held.delete(partition);
        await this.leases.release(name, this.holder);
      }
    }
    // The smallest holder tidies up after dead members now and then.
    if (ordered[0] === this.holder) await this.leases.purgeExpired(new Date(now.getTime() - ttlMs));
    this.lastRefreshAt = now.getTime();
  }

  /** Takes the partitions meant for this instance, then keeps the leases renewed until `stop`. */
  async start(): Promise<void> {
    await this.refresh();
    this.loop.start();
  }

  /** Stops renewing and lets go of every lease, so the others take over at once. */
  async stop(): Promise<void> {
    await this.loop.stop();
    await this.refreshing;
    for (const partition of this.held.keys()) await this.leases.release(this.partitionLease(partition), this.holder);
    this.held.clear();
    await this.leases.release(this.memberLease(this.holder), this.holder);
  }

  private memberLease(holder: string): string {
    return `${this.prefix}member/${holder}`;
  }

  private partitionLease(partition: number): string {
    return `${this.prefix}partition/${partition}`;
  }
}
