import { expect } from 'chai';
import type { MonitorDocument } from '../../projections/monitors.js';
import type { EventStore, ReadStreamOptions, RecordedEvent } from '../../src/eventstore/event-store.js';
import { RUNS_SHOWN, RecentRuns } from '../../src/queries/recent-runs.js';
import { startTarget } from '../support/http-targets.js';
import { jobMonitor } from '../support/job-monitor.js';
import { ALL_SCOPES, TestClock, TestVigil } from '../support/test-vigil.js';

/** Counts the events read from the log, to see what a refresh reads again. */
function countingReads(events: EventStore): { events: EventStore; read: () => number } {
  let read = 0;
  const counted = Object.create(events) as EventStore;
  counted.readStream = async (streamName: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> => {
    const found = await events.readStream(streamName, options);
    read += found.length;
    return found;
  };
  return { events: counted, read: () => read };
}

describe('Recent runs: a dashboard row\'s sparkline, read from the log', function () {
  this.timeout(60_000);
  let vigil: TestVigil;

  afterEach(async () => {
    await vigil?.stop();
  });

  async function setUp(body: Record<string, unknown> = {}) {
    vigil = await TestVigil.start();
    const job = await jobMonitor(vigil, body);
    const reads = countingReads(vigil.vigil.stores.events);
    const recentRuns = new RecentRuns(reads.events);
    const runs = async () => (await recentRuns.of([await job.doc()])).get(job.id)!;
    return { ...job, runs, read: reads.read };
  }

  it('lists each finished run with its outcome and duration, oldest first, and nothing else a job pings', async () => {
    const { ping, runs } = await setUp();
    expect(await runs()).to.deep.equal([]);

    await ping('start');
    vigil.clock.advance(90_000);
    await ping('0');
    const succeededAt = vigil.clock.now().toISOString();
    vigil.clock.advance(60_000);
    await ping('log');
    vigil.clock.advance(60_000);
    await ping('fail');
    const failedAt = vigil.clock.now().toISOString();
    vigil.clock.advance(60_000);
    await ping('start');

    expect(await runs()).to.deep.equal([
      { at: succeededAt, ok: true, durationMs: 90_000 },
      { at: failedAt, ok: false, durationMs: null },
    ]);
  });

  it(`shows the last ${RUNS_SHOWN} runs, reading back past pings that are not runs`, async () => {
    const { ping, runs } = await setUp();
    for (let i = 0; i < 35; i++) {
      await ping('start');
      await ping(i === 34 ? 'fail' : '0');
      vigil.clock.advance(1000);
    }
    const shown = await runs();
    expect(shown).to.have.length(RUNS_SHOWN);
    expect(shown.at(-1)!.ok).to.equal(false);
    expect(shown.filter((r) => !r.ok)).to.have.length(1);
    expect(shown.every((r) => r.durationMs !== null)).to.equal(true);
  });

  it('shows only runs still within the monitor\'s retention window', async () => {
    const { ping, runs } = await setUp({ retention_count: 10 });
    for (let i = 0; i < 14; i++) await ping('0');
    expect(await runs()).to.have.length(10);
  });

  it('drops what falls out of a window made smaller, from runs it had already read', async () => {
    const { id, key, ping, runs } = await setUp();
    for (let i = 0; i < 14; i++) await ping('0');
    expect(await runs()).to.have.length(14);
    const patched = await vigil.request('PATCH', `/v1/monitors/${id}`, { key, body: { retention_count: 10 } });
    expect(patched.status).to.equal(200);
    expect(await runs()).to.have.length(10);
  });

  it('follows on from what it read before: a refresh reads only the events appended since', async () => {
    const { ping, runs, read } = await setUp();
    for (let i = 0; i < 20; i++) await ping('0');
    expect(await runs()).to.have.length(20);
    const first = read();
    expect(first).to.equal(20);

    await runs();
    expect(read()).to.equal(first);

    vigil.clock.advance(1000);
    await ping('fail');
    await ping('log');
    const shown = await runs();
    expect(read()).to.equal(first + 2);
    expect(shown).to.have.length(21);
    expect(shown.at(-1)!.ok).to.equal(false);
  });

  it('shows no run the monitor\'s document has not taken in yet, so the row agrees with itself', async () => {
    const { id, doc, ping, runs } = await setUp();
    await ping('0');
    const taken = await doc();
    // Appended to the log after the document was read: as if the projector had not reached it.
    await ping('fail');
    const recentRuns = new RecentRuns(vigil.vigil.stores.events);
    const shown = (await recentRuns.of([taken])).get(id)!;
    expect(shown.map((r) => r.ok)).to.deep.equal([true]);
    expect((await runs()).map((r) => r.ok)).to.deep.equal([true, false]);
  });

  it('lists an uptime monitor\'s checks as its runs, with their response times', async () => {
    const start = Date.parse('2026-11-21T12:00:00.000Z');
    const clock = new TestClock(start);
    // The check of the third minute finds the site down, its retries too.
    const target = await startTarget((_request, response) => {
      response.writeHead(Math.floor((clock.now().getTime() - start) / 60_000) === 2 ? 503 : 200);
      response.end('ok');
    });
    try {
      vigil = await TestVigil.start({ clock });
      const key = await vigil.accountKey(await vigil.user('uptime@example.com'), ALL_SCOPES);
      const projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Uptime' } })).body.project.id;
      const created = await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Site', type: 'UPTIME_HTTP', schedule: '1m', uptime_url: target.url } });
      expect(created.status).to.equal(201);
      const id: string = created.body.monitor.id;
      for (let i = 0; i < 4; i += 1) {
        expect(await vigil.check()).to.equal(1);
        clock.advance(60_000);
      }
      const doc = (await vigil.vigil.stores.readModels.get<MonitorDocument>('monitors', id))!.doc;
      const shown = (await new RecentRuns(vigil.vigil.stores.events).of([doc])).get(id)!;
      expect(shown.map((r) => r.ok)).to.deep.equal([true, true, false, true]);
      expect(shown.every((r) => typeof r.durationMs === 'number')).to.equal(true);
    } finally {
      await target.close();
    }
  });
});
