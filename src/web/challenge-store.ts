import { type Collection, MongoClient } from 'mongodb';
import type { SqliteDatabase } from '../eventstore/sqlite-database.js';

/**
 * The WebAuthn challenges this server gave out, each until its ceremony comes back or it expires:
 * a challenge is taken once (a replayed answer finds none) and lives a few minutes. Keyed by what
 * it was given for (`register:<session id hash>`, `sign-in:<pending sign-in id hash>`): a newer one
 * for the same purpose replaces it. Like the sessions, not events and beside the read models, so
 * every API process of an installation sees them.
 */
export interface ChallengeStore {
  /** Keeps `challenge` under `key` until `expiresAt`, replacing any before it; those expired by `now` go. */
  put(key: string, challenge: string, expiresAt: string, now: Date): Promise<void>;
  /** The challenge under `key`, removed as it is read; null when there is none or it expired by `now`. */
  take(key: string, now: Date): Promise<string | null>;
  close(): Promise<void>;
}

/** In the embedded SQLite file, in the `webauthn_challenges` table. */
export class SqliteChallengeStore implements ChallengeStore {
  constructor(private readonly db: SqliteDatabase) {
    db.exec('CREATE TABLE IF NOT EXISTS webauthn_challenges (key TEXT PRIMARY KEY, challenge TEXT NOT NULL, expires_at TEXT NOT NULL)');
  }

  async put(key: string, challenge: string, expiresAt: string, now: Date): Promise<void> {
    this.db.prepare('DELETE FROM webauthn_challenges WHERE expires_at <= ?').run(now.toISOString());
    this.db.prepare('INSERT INTO webauthn_challenges (key, challenge, expires_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET challenge = excluded.challenge, expires_at = excluded.expires_at')
      .run(key, challenge, expiresAt);
  }

  async take(key: string, now: Date): Promise<string | null> {
    const row = this.db.prepare<[string], { challenge: string; expires_at: string }>('DELETE FROM webauthn_challenges WHERE key = ? RETURNING challenge, expires_at').get(key);
    return row && row.expires_at > now.toISOString() ? row.challenge : null;
  }

  async close(): Promise<void> {}
}

interface ChallengeShape {
  _id: string;
  challenge: string;
  expires_at: string;
}

/** In MongoDB, beside the read models, in the `webauthn_challenges` collection. */
export class MongoChallengeStore implements ChallengeStore {
  private constructor(
    private readonly client: MongoClient,
    private readonly challenges: Collection<ChallengeShape>,
  ) {}

  static open(url: string, databaseName: string): MongoChallengeStore {
    const client = new MongoClient(url);
    return new MongoChallengeStore(client, client.db(databaseName).collection<ChallengeShape>('webauthn_challenges'));
  }

  async put(key: string, challenge: string, expiresAt: string, now: Date): Promise<void> {
    await this.challenges.deleteMany({ expires_at: { $lte: now.toISOString() } });
    await this.challenges.replaceOne({ _id: key }, { challenge, expires_at: expiresAt }, { upsert: true });
  }

  async take(key: string, now: Date): Promise<string | null> {
    const found = await this.challenges.findOneAndDelete({ _id: key });
    return found && found.expires_at > now.toISOString() ? found.challenge : null;
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

/** For an API built without a shared store: challenges of this process only. */
export class MemoryChallengeStore implements ChallengeStore {
  private readonly challenges = new Map<string, { challenge: string; expiresAt: string }>();

  async put(key: string, challenge: string, expiresAt: string, now: Date): Promise<void> {
    for (const [k, c] of this.challenges) if (c.expiresAt <= now.toISOString()) this.challenges.delete(k);
    this.challenges.set(key, { challenge, expiresAt });
  }

  async take(key: string, now: Date): Promise<string | null> {
    const found = this.challenges.get(key);
    this.challenges.delete(key);
    return found && found.expiresAt > now.toISOString() ? found.challenge : null;
  }

  async close(): Promise<void> {}
}
