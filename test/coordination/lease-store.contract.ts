import { expect } from 'chai';
import type { LeaseStore } from '../../src/coordination/leases.js';

export interface LeaseStoreFixture {
  store: LeaseStore;
  /** Another client of the same store, as another process would have. */
  another: () => Promise<LeaseStore>;
  dispose: () => Promise<void>;
}

const TTL = 10_000;
const at = (ms: number) => new Date(Date.parse('2026-11-21T12:00:00.000Z') + ms);

/** The behaviour every lease adapter must show. */
export function leaseStoreContract(adapter: string, open: () => Promise<LeaseStoreFixture>): void {
  describe(`LeaseStore contract: ${adapter}`, () => {
    let fixture: LeaseStoreFixture;
    let leases: LeaseStore;
    beforeEach(async () => {
      fixture = await open();
      leases = fixture.store;
    });
    afterEach(() => fixture.dispose());

    it('gives a free lease to the first holder and refuses it to others while it lives', async () => {
      expect(await leases.acquire('timer/partition/1', 'a', TTL, at(0))).to.equal(true);
      expect(await leases.acquire('timer/partition/1', 'b', TTL, at(TTL - 1))).to.equal(false);
      expect(await leases.holders('timer/partition/', at(TTL - 1))).to.deep.equal([{ name: 'timer/partition/1', holder: 'a', expiresAt: at(TTL) }]);
    });

    it('lets the holder renew its lease, moving the expiry on', async () => {
      await leases.acquire('x', 'a', TTL, at(0));
      expect(await leases.acquire('x', 'a', TTL, at(5000))).to.equal(true);
      expect(await leases.acquire('x', 'b', TTL, at(TTL + 1))).to.equal(false);
      expect((await leases.holders('x', at(TTL + 1)))[0]).to.deep.include({ holder: 'a', expiresAt: at(5000 + TTL) });
    });

    it('lets anyone take a lease once it has expired', async () => {
      await leases.acquire('x', 'a', TTL, at(0));
      expect(await leases.holders('x', at(TTL))).to.deep.equal([]);
      expect(await leases.acquire('x', 'b', TTL, at(TTL))).to.equal(true);
      expect(await leases.acquire('x', 'a', TTL, at(TTL + 1))).to.equal(false);
      expect((await leases.holders('x', at(TTL + 1)))[0]).to.deep.include({ holder: 'b' });
    });

    it('frees a released lease at once, and ignores a release by someone who no longer holds it', async () => {
      await leases.acquire('x', 'a', TTL, at(0));
      await leases.release('x', 'b');
      expect(await leases.acquire('x', 'b', TTL, at(1))).to.equal(false);
      await leases.release('x', 'a');
      expect(await leases.acquire('x', 'b', TTL, at(2))).to.equal(true);
      await leases.release('x', 'a');
      expect((await leases.holders('x', at(3)))[0]).to.deep.include({ holder: 'b' });
    });

    it('lists only the live leases under a prefix, in name order', async () => {
      await leases.acquire('checker/member/b', 'b', TTL, at(0));
      await leases.acquire('checker/member/a', 'a', TTL, at(0));
      await leases.acquire('checker/member/c', 'c', 1000, at(0));
      await leases.acquire('checker/partition/1', 'a', TTL, at(0));
      await leases.acquire('timer/member/a', 'a', TTL, at(0));
      const live = await leases.holders('checker/member/', at(1000));
      expect(live.map((l) => l.holder)).to.deep.equal(['a', 'b']);
    });

    it('purges expired leases and keeps live ones', async () => {
      await leases.acquire('dead', 'a', 1000, at(0));
      await leases.acquire('alive', 'b', TTL, at(0));
      await leases.purgeExpired(at(1000));
      expect(await leases.holders('', at(0))).to.deep.equal([{ name: 'alive', holder: 'b', expiresAt: at(TTL) }]);
    });

    it('gives a contested lease to exactly one of several clients racing for it', async () => {
      const clients = [leases, await fixture.another(), await fixture.another()];
      for (let round = 0; round < 20; round += 1) {
        const name = `race/${round}`;
        const won = await Promise.all(clients.flatMap((client, c) => [0, 1].map((h) => client.acquire(name, `holder-${c}-${h}`, TTL, at(0)))));
        expect(won.filter(Boolean), `round ${round}`).to.have.length(1);
        const [lease] = await leases.holders(name, at(1));
        expect(won.indexOf(true)).to.equal(['0-0', '0-1', '1-0', '1-1', '2-0', '2-1'].indexOf(lease!.holder.slice('holder-'.length)));
      }
    });
  });
}
