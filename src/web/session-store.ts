import { randomUUID } from 'node:crypto';
import { type Collection, MongoClient } from 'mongodb';
import { type SignInMethod, isSignInMethod } from '../domain/identity/sign-ins.js';
import type { SqliteDatabase } from '../eventstore/sqlite-database.js';

export type { SignInMethod };

/**
 * A signed-in browser, as the server keeps it. Neither the session id nor an API key is stored:
 * only their SHA-256 hashes, so a copy of the store opens no session and reveals no key.
 */
export interface ConsoleSession {
  idHash: string;
  /**
   * The session's public name (a random UUID): how the account page, the sign-in events and the
   * audit metadata refer to it. It opens nothing; ending a session by it checks its owner.
   */
  ref: string;
  userId: string;
  method: SignInMethod;
  /** For `api_key` sessions, the hash of the key it was opened with: each request checks that key again. Null for a person's session. */
  keyHash: string | null;
  apiKeyId: string | null;
  /** The second factor passed on the way in (`totp`, `passkey`, `recovery_code`), or null. */
  secondFactor: string | null;
  clientAddress: string | null;
  userAgent: string | null;
  createdAt: string;
  /** Updated at most once a minute (SESSION_TOUCH_MS), on requests. */
  lastSeenAt: string;
  expiresAt: string;
  /**
   * A sign-in waiting for its second factor: never a session anyone is signed in with. Found only
   * through `findPending`, under its own cookie (see sign-in-flow.ts), and short-lived.
   */
  pending: boolean;
  /** Where to go once the sign-in completes (a console path, already checked); only for a pending one. */
  next: string | null;
}

/**
 * Where the console's sessions live. Sessions are not events (the sign-ins and endings are, see
 * src/app/sign-ins.ts): a session is worthless once it ends. They live beside the read models (a
 * table of their own, never touched by a projector or a rebuild), so they survive a restart and
 * every API process of an installation sees the same ones.
 */
export interface SessionStore {
  create(session: ConsoleSession): Promise<void>;
  /** The live, completed session with this id hash, or null (unknown, pending, or expired by `now`). */
  find(idHash: string, now: Date): Promise<ConsoleSession | null>;
  /** The live pending sign-in with this id hash, or null. */
  findPending(idHash: string, now: Date): Promise<ConsoleSession | null>;
  /** The user's live, completed sessions, newest first. */
  listOfUser(userId: string, now: Date): Promise<ConsoleSession[]>;
  /** Records that the session was used at `now`. */
  touch(idHash: string, now: Date): Promise<void>;
  delete(idHash: string): Promise<void>;
  /** Ends the user's session with this public reference; the refs of the sessions it ended ([] when none was theirs). */
  deleteByRef(userId: string, ref: string): Promise<string[]>;
  /** Ends all the user's sessions (pending ones too), but the one with `exceptIdHash`; the refs of those it ended. */
  deleteOfUser(userId: string, exceptIdHash?: string | null): Promise<string[]>;
  purgeExpired(now: Date): Promise<void>;
  close(): Promise<void>;
}

interface SessionRow {
  id_hash: string;
  ref: string;
  user_id: string;
  method: string;
  key_hash: string | null;
  api_key_id: string | null;
  second_factor: string | null;
  client_address: string | null;
  user_agent: string | null;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  pending: number;
  next: string | null;
}

const rowOf = (s: ConsoleSession): SessionRow => ({
  id_hash: s.idHash, ref: s.ref, user_id: s.userId, method: s.method, key_hash: s.keyHash, api_key_id: s.apiKeyId, second_factor: s.secondFactor,
  client_address: s.clientAddress, user_agent: s.userAgent, created_at: s.createdAt, last_seen_at: s.lastSeenAt, expires_at: s.expiresAt,
  pending: s.pending ? 1 : 0, next: s.next,
});

/** A row as stored; one written before person sessions existed (no method) was opened with an API key. */
const sessionOf = (row: Partial<SessionRow> & Pick<SessionRow, 'id_hash' | 'user_id' | 'created_at' | 'expires_at'>): ConsoleSession => ({
  idHash: row.id_hash,
  ref: row.ref ?? row.id_hash,
  userId: row.user_id,
  method: isSignInMethod(row.method) ? row.method : 'api_key',
  keyHash: row.key_hash ?? null,
  apiKeyId: row.api_key_id ?? null,
  secondFactor: row.second_factor ?? null,
  clientAddress: row.client_address ?? null,
  userAgent: row.user_agent ?? null,
  createdAt: row.created_at,
  lastSeenAt: row.last_seen_at ?? row.created_at,
  expiresAt: row.expires_at,
  pending: row.pending === 1,
  next: row.next ?? null,
});

/** A session's last-seen time is written at most this often: a page's every asset and stream would otherwise each write. */
export const SESSION_TOUCH_MS = 60_000;

const COLUMNS = 'id_hash, ref, user_id, method, key_hash, api_key_id, second_factor, client_address, user_agent, created_at, last_seen_at, expires_at, pending, next';

/** In the embedded SQLite file, in the `console_sessions` table. */
export class SqliteSessionStore implements SessionStore {
  constructor(private readonly db: SqliteDatabase) {
    const columns = db.prepare<[], { name: string }>("SELECT name FROM pragma_table_info('console_sessions')").all().map((c) => c.name);
    db.transaction(() => {
      if (columns.length > 0 && !columns.includes('ref')) {
        // A table from before person sessions: its sessions were all opened with an API key, and
        // carry on (each given a reference) rather than signing everyone out at the upgrade.
        db.exec('ALTER TABLE console_sessions RENAME TO console_sessions_before_people');
      }
      db.exec(
        `CREATE TABLE IF NOT EXISTS console_sessions (
          id_hash TEXT PRIMARY KEY, ref TEXT NOT NULL UNIQUE, user_id TEXT NOT NULL, method TEXT NOT NULL, key_hash TEXT, api_key_id TEXT,
          second_factor TEXT, client_address TEXT, user_agent TEXT, created_at TEXT NOT NULL, last_seen_at TEXT NOT NULL, expires_at TEXT NOT NULL,
          pending INTEGER NOT NULL DEFAULT 0, next TEXT)`,
      );
      db.exec('CREATE INDEX IF NOT EXISTS console_sessions_user ON console_sessions (user_id)');
      if (columns.length > 0 && !columns.includes('ref')) {
        const old = db.prepare<[], { id_hash: string; key_hash: string; user_id: string; api_key_id: string; created_at: string; expires_at: string }>('SELECT * FROM console_sessions_before_people').all();
        const insert = db.prepare(`INSERT INTO console_sessions (${COLUMNS}) VALUES (@id_hash, @ref, @user_id, @method, @key_hash, @api_key_id, @second_factor, @client_address, @user_agent, @created_at, @last_seen_at, @expires_at, @pending, @next)`);
        for (const o of old) {
          insert.run(rowOf({
            idHash: o.id_hash, ref: randomUUID(), userId: o.user_id, method: 'api_key', keyHash: o.key_hash, apiKeyId: o.api_key_id, secondFactor: null,
            clientAddress: null, userAgent: null, createdAt: o.created_at, lastSeenAt: o.created_at, expiresAt: o.expires_at, pending: false, next: null,
          }));
        }
        db.exec('DROP TABLE console_sessions_before_people');
      }
    })();
  }

  async create(s: ConsoleSession): Promise<void> {
    this.db
      .prepare(`INSERT INTO console_sessions (${COLUMNS}) VALUES (@id_hash, @ref, @user_id, @method, @key_hash, @api_key_id, @second_factor, @client_address, @user_agent, @created_at, @last_seen_at, @expires_at, @pending, @next)`)
      .run(rowOf(s));
  }

  async find(idHash: string, now: Date): Promise<ConsoleSession | null> {
    const row = this.db.prepare<[string, string], SessionRow>('SELECT * FROM console_sessions WHERE id_hash = ? AND expires_at > ? AND pending = 0').get(idHash, now.toISOString());
    return row ? sessionOf(row) : null;
  }

  async findPending(idHash: string, now: Date): Promise<ConsoleSession | null> {
    const row = this.db.prepare<[string, string], SessionRow>('SELECT * FROM console_sessions WHERE id_hash = ? AND expires_at > ? AND pending = 1').get(idHash, now.toISOString());
    return row ? sessionOf(row) : null;
  }

  async listOfUser(userId: string, now: Date): Promise<ConsoleSession[]> {
    return this.db
      .prepare<[string, string], SessionRow>('SELECT * FROM console_sessions WHERE user_id = ? AND expires_at > ? AND pending = 0 ORDER BY created_at DESC, ref')
      .all(userId, now.toISOString())
      .map(sessionOf);
  }

  async touch(idHash: string, now: Date): Promise<void> {
    const iso = now.toISOString();
    const before = new Date(now.getTime() - SESSION_TOUCH_MS).toISOString();
    this.db.prepare('UPDATE console_sessions SET last_seen_at = ? WHERE id_hash = ? AND last_seen_at <= ?').run(iso, idHash, before);
  }

  async delete(idHash: string): Promise<void> {
    this.db.prepare('DELETE FROM console_sessions WHERE id_hash = ?').run(idHash);
  }

  async deleteByRef(userId: string, ref: string): Promise<string[]> {
    const { changes } = this.db.prepare('DELETE FROM console_sessions WHERE user_id = ? AND ref = ?').run(userId, ref);
    return changes > 0 ? [ref] : [];
  }

  async deleteOfUser(userId: string, exceptIdHash: string | null = null): Promise<string[]> {
    return this.db.transaction(() => {
      const refs = this.db.prepare<[string, string], { ref: string }>('SELECT ref FROM console_sessions WHERE user_id = ? AND id_hash <> ?').all(userId, exceptIdHash ?? '').map((r) => r.ref);
      this.db.prepare('DELETE FROM console_sessions WHERE user_id = ? AND id_hash <> ?').run(userId, exceptIdHash ?? '');
      return refs;
    })();
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

  private static of(found: SessionShape): ConsoleSession {
    return sessionOf({ ...found, id_hash: found._id });
  }

  async create(s: ConsoleSession): Promise<void> {
    const { id_hash, ...rest } = rowOf(s);
    await this.sessions.insertOne({ _id: id_hash, ...rest });
  }

  async find(idHash: string, now: Date): Promise<ConsoleSession | null> {
    const found = await this.sessions.findOne({ _id: idHash, expires_at: { $gt: now.toISOString() }, pending: { $ne: 1 } });
    return found ? MongoSessionStore.of(found) : null;
  }

  async findPending(idHash: string, now: Date): Promise<ConsoleSession | null> {
    const found = await this.sessions.findOne({ _id: idHash, expires_at: { $gt: now.toISOString() }, pending: 1 });
    return found ? MongoSessionStore.of(found) : null;
  }

  async listOfUser(userId: string, now: Date): Promise<ConsoleSession[]> {
    const found = await this.sessions.find({ user_id: userId, expires_at: { $gt: now.toISOString() }, pending: { $ne: 1 } }).sort({ created_at: -1, ref: 1 }).toArray();
    return found.map((doc) => MongoSessionStore.of(doc));
  }

  async touch(idHash: string, now: Date): Promise<void> {
    const before = new Date(now.getTime() - SESSION_TOUCH_MS).toISOString();
    await this.sessions.updateOne({ _id: idHash, $or: [{ last_seen_at: { $lte: before } }, { last_seen_at: { $exists: false } }] }, { $set: { last_seen_at: now.toISOString() } });
  }

  async delete(idHash: string): Promise<void> {
    await this.sessions.deleteOne({ _id: idHash });
  }

  async deleteByRef(userId: string, ref: string): Promise<string[]> {
    // A session from before references existed goes by its id hash (sessionOf).
    const { deletedCount } = await this.sessions.deleteOne({ user_id: userId, $or: [{ ref }, { _id: ref, ref: { $exists: false } }] });
    return deletedCount > 0 ? [ref] : [];
  }

  async deleteOfUser(userId: string, exceptIdHash: string | null = null): Promise<string[]> {
    const filter = { user_id: userId, _id: { $ne: exceptIdHash ?? '' } };
    const found = await this.sessions.find(filter).toArray();
    await this.sessions.deleteMany({ _id: { $in: found.map((doc) => doc._id) } });
    return found.map((doc) => MongoSessionStore.of(doc).ref);
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
    this.sessions.set(s.idHash, { ...s });
  }

  private live(idHash: string, now: Date, pending: boolean): ConsoleSession | null {
    const found = this.sessions.get(idHash);
    return found && found.expiresAt > now.toISOString() && found.pending === pending ? { ...found } : null;
  }

  async find(idHash: string, now: Date): Promise<ConsoleSession | null> {
    return this.live(idHash, now, false);
  }

  async findPending(idHash: string, now: Date): Promise<ConsoleSession | null> {
    return this.live(idHash, now, true);
  }

  async listOfUser(userId: string, now: Date): Promise<ConsoleSession[]> {
    return [...this.sessions.values()]
      .filter((s) => s.userId === userId && !s.pending && s.expiresAt > now.toISOString())
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.ref.localeCompare(b.ref))
      .map((s) => ({ ...s }));
  }

  async touch(idHash: string, now: Date): Promise<void> {
    const found = this.sessions.get(idHash);
    if (found && Date.parse(found.lastSeenAt) <= now.getTime() - SESSION_TOUCH_MS) found.lastSeenAt = now.toISOString();
  }

  async delete(idHash: string): Promise<void> {
    this.sessions.delete(idHash);
  }

  async deleteByRef(userId: string, ref: string): Promise<string[]> {
    for (const [id, s] of this.sessions) {
      if (s.userId === userId && s.ref === ref) {
        this.sessions.delete(id);
        return [ref];
      }
    }
    return [];
  }

  async deleteOfUser(userId: string, exceptIdHash: string | null = null): Promise<string[]> {
    const ended: string[] = [];
    for (const [id, s] of this.sessions) {
      if (s.userId === userId && id !== exceptIdHash) {
        this.sessions.delete(id);
        ended.push(s.ref);
      }
    }
    return ended;
  }

  async purgeExpired(now: Date): Promise<void> {
    for (const [id, s] of this.sessions) if (s.expiresAt <= now.toISOString()) this.sessions.delete(id);
  }

  async close(): Promise<void> {}
}
