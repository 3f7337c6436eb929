import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ChallengeStore, MemoryChallengeStore, SqliteChallengeStore } from '../../src/web/challenge-store.js';
import { openSqliteDatabase } from '../../src/eventstore/sqlite-database.js';

const now = new Date('2026-11-28T18:00:00.000Z');
const at = (ms: number) => new Date(now.getTime() + ms);

describe('WebAuthn challenge store', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'vigil-challenges-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const stores: [string, () => ChallengeStore][] = [
    ['SQLite', () => new SqliteChallengeStore(openSqliteDatabase(join(dir, 'vigil.db')))],
    ['memory', () => new MemoryChallengeStore()],
  ];

  for (const [name, open] of stores) {
    describe(name, () => {
      it('gives a challenge back once: a replayed answer finds none', async () => {
        const store = open();
        await store.put('register:s1', 'c1', at(60_000).toISOString(), now);
        expect(await store.take('register:s1', now)).to.equal('c1');
        expect(await store.take('register:s1', now)).to.equal(null);
      });

      it('forgets a challenge once it expires, and keeps only the newest for a key', async () => {
        const store = open();
        await store.put('sign-in:p1', 'old', at(60_000).toISOString(), now);
        await store.put('sign-in:p1', 'new', at(60_000).toISOString(), now);
        await store.put('sign-in:p2', 'short', at(1_000).toISOString(), now);
        expect(await store.take('sign-in:p1', now)).to.equal('new');
        expect(await store.take('sign-in:p2', at(1_000))).to.equal(null);
        expect(await store.take('sign-in:unknown', now)).to.equal(null);
      });
    });
  }
});
