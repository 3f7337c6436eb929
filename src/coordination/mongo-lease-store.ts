import { type Collection, MongoClient, MongoServerError } from 'mongodb';
import type { Lease, LeaseStore } from './leases.js';

interface LeaseShape {
  _id: string;
  holder: string;
  expires_at: number;
}

const DUPLICATE_KEY = 11000;

/**
 * Leases in MongoDB, beside the read models. Taking one is one `updateOne` whose filter matches
 * only a lease that is ours or expired, with `upsert`: when the lease exists but is someone
 * else's, the upsert's insert collides on `_id` and the duplicate-key error means we lost.
 */
export class MongoLeaseStore implements LeaseStore {
  private constructor(
    private readonly client: MongoClient,
    private readonly leases: Collection<LeaseShape>,
  ) {}

  /** The driver connects on first use, so a process that never takes a lease never connects. */
  static open(url: string, databaseName: string): MongoLeaseStore {
    const client = new MongoClient(url);
    return new MongoLeaseStore(client, client.db(databaseName).collection<LeaseShape>('coordination_leases'));
  }

  async acquire(name: string, holder: string, ttlMs: number, now: Date): Promise<boolean> {
    try {
      await this.leases.updateOne(
        { _id: name, $or: [{ holder }, { expires_at: { $lte: now.getTime() } }] },
        { $set: { holder, expires_at: now.getTime() + ttlMs } },
        { upsert: true },
      );
      return true;
    } catch (error) {
      if (error instanceof MongoServerError && error.code === DUPLICATE_KEY) return false;
      throw error;
    }
  }

  async release(name: string, holder: string): Promise<void> {
    await this.leases.deleteOne({ _id: name, holder });
  }

  async holders(prefix: string, now: Date): Promise<Lease[]> {
    const found = await this.leases
      .find({ _id: { $gte: prefix, $lt: `${prefix}\uffff` }, expires_at: { $gt: now.getTime() } })
      .sort({ _id: 1 })
      .toArray();
    return found.map((lease) => ({ name: lease._id, holder: lease.holder, expiresAt: new Date(lease.expires_at) }));
  }

  async purgeExpired(now: Date): Promise<void> {
    await this.leases.deleteMany({ expires_at: { $lte: now.getTime() } });
  }

  /** For the contract suite: empties the collection. */
  async drop(): Promise<void> {
    await this.leases.drop().catch(() => undefined);
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
