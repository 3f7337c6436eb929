import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteDatabase } from '../../src/eventstore/sqlite-database.js';
import { SqliteSessionStore } from '../../src/web/session-store.js';

const now = new Date('2026-11-28T18:00:00.000Z');
const later = '2026-11-28T23:00:00.000Z';

/** What every adapter must do is in test/contract/session-store.contract.ts; here, what only SQLite has: tables from before. */
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
});
