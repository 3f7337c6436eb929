import { type Collection, MongoClient } from 'mongodb';
import type { SqliteDatabase } from '../eventstore/sqlite-database.js';

/**
 * A signed-in browser, as the server keeps it. Neither the session id nor the API key is stored:
 * only their SHA-256 hashes, so a copy of the store opens no session and reveals no key.
 */
export interface ConsoleSession {
  idHash: string;
  /** The hash of the API key it was opened with: each request checks that key again. */
  keyHash: string;
  userId: string;
  apiKeyId: string;
  createdAt: string;
  expiresAt: string;
}

/**
 * Where the console's sessions live. Sessions are not events: signing in changes nothing anyone
 * audits about monitors, and a session is worthless once it ends. They live beside the read models
 * (a table of their own, never touched by a projector or a rebuild), so they survive a restart and
 * every API process of an installation sees the same ones.
 */
export interface SessionStore {
  create(session: ConsoleSession): Promise<void>;
  /** The live session with this id hash, or null (unknown, or expired by `now`). */
  find(idHash: string, now: Date): Promise<ConsoleSession | null>;
  delete(idHash: string): Promise<void>;
  purgeExpired(now: Date): Promise<void>;
  close(): Promise<void>;
}

interface SessionRow {
  id_hash: string;
  key_hash: string;
  user_id: string;
  api_key_id: string;
  created_at: string;
  expires_at: string;
}

const sessionOf = (row: SessionRow): ConsoleSession => ({
  idHash: row.id_hash, keyHash: row.key_hash, userId: row.user_id, apiKeyId: row.api_key_id, createdAt: row.created_at, expiresAt: row.expires_at,
});

/** In the embedded SQLite file, in the `console_sessions` table. */
export class SqliteSessionStore implements SessionStore {
  constructor(private readonly db: SqliteDatabase) {
    db.exec(
      `CREATE TABLE IF NOT EXISTS console_sessions (
        id_hash TEXT PRIMARY KEY, key_hash TEXT NOT NULL, user_id TEXT NOT NULL, api_key_id TEXT NOT NULL,
        created_at TEXT NOT NULL, expires_at TEXT NOT NULL)`,
    );
  }

  async create(s: ConsoleSession): Promise<void> {
    this.db
      .prepare('INSERT INTO console_sessions (id_hash, key_hash, user_id, api_key_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(s.idHash, s.keyHash, s.userId, s.apiKeyId, s.createdAt, s.expiresAt);
  }

  async find(idHash: string, now: Date): Promise<ConsoleSession | null> {
    const row = this.db.prepare<[string, string], SessionRow>('SELECT * FROM console_sessions WHERE id_hash = ? AND expires_at > ?').get(idHash, now.toISOString());
    return row ? sessionOf(row) : null;
  }

  async delete(idHash: string): Promise<void> {
    this.db.prepare('DELETE FROM console_sessions WHERE id_hash = ?').run(idHash);
  }

  async purgeExpired(now: Date): Promise<void> {
    this.db.prepare('DELETE FROM console_sessions WHERE expires_at <= ?').run(now.toISOString());
  }

  async close(): Promise<void> {}
}

type SessionShape = Omit<SessionRow, 'id_hash'> & { _id: string };

/** In MongoDB, beside the read models, in the `console_sessions` collection. */
export class MongoSessionStore implements SessionStore {
  private constructor(
    private readonly client: MongoClient,
    private readonly sessions: Collection<SessionShape>,
  ) {}

  /** The driver connects on first use. */
  static open(url: string, databaseName: string): MongoSessionStore {
    const client = new MongoClient(url);
    return new MongoSessionStore(client, client.db(databaseName).collection<SessionShape>('console_sessions'));
  }

  async create(s: ConsoleSession): Promise<void> {
    await this.sessions.insertOne({ _id: s.idHash, key_hash: s.keyHash, user_id: s.userId, api_key_id: s.apiKeyId, created_at: s.createdAt, expires_at: s.expiresAt });
  }

  async find(idHash: string, now: Date): Promise<ConsoleSession | null> {
    const found = await this.sessions.findOne({ _id: idHash, expires_at: { $gt: now.toISOString() } });
    return found ? sessionOf({ ...found, id_hash: found._id }) : null;
  }

  async delete(idHash: string): Promise<void> {
    await this.sessions.deleteOne({ _id: idHash });
  }

  async purgeExpired(now: Date): Promise<void> {
    await this.sessions.deleteMany({ expires_at: { $lte: now.toISOString() } });
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

/** For an API built without a shared store (unit set-ups): sessions of this process only. */
export class MemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, ConsoleSession>();

  async create(s: ConsoleSession): Promise<void> {
    this.sessions.set(s.idHash, s);
  }

  async find(idHash: string, now: Date): Promise<ConsoleSession | null> {
    const found = this.sessions.get(idHash);
    return found && found.expiresAt > now.toISOString() ? found : null;
  }

  async delete(idHash: string): Promise<void> {
    this.sessions.delete(idHash);
  }

  async purgeExpired(now: Date): Promise<void> {
    for (const [id, s] of this.sessions) if (s.expiresAt <= now.toISOString()) this.sessions.delete(id);
  }

  async close(): Promise<void> {}
}
