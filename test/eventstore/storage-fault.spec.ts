import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, rmdirSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteDatabase } from '../../src/eventstore/sqlite-database.js';
import { SqliteEventStore } from '../../src/eventstore/sqlite-event-store.js';
import { StoreCannotWriteError, storageFault } from '../../src/eventstore/storage-fault.js';
import { WriteGate } from '../../src/eventstore/write-gate.js';
import { makeTempDir } from '../support/temp-dir.js';
import { capturedLog } from '../support/captured-log.js';
import { eventually } from '../support/eventually.js';
import { ALL_SCOPES, TestClock, TestVigil } from '../support/test-vigil.js';
import { runCli } from '../../src/main/cli.js';

const HOUR = 3_600_000;
const MINUTE = 60_000;
const DISK_FULL = 'the event store cannot write: the disk is full (SQLITE_FULL); retry later';

/**
 * A filesystem of its own, small enough to fill: a tmpfs, which only root can mount. Large enough
 * for the data file and a WAL that SQLite checkpoints at 1,000 pages (4 MB).
 */
function mountTmpfs(size: string): { path: string; unmount: () => void } | { skip: string } {
  if (process.getuid?.() !== 0) return { skip: 'mounting a tmpfs needs root' };
  const path = mkdtempSync(join(tmpdir(), 'vigil-full-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', path], { stdio: 'pipe' });
  } catch (error) {
    rmdirSync(path);
    return { skip: `mount -t tmpfs failed: ${String((error as { stderr?: Buffer }).stderr ?? error).trim()}` };
  }
  return {
    path,
    unmount: () => {
      try {
        execFileSync('umount', [path], { stdio: 'pipe' });
      } catch {
        // Still busy (a spec that failed before it closed the store): detached now, gone once let go of.
        execFileSync('umount', ['--lazy', path], { stdio: 'pipe' });
      }
      rmdirSync(path);
    },
  };
}

/**
 * A 16 MB tmpfs for the specs of the describe it is called in (they skip, saying why, without
 * root): unmounted after them, with the filler removed and whatever Vigil they left running stopped.
 */
function onSmallDisk(): { disk: { path: string } | null; vigil: TestVigil | null } {
  const small: { disk: { path: string; unmount: () => void } | null; vigil: TestVigil | null } = { disk: null, vigil: null };
  before(function () {
    const mounted = mountTmpfs('16m');
    if ('skip' in mounted) {
      console.log(`      skipped: ${mounted.skip}`);
      this.skip();
    }
    small.disk = mounted;
  });
  after(async () => {
    try {
      if (small.disk) rmSync(join(small.disk.path, 'filler'), { force: true });
      await small.vigil?.stop();
    } finally {
      small.disk?.unmount();
    }
  });
  return small;
}

/** Writes `file` until the filesystem has not one byte left. */
function fillDisk(file: string): void {
  const fd = openSync(file, 'w');
  try {
    for (const size of [1 << 20, 4096, 1]) {
      const chunk = Buffer.alloc(size, 1);
      try {
        for (;;) writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      }
    }
  } finally {
    closeSync(fd);
  }
}

describe('storageFault', () => {
  const coded = (code: string) => Object.assign(new Error('SQLite said no'), { code });

  it('names a full disk: SQLITE_FULL, and ENOSPC from Node', () => {
    expect(storageFault(coded('SQLITE_FULL'))).to.deep.equal({ code: 'SQLITE_FULL', reason: 'the disk is full' });
    expect(storageFault(coded('ENOSPC'))).to.deep.equal({ code: 'ENOSPC', reason: 'the disk is full' });
  });

  it('names the SQLITE_IOERR family, where ENOSPC surfaces from fallocate, ftruncate, the -shm file and fsync', () => {
    for (const code of ['SQLITE_IOERR', 'SQLITE_IOERR_WRITE', 'SQLITE_IOERR_FSYNC', 'SQLITE_IOERR_SHMSIZE', 'SQLITE_IOERR_TRUNCATE']) {
      expect(storageFault(coded(code)), code).to.deep.equal({ code, reason: 'the disk failed a write' });
    }
    expect(storageFault(coded('SQLITE_IOERR_SHORT_READ'))).to.deep.equal({ code: 'SQLITE_IOERR_SHORT_READ', reason: 'the disk failed a read' });
  });

  it('leaves alone what is not the disk: a busy file, a constraint, an error without a code', () => {
    for (const error of [coded('SQLITE_BUSY'), coded('SQLITE_CONSTRAINT_UNIQUE'), new Error('no code'), 'SQLITE_FULL', null]) expect(storageFault(error)).to.equal(null);
  });
});

describe('SqliteEventStore when the disk fails a commit', () => {
  /** The inline writer's gate, made to fail the next commits as the disk would. */
  class FailingDisk extends WriteGate {
    failures: string[] = [];
    override holdIfFree<T>(work: () => T, waitingSince?: number): { ran: true; value: T } | { ran: false } {
      const code = this.failures.shift();
      if (code) throw Object.assign(new Error(`disk I/O error (${code})`), { code });
      return super.holdIfFree(work, waitingSince);
    }
  }
  let dir: { path: string; remove: () => void };
  let events: SqliteEventStore;
  const disk = new FailingDisk();
  beforeEach(() => {
    dir = makeTempDir('vigil-disk-fault');
    events = new SqliteEventStore(openSqliteDatabase(join(dir.path, 'vigil.db')), { writeGate: disk, clock: () => new Date('2026-11-21T12:00:00.000Z') });
  });
  afterEach(async () => {
    await events.close();
    dir.remove();
  });
  const append = (n: number) => events.appendToStream('pings-m1', [{ type: 'PingReceived', data: { n } }]);

  it('refuses every append of the group with StoreCannotWriteError naming the code, records none of them, and says it cannot write until a probe commits', async () => {
    await append(1);
    disk.failures.push('SQLITE_IOERR_FSYNC', 'SQLITE_IOERR_FSYNC');
    const refused = await Promise.allSettled([append(2), append(3)]);
    for (const outcome of refused) {
      expect(outcome.status).to.equal('rejected');
      const error = (outcome as PromiseRejectedResult).reason;
      expect(error).to.be.instanceOf(StoreCannotWriteError);
      expect(error.message).to.equal('the event store cannot write: the disk failed a write (SQLITE_IOERR_FSYNC); retry later');
      expect(error.cause.code).to.equal('SQLITE_IOERR_FSYNC');
    }
    expect((await events.readStream('pings-m1')).map((e) => e.data['n'])).to.deep.equal([1]);
    // The probe fails as the disk still does, then commits once it takes writes again.
    expect(await events.writeHealth()).to.deep.equal({ ok: false, error: 'cannot write: the disk failed a write (SQLITE_IOERR_FSYNC)', since: '2026-11-21T12:00:00.000Z' });
    expect(await events.writeHealth()).to.deep.equal({ ok: true });
    await append(4);
    expect((await events.readStream('pings-m1')).map((e) => e.data['n'])).to.deep.equal([1, 4]);
  });

  it('is writable again after any commit that succeeds, without a probe', async () => {
    disk.failures.push('SQLITE_FULL');
    await append(1).catch(() => {});
    await append(2);
    expect(await events.writeHealth()).to.deep.equal({ ok: true });
  });
});

describe('A full disk under the embedded store', function () {
  this.timeout(60_000);

  for (const writer of ['inline', 'thread'] as const) {
    describe(`with the log committed ${writer === 'thread' ? 'on a writer thread (VIGIL_SQLITE_WRITER=thread)' : 'inline'}`, () => {
      const small = onSmallDisk();
      const log = capturedLog('error');

      it('answers writes and pings 503 with Retry-After and why, fails /readyz, and recovers by itself once space is freed, losing no acknowledged ping', async () => {
        // Each batch lingers a second unless a reader waits: long enough to fill the disk under it.
        const v = (small.vigil = await TestVigil.reopen(join(small.disk!.path, 'data'), { VIGIL_SQLITE_WRITER: writer, VIGIL_PROJECTOR_LINGER_MS: '1000' }, new TestClock(), log.logger));
        const key = await v.accountKey(await v.user('full@example.com'), ALL_SCOPES);
        const projectId = (await v.request('POST', '/v1/projects', { key, body: { name: 'Full' } })).body.project.id;
        const created = await v.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Heartbeat', type: 'JOB_HEARTBEAT', schedule: '1h' } });
        const monitorId: string = created.body.monitor.id;
        const acknowledged: string[] = [];
        const ping = async () => {
          const answer = await v.request('GET', `/v1/ping/${monitorId}`);
          if (answer.status === 200) acknowledged.push(answer.body.ping_id);
          return answer;
        };
        const pingsReceived = async () => (await v.request('GET', `/v1/monitors/${monitorId}`, { key })).body.monitor.total_pings_received;
        expect((await ping()).status).to.equal(200);
        await v.settle();

        // A WAL emptied first: the next commit has to grow it, and there is no room to.
        const db = openSqliteDatabase(join(v.dataDir, 'vigil.db'));
        db.pragma('wal_checkpoint(TRUNCATE)');
        db.close();
        expect((await ping()).status).to.equal(200);
        const filler = join(small.disk!.path, 'filler');
        fillDisk(filler);

        // The projector's batch with that ping cannot be committed: it retries rather than skip it.
        await eventually(() => expect(log.lines.some((line) => line['msg'] === 'projector failed; retrying' && /SQLITE_FULL/.test(JSON.stringify(line['err'])))).to.equal(true), 5000);
        expect(await pingsReceived()).to.equal(1);

        const refusedPing = await ping();
        expect(refusedPing.status).to.equal(503);
        expect(refusedPing.headers.get('retry-after')).to.equal('10');
        expect(refusedPing.body).to.deep.equal({ error: DISK_FULL });
        const refusedWrite = await v.request('POST', '/v1/projects', { key, body: { name: 'Not now' } });
        expect(refusedWrite.status).to.equal(503);
        expect(refusedWrite.headers.get('retry-after')).to.equal('10');
        expect(refusedWrite.body).to.deep.equal({ error: DISK_FULL });
        const notReady = await v.request('GET', '/readyz');
        expect(notReady.status).to.equal(503);
        expect(notReady.body.error).to.equal('not ready: event_store failed');
        expect(notReady.body.checks.event_store.ok).to.equal(false);
        expect(notReady.body.checks.event_store.error).to.match(/^cannot write: the disk is full \(SQLITE_FULL\) since \d{4}-\d\d-\d\dT/);
        // The timer cannot record the missed check-in now; it is not lost either.
        v.clock.advance(HOUR + 6 * MINUTE);
        const tickError = await v.vigil.timer!.tick().then(() => null, (error: unknown) => error);
        expect(storageFault(tickError), 'what the timer tick failed on').to.deep.equal({ code: 'SQLITE_FULL', reason: 'the disk is full' });

        rmSync(filler);

        // No restart: the probe behind /readyz finds the disk writable, and so does everything else.
        await eventually(async () => expect((await v.request('GET', '/readyz')).status).to.equal(200), 5000);
        expect(await v.tick()).to.equal(1);
        const [missed] = (await v.request('GET', `/v1/monitors/${monitorId}/incidents`, { key })).body.data;
        expect(missed).to.include({ event: 'MISSED', status: 'OPEN' });
        expect((await ping()).status).to.equal(200);
        expect((await v.request('POST', '/v1/projects', { key, body: { name: 'Now' } })).status).to.equal(201);
        expect(await v.notify()).to.be.a('number');
        await v.settle();
        expect(await pingsReceived()).to.equal(acknowledged.length);

        // The pings stream also keeps the slot the timer found missed.
        const logged = (await v.vigil.stores.events.readStream(`pings-${monitorId}`)).filter((e) => e.type === 'PingReceived').map((e) => e.data['ping_id']);
        expect(logged).to.deep.equal(acknowledged);
        expect(acknowledged).to.have.length(3);
      });
    });
  }
});

describe('A gap while the disk is full', function () {
  this.timeout(60_000);
  const small = onSmallDisk();

  it('is an outage of its own: the jobs it refused (503) while it could not write open nothing, a job that stopped is caught after, and verify passes', async () => {
    const v = (small.vigil = await TestVigil.reopen(join(small.disk!.path, 'data'), {}, new TestClock()));
    await v.listen();
    const key = await v.accountKey(await v.user('full@example.com'), ALL_SCOPES);
    const projectId = (await v.request('POST', '/v1/projects', { key, body: { name: 'Full' } })).body.project.id;
    const monitor = async (name: string) =>
      (await v.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name, type: 'JOB_HEARTBEAT', schedule: '5s', grace_period_seconds: 2 } })).body.monitor.id as string;
    const [alive, dying] = [await monitor('Alive'), await monitor('Dying')];
    let acknowledged = 0;
    const ping = async (id: string) => {
      const answer = await v.request('GET', `/v1/ping/${id}`);
      if (answer.status === 200) acknowledged += id === alive ? 1 : 0;
      return answer.status;
    };
    /** `seconds` of Vigil running: the jobs in `pinging` ping every 5 s, the timer fires and the Ping API confirms it listens every second, whatever the disk says. */
    const run = async (seconds: number, pinging: string[], diskFull = false) => {
      const statuses: number[] = [];
      for (let s = 1; s <= seconds; s += 1) {
        v.clock.advance(1000);
        if (s % 5 === 0) for (const id of pinging) statuses.push(await ping(id));
        // The timer reads its deadlines from the read models, which wait for a disk to write to.
        if (!diskFull) await v.settle();
        await v.vigil.timer!.tick().catch(() => undefined);
        await v.vigil.listening!.tick().catch(() => undefined);
      }
      return statuses;
    };
    await ping(alive);
    await ping(dying);
    await run(10, [alive, dying]);
    await v.settle();

    const db = openSqliteDatabase(join(v.dataDir, 'vigil.db'));
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    fillDisk(join(small.disk!.path, 'filler'));
    // 43 s of a full disk: both jobs keep pinging and are refused, as is everything else Vigil would write.
    const refused = await run(43, [alive, dying], true);
    expect(refused.filter((status) => status === 503).length).to.be.greaterThan(0);
    expect(refused.filter((status) => status === 200)).to.have.length(0);
    rmSync(join(small.disk!.path, 'filler'));

    // Space is back: the one job still alive goes on pinging, the other stopped during the gap.
    await eventually(async () => expect((await v.request('GET', '/readyz')).status).to.equal(200), 5000);
    await run(6, [alive]);
    await v.settle();
    const aliveIncidents = (await v.request('GET', `/v1/monitors/${alive}/incidents`, { key })).body.data;
    expect(aliveIncidents).to.deep.equal([]);
    // Not at its slots inside the gap: at its first slot past the excused window.
    await run(10, [alive]);
    await v.settle();
    const [missed] = (await v.request('GET', `/v1/monitors/${dying}/incidents`, { key })).body.data;
    expect(missed).to.include({ event: 'MISSED' });
    expect((await v.request('GET', `/v1/monitors/${alive}/incidents`, { key })).body.data).to.deep.equal([]);
    const pingsKept = (await v.vigil.stores.events.readStream(`pings-${alive}`)).filter((e) => e.type === 'PingReceived');
    expect(pingsKept).to.have.length(acknowledged);
    await v.stopKeepingData();
    const out: string[] = [];
    const code = await runCli(['verify'], { env: { VIGIL_DATA_DIR: v.dataDir }, stdout: (text) => out.push(text), stderr: process.stderr });
    expect(JSON.parse(out[0]!)).to.deep.include({ ok: true });
    expect(code).to.equal(0);
    small.vigil = null;
  });
});
