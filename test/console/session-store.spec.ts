import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteDatabase } from '../../src/eventstore/sqlite-database.js';
import { type ConsoleSession, MemorySessionStore, type SessionStore, SqliteSessionStore } from '../../src/console/session-store.js';

const now = new Date('2026-11-28T18:00:00.000Z');
const later = '2026-11-28T23:00:00.000Z';

function session(overrides: Partial<ConsoleSession>): ConsoleSession {
  return {
    idHash: 'h1', ref: '00000000-0000-4000-8000-000000000001', userId: 'u-1', method: 'password', keyHash: null, apiKeyId: null, secondFactor: null,
    clientAddress: '127.0.0.1', userAgent: 'test', createdAt: now.toISOString(), lastSeenAt: now.toISOString(), expiresAt: later, pending: false, next: null, ...overrides,
  };
}

describe('Console session store', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'vigil-sessions-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the API-key sessions of a table from before person sessions, each with a reference of its own', async () => {
    const db = openSqliteDatabase(join(dir, 'vigil.db'));
    db.exec(`CREATE TABLE console_sessions (id_hash TEXT PRIMARY KEY, key_hash TEXT NOT NULL, user_id TEXT NOT NULL, api_key_id TEXT NOT NULL,
      created_at TEXT NOT NULL, expires_at TEXT NOT NULL)`);
    db.prepare('INSERT INTO console_sessions VALUES (?, ?, ?, ?, ?, ?)').run('old-hash', 'key-hash', 'u-1', 'k-1', now.toISOString(), later);
    const store = new SqliteSessionStore(db);
    const found = await store.find('old-hash', now);
    expect(found).to.include({ method: 'api_key', keyHash: 'key-hash', apiKeyId: 'k-1', userId: 'u-1', pending: false, lastSeenAt: now.toISOString() });
    expect(found?.ref).to.match(/^[0-9a-f-]{36}$/);
    db.close();
  });

  for (const [name, open] of [
    ['SQLite', (d: string) => new SqliteSessionStore(openSqliteDatabase(join(d, 'vigil.db')))],
    ['memory', () => new MemorySessionStore()],
  ] as const) {
    describe(name, () => {
      let store: SessionStore;
      beforeEach(() => {
        store = open(dir);
      });

      it('never finds a pending sign-in as a session, nor a session as a pending sign-in', async () => {
        await store.create(session({ idHash: 'p', ref: '00000000-0000-4000-8000-00000000000a', pending: true, next: '/account' }));
        await store.create(session({ idHash: 's', ref: '00000000-0000-4000-8000-00000000000b' }));
        expect(await store.find('p', now)).to.equal(null);
        expect((await store.findPending('p', now))?.next).to.equal('/account');
        expect(await store.findPending('s', now)).to.equal(null);
        expect((await store.listOfUser('u-1', now)).map((s) => s.idHash)).to.deep.equal(['s']);
      });

      it('ends a session by its reference only for its owner, and all of a user’s but one', async () => {
        await store.create(session({ idHash: 'a', ref: '00000000-0000-4000-8000-00000000000a' }));
        await store.create(session({ idHash: 'b', ref: '00000000-0000-4000-8000-00000000000b' }));
        await store.create(session({ idHash: 'c', ref: '00000000-0000-4000-8000-00000000000c' }));
        await store.create(session({ idHash: 'x', ref: '00000000-0000-4000-8000-00000000000d', userId: 'u-2' }));
        expect(await store.deleteByRef('u-1', '00000000-0000-4000-8000-00000000000d')).to.deep.equal([]);
        expect(await store.deleteByRef('u-1', '00000000-0000-4000-8000-00000000000a')).to.deep.equal(['00000000-0000-4000-8000-00000000000a']);
        expect(await store.deleteOfUser('u-1', 'b')).to.deep.equal(['00000000-0000-4000-8000-00000000000c']);
        expect((await store.listOfUser('u-1', now)).map((s) => s.idHash)).to.deep.equal(['b']);
        expect(await store.find('x', now)).to.not.equal(null);
      });

      it('moves last seen forward at most once a minute', async () => {
        await store.create(session({ idHash: 'a' }));
        await store.touch('a', new Date(now.getTime() + 30_000));
        expect((await store.find('a', now))?.lastSeenAt).to.equal(now.toISOString());
        await store.touch('a', new Date(now.getTime() + 61_000));
        expect((await store.find('a', now))?.lastSeenAt).to.equal(new Date(now.getTime() + 61_000).toISOString());
      });
    });
  }
});
