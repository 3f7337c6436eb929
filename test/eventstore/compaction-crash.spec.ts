import { spawn } from 'node:child_process';
import { expect } from 'chai';
import { verifyLog } from '../../src/audit/verify-log.js';
import { openSqliteDatabase } from '../../src/eventstore/sqlite-database.js';
import { SqliteEventStore } from '../../src/eventstore/sqlite-event-store.js';
import { makeTempDir } from '../support/temp-dir.js';

/** Runs the fixture until `killAfterMs` past its first append, kills it with SIGKILL, and returns every append it saw acknowledged. */
async function appendAndCompactUntilKilled(path: string, killAfterMs: number): Promise<Map<string, number>> {
  const child = spawn(process.execPath, ['--import=tsx', 'test/fixtures/compaction-under-load.ts', path], { stdio: ['ignore', 'pipe', 'inherit'] });
  const acknowledged = new Map<string, number>();
  let buffered = '';
  const ready = new Promise<void>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        if (line === 'ready') resolve();
        const [stream, revision] = line.split(' ');
        if (stream && revision) acknowledged.set(stream, Math.max(acknowledged.get(stream) ?? -1, Number(revision)));
      }
    });
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await ready;
  await new Promise((resolve) => setTimeout(resolve, killAfterMs));
  child.kill('SIGKILL');
  await exited;
  return acknowledged;
}

describe('Compaction killed mid-way', function () {
  this.timeout(60_000);

  for (const killAfterMs of [300, 900, 1700]) {
    it(`loses no acknowledged append and leaves the log verifying (killed ${killAfterMs} ms in)`, async () => {
      const dir = makeTempDir('vigil-compaction-crash');
      try {
        const path = `${dir.path}/vigil.db`;
        const acknowledged = await appendAndCompactUntilKilled(path, killAfterMs);
        expect(acknowledged.size).to.equal(8);
        const db = openSqliteDatabase(path);
        const store = new SqliteEventStore(db);
        expect(verifyLog(db)).to.include({ ok: true });
        expect(verifyLog(db).compacted_through).to.be.a('number');
        for (const [stream, revision] of acknowledged) {
          const [last] = await store.readStream(stream, { direction: 'backwards', maxCount: 1 });
          expect(last!.revision, stream).to.be.at.least(revision);
        }
        // And it goes on: appends follow on from each stream's anchor, and it verifies again.
        await store.appendToStream('pings-0', [{ type: 'PingReceived', data: { n: -1 } }]);
        expect(verifyLog(db)).to.include({ ok: true });
        await store.close();
        db.close();
      } finally {
        dir.remove();
      }
    });
  }
});
