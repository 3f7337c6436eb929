import { expect } from 'chai';
import { type ConsoleSession, SESSION_TOUCH_MS, type SessionStore } from '../../src/web/session-store.js';

export interface SessionStoreFixture {
  store: SessionStore;
  dispose: () => Promise<void>;
}

const now = new Date('2026-11-28T18:00:00.000Z');
const later = '2026-11-28T23:00:00.000Z';
const ref = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export function session(overrides: Partial<ConsoleSession>): ConsoleSession {
  return {
    idHash: 'h1', ref: ref(1), userId: 'u-1', method: 'password', keyHash: null, apiKeyId: null, secondFactor: null,
    clientAddress: '127.0.0.1', userAgent: 'test', createdAt: now.toISOString(), lastSeenAt: now.toISOString(), expiresAt: later, pending: false, next: null, ...overrides,
  };
}

/** What every SessionStore adapter must do: the console relies on each of these for sign-in, sign-out and the account page. */
export function sessionStoreContract(name: string, open: () => Promise<SessionStoreFixture>): void {
  describe(`SessionStore contract: ${name}`, function () {
    this.timeout(20_000);
    let fixture: SessionStoreFixture;
    let store: SessionStore;
    beforeEach(async () => {
      fixture = await open();
      store = fixture.store;
    });
    afterEach(() => fixture.dispose());

    it('finds a session as it was created, every field kept', async () => {
      const created = session({ idHash: 'k', ref: ref(7), method: 'api_key', keyHash: 'key-hash', apiKeyId: 'k-1', secondFactor: 'totp', clientAddress: null, userAgent: null });
      await store.create(created);
      expect(await store.find('k', now)).to.deep.equal(created);
      expect(await store.find('unknown', now)).to.equal(null);
    });

    it('never finds a pending sign-in as a session, nor a session as a pending sign-in', async () => {
      await store.create(session({ idHash: 'p', ref: ref(10), pending: true, next: '/account' }));
      await store.create(session({ idHash: 's', ref: ref(11) }));
      expect(await store.find('p', now)).to.equal(null);
      expect((await store.findPending('p', now))?.next).to.equal('/account');
      expect(await store.findPending('s', now)).to.equal(null);
      expect((await store.listOfUser('u-1', now)).map((s) => s.idHash)).to.deep.equal(['s']);
    });

    it('finds nothing expired, and purges only what has expired', async () => {
      await store.create(session({ idHash: 'old', ref: ref(20), expiresAt: '2026-11-28T19:00:00.000Z' }));
      await store.create(session({ idHash: 'new', ref: ref(21) }));
      const afterOld = new Date('2026-11-28T19:00:00.000Z');
      expect(await store.find('old', afterOld)).to.equal(null);
      expect((await store.listOfUser('u-1', afterOld)).map((s) => s.idHash)).to.deep.equal(['new']);
      await store.purgeExpired(afterOld);
      expect(await store.find('old', now)).to.equal(null);
      expect(await store.find('new', now)).to.not.equal(null);
    });

    it('lists a user\'s sessions newest first, and only theirs', async () => {
      await store.create(session({ idHash: 'a', ref: ref(30), createdAt: '2026-11-28T10:00:00.000Z' }));
      await store.create(session({ idHash: 'b', ref: ref(31), createdAt: '2026-11-28T12:00:00.000Z' }));
      await store.create(session({ idHash: 'c', ref: ref(32), createdAt: '2026-11-28T11:00:00.000Z' }));
      await store.create(session({ idHash: 'x', ref: ref(33), userId: 'u-2' }));
      expect((await store.listOfUser('u-1', now)).map((s) => s.idHash)).to.deep.equal(['b', 'c', 'a']);
    });

    it('ends a session by its reference only for its owner, and all of a user\'s but one, pending ones too', async () => {
      await store.create(session({ idHash: 'a', ref: ref(40) }));
      await store.create(session({ idHash: 'b', ref: ref(41) }));
      await store.create(session({ idHash: 'c', ref: ref(42) }));
      await store.create(session({ idHash: 'p', ref: ref(43), pending: true }));
      await store.create(session({ idHash: 'x', ref: ref(44), userId: 'u-2' }));
      expect(await store.deleteByRef('u-1', ref(44))).to.deep.equal([]);
      expect(await store.deleteByRef('u-1', ref(40))).to.deep.equal([ref(40)]);
      expect((await store.deleteOfUser('u-1', 'b')).sort()).to.deep.equal([ref(42), ref(43)]);
      expect((await store.listOfUser('u-1', now)).map((s) => s.idHash)).to.deep.equal(['b']);
      expect(await store.findPending('p', now)).to.equal(null);
      expect(await store.find('x', now)).to.not.equal(null);
      await store.delete('b');
      expect(await store.find('b', now)).to.equal(null);
    });

    it('moves last seen forward at most once a minute, and touching an unknown session does nothing', async () => {
      await store.create(session({ idHash: 'a' }));
      await store.touch('a', new Date(now.getTime() + SESSION_TOUCH_MS / 2));
      expect((await store.find('a', now))?.lastSeenAt).to.equal(now.toISOString());
      await store.touch('a', new Date(now.getTime() + SESSION_TOUCH_MS + 1000));
      expect((await store.find('a', now))?.lastSeenAt).to.equal(new Date(now.getTime() + SESSION_TOUCH_MS + 1000).toISOString());
      await store.touch('nobody', now);
      expect(await store.find('nobody', now)).to.equal(null);
    });

    it('refuses a second session with the same id hash', async () => {
      await store.create(session({ idHash: 'dup', ref: ref(50) }));
      let refused = false;
      try {
        await store.create(session({ idHash: 'dup', ref: ref(51), userId: 'u-2' }));
      } catch {
        refused = true;
      }
      const kept = await store.find('dup', now);
      // Either refused, or (the memory store) replaced: never two sessions answering to one id.
      expect(refused || kept?.userId === 'u-2', 'a duplicate id neither refused nor replaced').to.equal(true);
      if (refused) expect(kept?.ref).to.equal(ref(50));
    });
  });
}
