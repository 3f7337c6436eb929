import { expect } from 'chai';
import { LISTENING_STREAM, OUTAGES_STREAM } from '../../src/domain/listening/listening.js';
import { pingStream } from '../../src/domain/monitors/monitor.js';
import type { RecordedEvent } from '../../src/eventstore/event-store.js';
import { type Target, reply, startTarget } from '../support/http-targets.js';
import { ALL_SCOPES, TestClock, TestVigil } from '../support/test-vigil.js';
import { postKeySignIn } from '../support/people.js';

const SECOND = 1000;
const START = Date.parse('2026-11-21T12:00:00.000Z');
const at = (seconds: number) => new Date(START + seconds * SECOND).toISOString();

/**
 * Issue 31: heartbeat jobs every 5 s with 2 s of grace keep pinging while Vigil is stopped for 43 s.
 * Each spec drives a real server on a temp SQLite dir by the test clock: every second of Vigil
 * running, the jobs due ping it, the timer fires and, every other second, the Ping API confirms
 * that it is listening, as its loop does.
 */
describe('Vigil\'s own outages', function () {
  this.timeout(120_000);
  let vigil: TestVigil;
  let sink: Target;
  let key: string;
  let channelId: string;
  let projectId: string;
  /** Seconds since 12:00:00 on the test clock. */
  let elapsed = 0;

  beforeEach(async () => {
    elapsed = 0;
    sink = await startTarget(reply(200, 'ok'));
    vigil = await TestVigil.start({ clock: new TestClock(START) });
    await vigil.listen();
    key = await vigil.accountKey(await vigil.user('ops@example.com'), ALL_SCOPES);
    projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Jobs' } })).body.project.id;
    const channel = await vigil.request('POST', '/v1/notification-channels', { key, body: { project_id: projectId, name: 'Pager', type: 'WEBHOOK', config: { url: `${sink.url}/hook` } } });
    expect(channel.status, channel.text).to.equal(201);
    channelId = channel.body.channel.id;
  });
  afterEach(async () => {
    await vigil.stop();
    await sink.close();
  });

  /** `n` heartbeat monitors every 5 s with 2 s of grace, paging the webhook, each pinged once at 12:00:00. */
  async function heartbeats(n: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i += 1) {
      const body = { project_id: projectId, name: `Job ${i}`, type: 'JOB_HEARTBEAT', schedule: '5s', grace_period_seconds: 2, notification_channel_ids: [channelId] };
      const created = await vigil.request('POST', '/v1/monitors', { key, body });
      expect(created.status, created.text).to.equal(201);
      ids.push(created.body.monitor.id);
    }
    await Promise.all(ids.map(ping));
    return ids;
  }
  const ping = async (id: string) => expect((await vigil.request('GET', `/v1/ping/${id}`)).status).to.equal(200);

  /** Vigil running for `seconds`: the jobs in `pinging` ping every 5 s, the timer fires every second, the Ping API confirms every other. */
  async function run(seconds: number, pinging: readonly string[]): Promise<void> {
    for (let s = 0; s < seconds; s += 1) {
      vigil.clock.advance(SECOND);
      elapsed += 1;
      if (elapsed % 5 === 0) await Promise.all(pinging.map(ping));
      await vigil.tick();
      if (elapsed % 2 === 0) await vigil.listen();
    }
  }

  /** Vigil stopped (SIGTERM) for `seconds` while the jobs ping on unheard; then started again on the same data. */
  async function stopFor(seconds: number): Promise<void> {
    await vigil.stopKeepingData();
    vigil.clock.advance(seconds * SECOND);
    elapsed += seconds;
    vigil = await TestVigil.reopen(vigil.dataDir, vigil.env, vigil.clock);
  }

  const read = (stream: string) => vigil.vigil.stores.events.readStream(stream);
  const ofType = (events: RecordedEvent[], type: string) => events.filter((e) => e.type === type);
  const incidents = async (id: string) => (await vigil.request('GET', `/v1/monitors/${id}/incidents`, { key })).body.data as { event: string; started_at: string; monitor_id: string }[];
  const pages = () => sink.seen.map((r) => JSON.parse(r.body) as { event: string; incident: { monitor_id: string; started_at: string } });

  it('opens no incident and sends no page for jobs that kept pinging while Vigil was stopped longer than their grace', async () => {
    const jobs = await heartbeats(5);
    await run(12, jobs);
    await stopFor(43);
    // The timer fires before the Ping API has confirmed again: the silence since its last
    // confirmation is an outage under way, not misses.
    await vigil.tick();
    await vigil.listen();
    await run(20, jobs);
    await vigil.notify();

    expect(pages()).to.deep.equal([]);
    for (const id of jobs) {
      expect(await incidents(id)).to.deep.equal([]);
      const observed = await read(pingStream(id));
      expect(ofType(observed, 'CheckInMissed')).to.deep.equal([]);
      // 12:00:15 to 12:00:55 fell due while Vigil was not listening, and the slot after it.
      const unheard = ofType(observed, 'CheckInUnheard').map((e) => [e.data['expected_at'], e.data['last_expected_at'], e.data['slots']]);
      expect(unheard).to.deep.equal([[at(15), at(50), 8], [at(55), at(55), 1]]);
    }
    const [outage, ...more] = await read(OUTAGES_STREAM);
    expect(more).to.deep.equal([]);
    expect(outage!.data).to.deep.equal({ from: at(12), to: at(55), noticed: 'START', silent_seconds: 43 });
    // The confirmations are kept to the last one, and the history keeps none of them.
    expect(await read(LISTENING_STREAM)).to.have.length(1);
    expect(await vigil.vigil.stores.readModels.count('audit_events', { type: 'ListeningConfirmed' })).to.equal(0);
    expect(await vigil.vigil.stores.readModels.count('audit_events', { type: 'ListeningInterrupted' })).to.equal(1);
  });

  it('catches a job that stopped during the outage at its first slot after the excused window, and pages about it alone', async () => {
    const [healthy, dead] = await heartbeats(2) as [string, string];
    await run(12, [healthy, dead]);
    await stopFor(43);
    await vigil.listen();
    await run(20, [healthy]);
    await vigil.notify();

    expect(await incidents(healthy)).to.deep.equal([]);
    // Back at 12:00:55: the slots expected up to one interval later are excused (12:00:55 and
    // 12:01:00, due by 12:01:02); the one expected at 12:01:05 is missed at its deadline.
    const [missed, ...others] = await incidents(dead);
    expect(others).to.deep.equal([]);
    expect(missed).to.include({ event: 'MISSED', started_at: at(67) });
    expect(pages().map((p) => [p.event, p.incident.monitor_id])).to.deep.equal([['incident.opened', dead]]);
  });

  it('declares no run hung whose end Vigil could not have heard, and forgets it', async () => {
    const body = { project_id: projectId, name: 'Backup', type: 'JOB_BASIC', schedule: 'manual', max_duration_seconds: 20, notification_channel_ids: [channelId] };
    const job = (await vigil.request('POST', '/v1/monitors', { key, body })).body.monitor.id as string;
    expect((await vigil.request('GET', `/v1/ping/${job}/start`)).status).to.equal(200);
    await run(12, []);
    // Its end, at 12:00:15 say, went unheard; its 12:00:20 deadline fell while Vigil was stopped.
    await stopFor(43);
    await vigil.listen();
    await run(30, []);
    await vigil.notify();

    expect(await incidents(job)).to.deep.equal([]);
    expect(pages()).to.deep.equal([]);
    const [unheard, ...more] = ofType(await read(pingStream(job)), 'RunUnheard');
    expect(more).to.deep.equal([]);
    expect(unheard!.data).to.include({ started_at: at(0), deadline_at: at(20), outage_from: at(12), outage_to: at(55) });
    expect(ofType(await read(pingStream(job)), 'RunOverdue')).to.deep.equal([]);
    // Forgotten: the timer has nothing more to fire for it.
    expect((await vigil.vigil.stores.readModels.get<{ due_at: string | null }>('deadlines', job))!.doc.due_at).to.equal(null);
  });

  it('shows the unheard slots in the monitor\'s history, its API and its console page', async () => {
    const [job] = await heartbeats(1) as [string];
    await run(12, [job]);
    await stopFor(43);
    await vigil.listen();
    await run(10, [job]);

    const history = await vigil.request('GET', `/v1/monitors/${job}/events?type=CheckInUnheard`, { key });
    expect(history.status).to.equal(200);
    expect(history.body.data.map((e: { data: Record<string, unknown> }) => e.data)).to.deep.equal([
      { monitor_id: job, project_id: projectId, expected_at: at(15), last_expected_at: at(50), deadline_at: at(52), slots: 8, outage_from: at(12), outage_to: at(55), next_expected_at: at(55), counters: history.body.data[0].data.counters },
      { monitor_id: job, project_id: projectId, expected_at: at(55), last_expected_at: at(55), deadline_at: at(57), slots: 1, outage_from: at(12), outage_to: at(55), next_expected_at: at(60), counters: history.body.data[1].data.counters },
    ]);
    expect(history.body.data[0].data.counters).to.include({ consecutive_misses: 0 });
    const monitor = (await vigil.request('GET', `/v1/monitors/${job}`, { key })).body.monitor;
    expect(monitor).to.include({ status: 'UP', consecutive_misses: 0 });

    const signIn = await postKeySignIn(vigil.url, { api_key: key });
    const cookie = `vigil_session=${/vigil_session=([^;]+)/.exec(signIn.headers.get('set-cookie') ?? '')?.[1]}`;
    const page = await (await fetch(`${vigil.url}/monitors/${job}`, { headers: { Cookie: cookie } })).text();
    expect(page).to.contain('<h2 id="unheard">Not heard</h2>');
    expect(page).to.contain('8 check-ins expected from Sat, 21 Nov 2026, 12:00:15 UTC to Sat, 21 Nov 2026, 12:00:50 UTC');
    expect(page).to.contain('The check-in expected at Sat, 21 Nov 2026, 12:00:55 UTC');
  });

  it('doubles nothing when the clock is stepped backwards after an outage', async () => {
    const [healthy, dead] = await heartbeats(2) as [string, string];
    await run(12, [healthy, dead]);
    await stopFor(43);
    await vigil.listen();
    await run(15, [healthy]);
    vigil.clock.advance(-30 * SECOND);
    elapsed -= 30;
    await run(45, [healthy]);
    await vigil.notify();

    expect(await read(OUTAGES_STREAM)).to.have.length(1);
    expect(await incidents(healthy)).to.deep.equal([]);
    expect(await incidents(dead)).to.have.length(1);
    const observed = await read(pingStream(dead));
    const slots = [...ofType(observed, 'CheckInMissed'), ...ofType(observed, 'CheckInUnheard')].map((e) => e.data['expected_at']);
    expect(new Set(slots).size).to.equal(slots.length);
    expect(pages().map((p) => [p.event, p.incident.monitor_id])).to.deep.equal([['incident.opened', dead]]);
  });

  describe('a gap noticed while running (the process paused, the machine suspended, the clock stepped forward)', () => {
    for (const first of ['the Ping API\'s late confirmation', 'the timer'] as const) {
      it(`is excused too when ${first} comes first`, async () => {
        const jobs = await heartbeats(3);
        await run(12, jobs);
        // Nothing runs for 30 s, and the jobs' pings then go unheard; then the loops wake, late.
        vigil.clock.advance(30 * SECOND);
        elapsed += 30;
        if (first === 'the timer') await vigil.tick();
        await vigil.listen();
        await run(20, jobs);
        await vigil.notify();

        expect(pages()).to.deep.equal([]);
        for (const id of jobs) expect(await incidents(id)).to.deep.equal([]);
        const [outage, ...more] = await read(OUTAGES_STREAM);
        expect(more).to.deep.equal([]);
        expect(outage!.data).to.deep.equal({ from: at(12), to: at(42), noticed: 'RUNNING', silent_seconds: 30 });
      });
    }
  });
});
