import { expect } from 'chai';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

const PING_KEYS = [
  'id', 'run_id', 'event', 'exit_code', 'duration_ms', 'duration_assertion', 'message', 'payload', 'payload_truncated',
  'payload_bytes', 'request_ip', 'request_ua', 'started_at', 'created_at',
];

describe('Ping history, retention and warnings', () => {
  let vigil: TestVigil;
  let key: string;
  let projectId: string;
  before(async () => {
    vigil = await TestVigil.start();
    key = await vigil.accountKey(await vigil.user('history@example.com'), ALL_SCOPES);
    projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'History' } })).body.project.id;
  });
  after(() => vigil.stop());

  async function monitor(body: Record<string, unknown> = {}) {
    return (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Job', type: 'JOB_HEARTBEAT', schedule: '1h', failure_tolerance: 100, ...body } })).body
      .monitor as { id: string };
  }
  const ping = (id: string, suffix = '') => vigil.request('GET', `/v1/ping/${id}${suffix}`);
  const pings = (id: string, query = '') => vigil.request('GET', `/v1/monitors/${id}/pings${query}`, { key });

  it('answers each ping with exactly the 14 documented keys, newest first', async () => {
    const m = await monitor();
    await ping(m.id, '/start');
    await ping(m.id);
    const history = await pings(m.id);
    expect(history.body.data.map((p: { event: string }) => p.event)).to.deep.equal(['SUCCESS', 'START']);
    for (const p of history.body.data) expect(Object.keys(p)).to.deep.equal(PING_KEYS);
    expect(history.body.pagination).to.deep.equal({ page: 1, limit: 20, total: 2, total_pages: 1, has_next: false, has_prev: false });
  });

  for (const type of ['JOB_BASIC', 'JOB_HEARTBEAT'] as const) {
    it(`measures a ${type} run that outlived max_duration_seconds from its START when it finally ends, as TOO_SLOW`, async () => {
      const m = await monitor({ type, max_duration_seconds: 60, schedule: type === 'JOB_BASIC' ? 'whenever' : '1h' });
      await ping(m.id, '/start?run_id=slow');
      vigil.clock.advance(90_000);
      await vigil.tick();
      const finished = await ping(m.id, '/success?run_id=slow');
      expect(finished.status).to.equal(200);
      const [success] = (await pings(m.id, '?event=SUCCESS')).body.data;
      expect(success).to.include({ run_id: 'slow', duration_ms: 90_000, duration_assertion: 'TOO_SLOW' });
      expect((await pings(m.id, '?duration_assertion=TOO_SLOW')).body.data.map((p: { id: string }) => p.id)).to.deep.equal([success.id]);
    });
  }

  it('filters by event, run_id, exit_code, duration_assertion and a date range', async () => {
    const m = await monitor({ max_duration_seconds: 10 });
    const t0 = vigil.clock.now().toISOString();
    await ping(m.id, '/start?run_id=a');
    vigil.clock.advance(20_000);
    await ping(m.id, '/success?run_id=a');
    vigil.clock.advance(60_000);
    const t1 = vigil.clock.now().toISOString();
    await ping(m.id, '/3?run_id=b');
    await ping(m.id, '/log');
    const count = async (query: string) => (await pings(m.id, query)).body.pagination.total;
    expect(await count('?event=START')).to.equal(1);
    expect(await count('?event=SUCCESS,FAILURE')).to.equal(2);
    expect(await count('?run_id=a')).to.equal(2);
    expect(await count('?exit_code=3')).to.equal(1);
    expect(await count('?duration_assertion=TOO_SLOW')).to.equal(1);
    expect(await count(`?from_date=${t1}`)).to.equal(2);
    expect(await count(`?from_date=${t0}&to_date=${new Date(Date.parse(t1) - 1).toISOString()}`)).to.equal(2);
    expect((await pings(m.id, '?event=PING')).body.error).to.equal('event has unknown value PING; accepted values are START, SUCCESS, FAILURE, LOG');
    expect((await pings(m.id, '?duration_assertion=SLOW')).status).to.equal(400);
    expect((await pings(m.id, '?from_date=yesterday')).body.error).to.match(/^from_date must be an ISO 8601 date-time/);
    expect((await pings(m.id, '?limit=100')).status).to.equal(200);
    expect((await pings(m.id, '?limit=101')).body.error).to.equal('limit must be an integer from 1 to 100');
  });

  it('keeps only the newest retention_count pings, in the read model and in the event store, while incidents survive', async () => {
    const m = await monitor({ retention_count: 10, failure_tolerance: 1 });
    await ping(m.id, '/fail');
    for (let i = 0; i < 14; i++) await ping(m.id, `?run_id=r${i}`);
    const history = await pings(m.id, '?limit=100');
    expect(history.body.pagination.total).to.equal(10);
    expect(history.body.data.map((p: { run_id: string }) => p.run_id)).to.deep.equal(Array.from({ length: 10 }, (_, i) => `r${13 - i}`));
    const logged = await vigil.vigil.stores.events.readStream(`pings-${m.id}`);
    expect(logged.map((e) => e.revision)).to.deep.equal([5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
    expect((await vigil.request('GET', `/v1/monitors/${m.id}`, { key })).body.monitor.total_pings_received).to.equal(15);
    const incidents = (await vigil.request('GET', `/v1/monitors/${m.id}/incidents`, { key })).body.data;
    expect(incidents.map((i: { event: string; status: string }) => [i.event, i.status])).to.deep.equal([['FAILED', 'RESOLVED']]);
  });

  it('applies a smaller retention_count to the history already kept', async () => {
    const m = await monitor({ retention_count: 50 });
    for (let i = 0; i < 15; i++) await ping(m.id);
    await vigil.request('PATCH', `/v1/monitors/${m.id}`, { key, body: { retention_count: 10 } });
    expect((await pings(m.id)).body.pagination.total).to.equal(10);
    expect(await vigil.vigil.stores.events.readStream(`pings-${m.id}`)).to.have.length(10);
  });

  it('keeps counters across truncation: failures counted before the oldest kept ping still count', async () => {
    const m = await monitor({ retention_count: 10, failure_tolerance: 12 });
    for (let i = 0; i < 11; i++) await ping(m.id, '/fail');
    await vigil.stopKeepingData();
    const restarted = await TestVigil.reopen(vigil.dataDir, vigil.env, vigil.clock);
    vigil = restarted;
    expect((await vigil.request('GET', `/v1/monitors/${m.id}`, { key })).body.monitor).to.include({ consecutive_failures: 11, status: 'UP' });
    await vigil.request('GET', `/v1/ping/${m.id}/fail`);
    expect((await vigil.request('GET', `/v1/monitors/${m.id}`, { key })).body.monitor).to.include({ consecutive_failures: 12, status: 'DOWN' });
  });

  describe('warnings', () => {
    it('answers the exact shape, with nothing to say about a well-wired monitor', async () => {
      const m = await monitor();
      await ping(m.id, '/start?run_id=1');
      await ping(m.id, '/success?run_id=1');
      const warnings = await vigil.request('GET', `/v1/monitors/${m.id}/warnings`, { key });
      expect(warnings.status).to.equal(200);
      expect(Object.keys(warnings.body)).to.deep.equal(['warnings', 'analyzed_period']);
      expect(warnings.body.warnings).to.deep.equal([]);
      expect(Object.keys(warnings.body.analyzed_period)).to.deep.equal(['from', 'to', 'total_pings']);
      expect(warnings.body.analyzed_period.total_pings).to.equal(2);
      expect(Date.parse(warnings.body.analyzed_period.to) - Date.parse(warnings.body.analyzed_period.from)).to.equal(7 * 86_400_000);
    });

    it('flags missing run ids, missing STARTs, unfinished runs, pings far too frequent, and LOG-only pings', async () => {
      const types = async (id: string) => (await vigil.request('GET', `/v1/monitors/${id}/warnings`, { key })).body.warnings.map((w: { type: string }) => w.type);

      const noRunId = await monitor();
      await ping(noRunId.id, '/start');
      await ping(noRunId.id);
      expect(await types(noRunId.id)).to.include('MISSING_RUN_ID');

      const noStart = await monitor({ max_duration_seconds: 60 });
      await ping(noStart.id);
      await ping(noStart.id);
      expect(await types(noStart.id)).to.include('MISSING_START');

      const unfinished = await monitor({ max_duration_seconds: 60 });
      await ping(unfinished.id, '/start?run_id=x');
      vigil.clock.advance(120_000);
      expect(await types(unfinished.id)).to.include('UNFINISHED_RUNS');

      const frequent = await monitor({ schedule: '1h' });
      for (let i = 0; i < 6; i++) {
        await ping(frequent.id);
        vigil.clock.advance(60_000);
      }
      const flagged = (await vigil.request('GET', `/v1/monitors/${frequent.id}/warnings`, { key })).body.warnings;
      const tooFrequent = flagged.find((w: { type: string }) => w.type === 'PINGS_TOO_FREQUENT');
      expect(tooFrequent).to.include({ affected_count: 6 });
      expect(Object.keys(tooFrequent)).to.deep.equal(['type', 'message', 'affected_count', 'recommendation']);

      const logOnly = await monitor();
      await ping(logOnly.id, '/log');
      expect(await types(logOnly.id)).to.deep.equal(['ONLY_LOG_PINGS']);
    });

    it('looks at the last 7 days only', async () => {
      const m = await monitor();
      await ping(m.id, '/log');
      vigil.clock.advance(8 * 86_400_000);
      const warnings = (await vigil.request('GET', `/v1/monitors/${m.id}/warnings`, { key })).body;
      expect(warnings.analyzed_period.total_pings).to.equal(0);
      expect(warnings.warnings).to.deep.equal([]);
    });
  });
});
