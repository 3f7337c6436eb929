import type { SqliteDatabase } from '../eventstore/sqlite-database.js';
import type { Lease, LeaseStore } from './leases.js';

interface LeaseRow {
  name: string;
  holder: string;
  expires_at: number;
}

/**
 * Leases in the embedded SQLite file, beside the read models the roles work from. Taking one is
 * a single conditional UPSERT, so SQLite's write lock decides between processes: the row is
 * written only when it is new, expired or already ours, and `changes` says whether it was.
 */
export class SqliteLeaseStore implements LeaseStore {
  constructor(private readonly db: SqliteDatabase) {
    db.exec('CREATE TABLE IF NOT EXISTS coordination_leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, expires_at INTEGER NOT NULL)');
  }

  async acquire(name: string, holder: string, ttlMs: number, now: Date): Promise<boolean> {
    const { changes } = this.db
      .prepare(
        `INSERT INTO coordination_leases (name, holder, expires_at) VALUES (?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
         WHERE coordination_leases.holder = excluded.holder OR coordination_leases.expires_at <= ?`,
      )
      .run(name, holder, now.getTime() + ttlMs, now.getTime());
    return changes === 1;
  }

  async release(name: string, holder: string): Promise<void> {
    this.db.prepare('DELETE FROM coordination_leases WHERE name = ? AND holder = ?').run(name, holder);
  }

  async holders(prefix: string, now: Date): Promise<Lease[]> {
    // A range rather than LIKE, so `_` and `%` in names mean themselves and the primary key is used.
    const rows = this.db
      .prepare<[string, string, number], LeaseRow>(
        'SELECT name, holder, expires_at FROM coordination_leases WHERE name >= ? AND name < ? AND expires_at > ? ORDER BY name',
      )
      .all(prefix, `${prefix}\uffff`, now.getTime());
    return rows.map((row) => ({ name: row.name, holder: row.holder, expiresAt: new Date(row.expires_at) }));
  }

  async purgeExpired(now: Date): Promise<void> {
    this.db.prepare('DELETE FROM coordination_leases WHERE expires_at <= ?').run(now.getTime());
  }

  async close(): Promise<void> {}
}
