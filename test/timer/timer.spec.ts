import { expect } from 'chai';
import { monitorStream, pingStream } from '../../src/domain/monitors/monitor.js';
import { Timer } from '../../src/timer/timer.js';
import { eventually } from '../support/eventually.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('Timer', () => {
  let vigil: TestVigil;
  let key: string;
  let projectId: string;
  beforeEach(async () => {
    vigil = await TestVigil.start();
    key = await vigil.accountKey(await vigil.user('timer@example.com'), ALL_SCOPES);
    projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Timed' } })).body.project.id;
  });
  afterEach(() => vigil.stop());

  /** A monitor that had its first ping when created: deadlines count only from then. */
  async function monitor(body: Record<string, unknown> = {}) {
    const created = await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Heartbeat', type: 'JOB_HEARTBEAT', schedule: '1h', ...body } });
    expect(created.status).to.equal(201);
    expect((await vigil.request('GET', `/v1/ping/${created.body.monitor.id}`)).status).to.equal(200);
    return (await read(created.body.monitor.id)) as { id: string; next_expected_at: string; created_at: string };
  }
  const read = async (id: string) => (await vigil.request('GET', `/v1/monitors/${id}`, { key })).body.monitor;
  const incidents = async (id: string) => (await vigil.request('GET', `/v1/monitors/${id}/incidents`, { key })).body.data;

  it('opens a MISSED incident at the deadline plus grace, stamped at the deadline even when noticed late', async () => {
    const m = await monitor();
    const deadline = new Date(Date.parse(m.next_expected_at) + 300_000).toISOString();
    vigil.clock.advance(HOUR + 5 * MINUTE - 1);
    await vigil.tick();
    expect(await read(m.id)).to.include({ status: 'UP', consecutive_misses: 0 });
    vigil.clock.advance(40_000);
    expect(await vigil.tick()).to.equal(1);
    expect(await read(m.id)).to.include({ status: 'DOWN', consecutive_misses: 1 });
    const [missed] = await incidents(m.id);
    expect(missed).to.include({ event: 'MISSED', status: 'OPEN', started_at: deadline });
    expect(missed.cause).to.match(/^No check-in for the run expected at .* within the 5 min grace period; 1 missed check-in$/);
  });

  it('fires twice harmlessly and moves on to the next slot', async () => {
    const m = await monitor({ schedule_tolerance: 3 });
    vigil.clock.advance(HOUR + 6 * MINUTE);
    await vigil.tick();
    await vigil.tick();
    const after = await read(m.id);
    expect(after).to.include({ consecutive_misses: 1, status: 'UP' });
    expect(after.next_expected_at).to.equal(new Date(Date.parse(m.next_expected_at) + HOUR).toISOString());
    const stream = await vigil.vigil.stores.events.readStream(`pings-${m.id}`);
    expect(stream.filter((e) => e.type === 'CheckInMissed')).to.have.length(1);
  });

  it('catches up after downtime: each missed slot counted once, one incident, then recovery on a ping', async () => {
    const m = await monitor({ schedule_tolerance: 2 });
    vigil.clock.advance(5 * HOUR + 10 * MINUTE);
    await vigil.tick();
    expect(await read(m.id)).to.include({ consecutive_misses: 5, status: 'DOWN' });
    const stream = await vigil.vigil.stores.events.readStream(`pings-${m.id}`);
    const deadlines = stream.filter((e) => e.type === 'CheckInMissed').map((e) => e.data['deadline_at']);
    expect(deadlines).to.deep.equal([1, 2, 3, 4, 5].map((n) => new Date(Date.parse(m.created_at) + n * HOUR + 5 * MINUTE).toISOString()));
    expect(await incidents(m.id)).to.have.length(1);

    await vigil.request('GET', `/v1/ping/${m.id}`);
    const recovered = await read(m.id);
    expect(recovered).to.include({ status: 'UP', consecutive_misses: 0 });
    expect(recovered.next_expected_at).to.equal(new Date(vigil.clock.now().getTime() + HOUR).toISOString());
    expect((await incidents(m.id))[0]).to.deep.include({ status: 'RESOLVED', resolved_by: { kind: 'system', reason: 'SUCCESS_PING' } });
  });

  it('skips paused monitors, and a resumed one counts its schedule from the resumption', async () => {
    const m = await monitor();
    await vigil.request('POST', `/v1/monitors/${m.id}/pause`, { key });
    vigil.clock.advance(3 * HOUR);
    expect(await vigil.tick()).to.equal(0);
    expect(await read(m.id)).to.include({ status: 'PAUSED', consecutive_misses: 0 });
    const resumed = (await vigil.request('POST', `/v1/monitors/${m.id}/resume`, { key })).body.monitor;
    expect(resumed.next_expected_at).to.equal(new Date(vigil.clock.now().getTime() + HOUR).toISOString());
    await vigil.tick();
    expect(await incidents(m.id)).to.deep.equal([]);
  });

  it('never expires JOB_BASIC monitors, and forgets deleted ones', async () => {
    const basic = await monitor({ type: 'JOB_BASIC', schedule: 'manual' });
    const doomed = await monitor();
    await vigil.request('DELETE', `/v1/monitors/${doomed.id}`, { key });
    vigil.clock.advance(48 * HOUR);
    expect(await vigil.tick()).to.equal(0);
    expect(await read(basic.id)).to.include({ status: 'UP', next_expected_at: null });
  });

  it('lets the other monitors through while one is slow to expire: it holds up one place, not a batch', async () => {
    const slow = await monitor();
    vigil.clock.advance(1000);
    const others = [await monitor(), await monitor()];
    const misses = async (id: string) => (await vigil.vigil.stores.events.readStream(pingStream(id))).filter((e) => e.type === 'CheckInMissed').length;
    // Two at a time, the slow one due first: batches of two would leave the third waiting on it.
    const timer = new Timer(vigil.commands, vigil.vigil.stores.readModels, { concurrency: 2 });
    let release!: () => void;
    const holding = vigil.commands.streamLocks.run(monitorStream(slow.id), () => new Promise<void>((resolve) => (release = resolve)));
    vigil.clock.advance(HOUR + 6 * MINUTE);
    await vigil.settle();

    const ticking = timer.tick();
    await eventually(async () => expect(await Promise.all(others.map((m) => misses(m.id)))).to.deep.equal([1, 1]));
    expect(await misses(slow.id)).to.equal(0);
    release();
    await holding;
    expect(await ticking).to.equal(3);
    expect(await misses(slow.id)).to.equal(1);
  });

  it('keeps JOB_CRON deadlines in the monitor time zone', async () => {
    const m = await monitor({ type: 'JOB_CRON', schedule: '30 2 * * *', timezone: 'America/New_York', grace_period_seconds: 60 });
    const local = new Date(m.next_expected_at).toLocaleString('en-US', { timeZone: 'America/New_York', hour: '2-digit', minute: '2-digit', hour12: false });
    expect(local).to.equal('02:30');
    vigil.clock.advance(Date.parse(m.next_expected_at) + 61_000 - vigil.clock.now().getTime());
    await vigil.tick();
    expect(await read(m.id)).to.include({ status: 'DOWN', consecutive_misses: 1 });
  });
});

describe('Timer: hung runs', () => {
  let vigil: TestVigil;
  let key: string;
  let projectId: string;
  beforeEach(async () => {
    vigil = await TestVigil.start();
    key = await vigil.accountKey(await vigil.user('hung@example.com'), ALL_SCOPES);
    projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Hung' } })).body.project.id;
  });
  afterEach(() => vigil.stop());

  const create = async (body: Record<string, unknown>) =>
    (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Job', max_duration_seconds: 600, ...body } })).body.monitor as { id: string };
  const read = async (id: string) => (await vigil.request('GET', `/v1/monitors/${id}`, { key })).body.monitor;
  const incidents = async (id: string) => (await vigil.request('GET', `/v1/monitors/${id}/incidents`, { key })).body.data;

  it('opens DURATION_HIGH when a START is not completed within max_duration_seconds, stamped at that deadline', async () => {
    const m = await create({ type: 'JOB_HEARTBEAT', schedule: '1d' });
    await vigil.request('GET', `/v1/ping/${m.id}/start?run_id=long`);
    const started = vigil.clock.now().getTime();
    vigil.clock.advance(10 * MINUTE - 1);
    await vigil.tick();
    expect(await incidents(m.id)).to.deep.equal([]);
    vigil.clock.advance(30_000);
    await vigil.tick();
    const [slow] = await incidents(m.id);
    expect(slow).to.include({ event: 'DURATION_HIGH', status: 'OPEN', started_at: new Date(started + 10 * MINUTE).toISOString() });
    expect(slow.cause).to.match(/has not finished within the 10 min maximum$/);
    expect(await read(m.id)).to.include({ status: 'UP' });
    await vigil.tick();
    expect(await incidents(m.id)).to.have.length(1);
  });

  it('on JOB_BASIC also closes the hung run as a failure (the watchdog): DOWN with a FAILED incident', async () => {
    const m = await create({ type: 'JOB_BASIC', schedule: 'on demand' });
    await vigil.request('GET', `/v1/ping/${m.id}/start`);
    vigil.clock.advance(11 * MINUTE);
    await vigil.tick();
    expect(await read(m.id)).to.include({ status: 'DOWN', consecutive_failures: 1 });
    expect((await incidents(m.id)).map((i: { event: string }) => i.event).sort()).to.deep.equal(['DURATION_HIGH', 'FAILED']);
    await vigil.request('GET', `/v1/ping/${m.id}`);
    expect(await read(m.id)).to.include({ status: 'UP', consecutive_failures: 0 });
  });

  it('leaves a run that completes in time alone', async () => {
    const m = await create({ type: 'JOB_BASIC', schedule: 'x' });
    await vigil.request('GET', `/v1/ping/${m.id}/start?run_id=a`);
    vigil.clock.advance(5 * MINUTE);
    await vigil.request('GET', `/v1/ping/${m.id}/success?run_id=a`);
    vigil.clock.advance(HOUR);
    expect(await vigil.tick()).to.equal(0);
    expect(await incidents(m.id)).to.deep.equal([]);
  });

  it('forgets a run under way when the monitor is paused: no incident dated inside the pause', async () => {
    const m = await create({ type: 'JOB_BASIC', schedule: 'x' });
    await vigil.request('GET', `/v1/ping/${m.id}/start`);
    vigil.clock.advance(10_000);
    await vigil.request('POST', `/v1/monitors/${m.id}/pause`, { key });
    vigil.clock.advance(30 * MINUTE);
    await vigil.request('POST', `/v1/monitors/${m.id}/resume`, { key });
    vigil.clock.advance(MINUTE);
    await vigil.tick();
    expect(await incidents(m.id)).to.deep.equal([]);
    expect(await read(m.id)).to.include({ status: 'UP', consecutive_failures: 0 });
  });

  it('leaves a run alone whose START came twice (a retry) and which completed in time', async () => {
    const m = await create({ type: 'JOB_BASIC', schedule: 'x' });
    await vigil.request('GET', `/v1/ping/${m.id}/start?run_id=job-1`);
    vigil.clock.advance(3000);
    await vigil.request('GET', `/v1/ping/${m.id}/start?run_id=job-1`);
    vigil.clock.advance(2 * MINUTE);
    await vigil.request('GET', `/v1/ping/${m.id}/success?run_id=job-1`);
    vigil.clock.advance(15 * MINUTE);
    expect(await vigil.tick()).to.equal(0);
    expect(await incidents(m.id)).to.deep.equal([]);
    expect(await read(m.id)).to.include({ status: 'UP', consecutive_failures: 0 });
  });
});

describe('Schedule preview', () => {
  let vigil: TestVigil;
  before(async () => (vigil = await TestVigil.start()));
  after(() => vigil.stop());

  it('shows the next five expected times in order, from next_expected_at', async () => {
    const key = await vigil.accountKey(await vigil.user('preview@example.com'), ALL_SCOPES);
    const projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Preview' } })).body.project.id;
    const monitor = (
      await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Weekdays', type: 'JOB_CRON', schedule: '0 9 * * 1-5', timezone: 'Europe/London' } })
    ).body.monitor;
    const preview = await vigil.request('GET', `/v1/monitors/${monitor.id}/schedule`, { key });
    expect(preview.status).to.equal(200);
    expect(preview.body).to.include({ type: 'JOB_CRON', timezone: 'Europe/London', next_expected_at: monitor.next_expected_at, early_checkin_window_seconds: 60 });
    expect(preview.body.upcoming).to.have.length(5);
    expect(preview.body.upcoming[0]).to.equal(monitor.next_expected_at);
    for (const at of preview.body.upcoming) {
      const day = new Date(at).toLocaleDateString('en-GB', { timeZone: 'Europe/London', weekday: 'short' });
      expect(['Mon', 'Tue', 'Wed', 'Thu', 'Fri']).to.include(day);
      expect(new Date(at).toLocaleTimeString('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit' })).to.equal('09:00');
    }
    expect([...preview.body.upcoming].sort()).to.deep.equal(preview.body.upcoming);
  });
});
