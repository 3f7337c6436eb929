import { statSync } from 'node:fs';
import { expect } from 'chai';
import { verifyLog } from '../../src/audit/verify-log.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

describe('A server left running past retention', function () {
  this.timeout(120_000);

  it('keeps its file and WAL within a small bound of their size at the first pass, and its log verifying', async () => {
    const vigil = await TestVigil.start();
    try {
      const key = await vigil.accountKey(await vigil.user('ops@example.com'), ALL_SCOPES);
      const projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Jobs' } })).body.project.id;
      const monitors: string[] = [];
      for (let m = 0; m < 10; m += 1) {
        const body = { project_id: projectId, name: `Job ${m}`, type: 'JOB_HEARTBEAT', schedule: '1h', retention_count: 10 };
        monitors.push((await vigil.request('POST', '/v1/monitors', { key, body })).body.monitor.id);
      }
      const db = vigil.vigil.stores.sqliteDb!;
      const size = () => {
        db.pragma('wal_checkpoint(TRUNCATE)');
        return statSync(`${vigil.dataDir}/vigil.db`).size + (statSync(`${vigil.dataDir}/vigil.db-wal`, { throwIfNoEntry: false })?.size ?? 0);
      };
      /** Each monitor pinged 210 times: its retention passed 21 times over, 2,000 rows to fold in all. */
      const pass = async () => {
        for (let round = 0; round < 210; round += 1) {
          const answers = await Promise.all(monitors.map((id) => vigil.request('GET', `/v1/ping/${id}`)));
          expect(answers.map((a) => a.status)).to.deep.equal(monitors.map(() => 200));
        }
        await vigil.settle();
        // The server's own compactor, as its loop runs it every 30 s.
        expect((await vigil.vigil.compactor!.compactOnce()).kind).to.equal('compacted');
      };
      await pass();
      const firstPass = size();
      for (let n = 0; n < 3; n += 1) await pass();
      expect(size()).to.be.at.most(firstPass * 1.15);
      expect(verifyLog(db)).to.include({ ok: true });
    } finally {
      await vigil.stop();
    }
  });
});
