import { expect } from 'chai';
import type { MonitorDocument } from '../../projections/monitors.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

/** The monitors read model keeps what a dashboard row shows, so a dashboard is one query however many monitors. */
describe('Monitors projection: the dashboard row', function () {
  this.timeout(60_000);
  let vigil: TestVigil;

  afterEach(async () => {
    await vigil?.stop();
  });

  async function setUp(body: Record<string, unknown>) {
    vigil = await TestVigil.start();
    const owner = await vigil.user('owner@example.com');
    const key = await vigil.accountKey(owner, ALL_SCOPES);
    const project = await vigil.project(owner);
    const created = await vigil.request('POST', '/v1/monitors', { key, body: { project_id: project, name: 'Nightly', type: 'JOB_BASIC', schedule: '0 3 * * *', ...body } });
    expect(created.status).to.equal(201);
    const id: string = created.body.monitor.id;
    const doc = async () => {
      await vigil.settle();
      return (await vigil.vigil.stores.readModels.get<MonitorDocument>('monitors', id))!.doc;
    };
    const ping = async (suffix: string) => expect((await fetch(`${vigil.url}/v1/ping/${id}/${suffix}`, { method: 'POST' })).status).to.equal(200);
    return { id, key, doc, ping };
  }

  it('records when the monitor last heard anything and each finished run, with its outcome and duration', async () => {
    const { doc, ping } = await setUp({});
    expect((await doc()).last_seen_at).to.equal(null);
    expect((await doc()).recent_runs).to.deep.equal([]);

    const startedAt = vigil.clock.now().toISOString();
    await ping('start');
    vigil.clock.advance(90_000);
    await ping('0');
    const succeededAt = vigil.clock.now().toISOString();
    vigil.clock.advance(60_000);
    await ping('log');
    const loggedAt = vigil.clock.now().toISOString();
    vigil.clock.advance(60_000);
    await ping('fail');
    const failedAt = vigil.clock.now().toISOString();
    vigil.clock.advance(60_000);
    await ping('start');

    const row = await doc();
    expect(startedAt < succeededAt && succeededAt < loggedAt).to.equal(true);
    expect(row.recent_runs.map(({ ping_number: _, ...run }) => run)).to.deep.equal([
      { at: succeededAt, ok: true, duration_ms: 90_000 },
      { at: failedAt, ok: false, duration_ms: null },
    ]);
    expect(row.last_seen_at).to.equal(vigil.clock.now().toISOString());
  });

  it('keeps the last 30 runs', async () => {
    const { doc, ping } = await setUp({});
    for (let i = 0; i < 35; i++) {
      await ping(i === 34 ? 'fail' : '0');
      vigil.clock.advance(1000);
    }
    const runs = (await doc()).recent_runs;
    expect(runs).to.have.length(30);
    expect(runs.at(-1)!.ok).to.equal(false);
    expect(runs.filter((r) => !r.ok)).to.have.length(1);
  });

  it('keeps fewer runs when the monitor retains fewer pings', async () => {
    const { doc, ping } = await setUp({ retention_count: 10 });
    for (let i = 0; i < 14; i++) await ping('0');
    expect((await doc()).recent_runs).to.have.length(10);
  });

  it('is not part of the monitor the API returns', async () => {
    const { key, id, ping } = await setUp({});
    await ping('0');
    const { body } = await vigil.request('GET', `/v1/monitors/${id}`, { key });
    expect(body.monitor).not.to.have.property('recent_runs');
    expect(body.monitor).not.to.have.property('last_seen_at');
  });
});
