import { expect } from 'chai';
import { join } from 'node:path';
import { AsOfBusyError, AsOfThread } from '../../src/audit/as-of-reader.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

const MINUTE = 60_000;

describe('As-of queries on a thread of their own', function () {
  this.timeout(30_000);
  let vigil: TestVigil;
  let key: string;
  let projectId: string;
  let monitorId: string;
  let down: string;
  before(async () => {
    vigil = await TestVigil.start();
    key = await vigil.accountKey(await vigil.user('thread@example.com'), ALL_SCOPES);
    projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Threaded' } })).body.project.id;
    monitorId = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Job', type: 'JOB_BASIC', schedule: 'x', alert_enabled: false } })).body.monitor.id;
    await vigil.request('GET', `/v1/ping/${monitorId}/fail`);
    down = new Date(vigil.clock.now().getTime() + 30_000).toISOString();
    vigil.clock.advance(MINUTE);
    await vigil.request('GET', `/v1/ping/${monitorId}`);
    await vigil.settle();
  });
  after(() => vigil.stop());

  it('are answered through a connection of their own, not the stores of the thread that answers pings', async () => {
    const { readModels, events } = vigil.vigil.stores;
    const { count } = readModels;
    const { readStream } = events;
    const refuse = () => Promise.reject(new Error('read on the thread that answers pings'));
    Object.assign(readModels, { count: refuse });
    Object.assign(events, { readStream: refuse });
    try {
      const incidents = await vigil.request('GET', `/v1/incidents?project_id=${projectId}&as_of=${down}`, { key });
      expect(incidents.status).to.equal(200);
      expect(incidents.body.data.map((i: { status: string }) => i.status)).to.deep.equal(['OPEN']);
      expect(incidents.body.pagination.total).to.equal(1);
      const monitor = await vigil.request('GET', `/v1/monitors/${monitorId}?as_of=${down}`, { key });
      expect(monitor.status).to.equal(200);
      expect(monitor.body.monitor).to.include({ status: 'DOWN', total_pings_received: 1 });
    } finally {
      Object.assign(readModels, { count });
      Object.assign(events, { readStream });
    }
  });

  it('are refused with AsOfBusyError past the number allowed to wait, and answered again once those are done; a thread closed starts again', async () => {
    const thread = new AsOfThread(join(vigil.dataDir, 'vigil.db'), 1);
    try {
      const first = thread.incidents({ project_id: projectId }, down, { page: 1, limit: 20 });
      const second = await thread.monitor(monitorId, down).catch((error: unknown) => error);
      expect(second).to.be.instanceOf(AsOfBusyError);
      expect((await first).total).to.equal(1);
      expect((await thread.monitor(monitorId, down))?.status).to.equal('DOWN');
      await thread.close();
      expect((await thread.incidents({ project_id: projectId }, down, { page: 1, limit: 20 })).docs.map((i) => i.status)).to.deep.equal(['OPEN']);
    } finally {
      await thread.close();
    }
  });
});
