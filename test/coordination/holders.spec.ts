import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { isDeadLocalHolder, newHolderId, releaseDeadLocalHolders } from '../../src/coordination/holders.js';
import { SqliteLeaseStore } from '../../src/coordination/sqlite-lease-store.js';
import { openSqliteDatabase } from '../../src/eventstore/sqlite-database.js';
import { makeTempDir } from '../support/temp-dir.js';

describe('Lease holders', () => {
  const exitedPid = () => spawnSync(process.execPath, ['-e', '']).pid;

  it('names this process by host, pid, start and a random part, unique per Vigil started in it', () => {
    const [first, second] = [newHolderId(), newHolderId()];
    expect(first).to.match(new RegExp(`^${hostname()}:${process.pid}:\\d+:[0-9a-f]{8}$`));
    expect(first).to.not.equal(second);
    expect(isDeadLocalHolder(first)).to.equal(false);
  });

  it('knows a holder on this host is dead when its pid has exited, or is ours but started at another time', () => {
    expect(isDeadLocalHolder(`${hostname()}:${exitedPid()}:1:abcd`)).to.equal(true);
    expect(isDeadLocalHolder(`${hostname()}:${process.pid}:1:abcd`)).to.equal(true);
    expect(isDeadLocalHolder(`${hostname()}:${process.ppid}:1:abcd`), 'a running process').to.equal(false);
    expect(isDeadLocalHolder(`elsewhere-${hostname()}:${exitedPid()}:1:abcd`), 'another host: cannot tell').to.equal(false);
  });

  it('releases at startup what a crashed process on this host held, and nothing of the living', async () => {
    const dir = makeTempDir('vigil-holders');
    const db = openSqliteDatabase(`${dir.path}/vigil.db`);
    const leases = new SqliteLeaseStore(db);
    const now = new Date();
    const dead = `${hostname()}:${exitedPid()}:1:dead`;
    const alive = newHolderId();
    await leases.acquire('projector', dead, 10_000, now);
    await leases.acquire('timer/16/partition/3', dead, 10_000, now);
    await leases.acquire('timer/16/partition/4', alive, 10_000, now);
    expect(await releaseDeadLocalHolders(leases, now)).to.equal(2);
    expect((await leases.holders('', now)).map((l) => l.holder)).to.deep.equal([alive]);
    db.close();
    dir.remove();
  });
});
