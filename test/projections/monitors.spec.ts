import { expect } from 'chai';
import { jobMonitor } from '../support/job-monitor.js';
import { TestVigil } from '../support/test-vigil.js';

/** The monitors read model keeps what a dashboard row shows but its runs, which are read from the log (test/queries/recent-runs.spec.ts). */
describe('Monitors projection: the dashboard row', function () {
  this.timeout(60_000);
  let vigil: TestVigil;

  afterEach(async () => {
    await vigil?.stop();
  });

  async function setUp(body: Record<string, unknown>) {
    vigil = await TestVigil.start();
    return jobMonitor(vigil, body);
  }

  it('records when the monitor last heard anything, and how long its pings stream was then', async () => {
    const { doc, ping } = await setUp({});
    expect((await doc()).last_seen_at).to.equal(null);
    expect((await doc()).pings_stream_length).to.equal(0);

    await ping('start');
    vigil.clock.advance(90_000);
    await ping('0');
    vigil.clock.advance(60_000);
    await ping('log');

    const row = await doc();
    expect(row.last_seen_at).to.equal(vigil.clock.now().toISOString());
    expect(row.pings_stream_length).to.equal(3);
  });

  it('does not keep the runs themselves: the log holds them', async () => {
    const { doc, ping } = await setUp({});
    await ping('0');
    expect(await doc()).not.to.have.property('recent_runs');
  });

  it('is not part of the monitor the API returns', async () => {
    const { key, id, ping } = await setUp({});
    await ping('0');
    const { body } = await vigil.request('GET', `/v1/monitors/${id}`, { key });
    expect(body.monitor).not.to.have.property('recent_runs');
    expect(body.monitor).not.to.have.property('last_seen_at');
  });
});
