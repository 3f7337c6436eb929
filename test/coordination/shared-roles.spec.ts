import { expect } from 'chai';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pino } from 'pino';
import { SecretBox } from '../../src/app/secret-box.js';
import { LeasedClaims } from '../../src/coordination/work-claims.js';
import { Checker } from '../../src/checker/checker.js';
import { Notifier } from '../../src/notifier/notifier.js';
import { eventually } from '../support/eventually.js';
import { slotOf } from '../../src/coordination/partitions.js';
import { loadConfig } from '../../src/main/config.js';
import { type RunningVigil, startVigil } from '../../src/main/vigil.js';
import { type Target, reply, startTarget } from '../support/http-targets.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const TTL = 10 * MINUTE;
const PARTITIONS = 16;
const ROLES = ['timer', 'checker', 'notifier'] as const;

/**
 * Two processes' worth of timer, checker and notifier on one SQLite file: `a` also serves the API
 * and projects, `b` only works. Time is the test's clock; each instance renews its leases only when
 * the test says it is alive, so "killing" one is simply no longer letting it renew or tick.
 */
describe('Timer, checker and notifier instances sharing one store', function () {
  this.timeout(60_000);
  let a: TestVigil;
  let b: RunningVigil;
  let sink: Target;
  let held: ServerResponse[];
  let holdReplies: boolean;
  let site: Target;
  let key: string;
  let projectId: string;
  beforeEach(async () => {
    held = [];
    holdReplies = false;
    sink = await startTarget((request, response) => (holdReplies ? held.push(response) : reply(200, 'ok')(request, response)));
    site = await startTarget(reply(500, 'down'));
    a = await TestVigil.start({ env: { VIGIL_LEASE_TTL_MS: String(TTL), VIGIL_PARTITIONS: String(PARTITIONS), VIGIL_CHECK_RETRIES: '0' } });
    b = await startVigil(loadConfig(a.env), {
      roles: ['timer', 'checker', 'notifier'], manualTimer: true, processMetrics: false, clock: a.clock.now, logger: pino({ level: 'silent' }),
    });
    key = await a.accountKey(await a.user('shared@example.com'), ALL_SCOPES);
    projectId = (await a.request('POST', '/v1/projects', { key, body: { name: 'Shared' } })).body.project.id;
  });
  afterEach(async () => {
    await b.stop();
    await a.stop();
    await sink.close();
    await site.close();
  });

  const shareOf = (vigil: RunningVigil, role: (typeof ROLES)[number]) => vigil.shares[role]!;
  /** Moves time on in steps shorter than a renewal period, renewing the leases of the instances still alive. */
  async function advance(ms: number, alive: RunningVigil[]) {
    for (let left = ms; left > 0; left -= TTL / 4) {
      a.clock.advance(Math.min(left, TTL / 4));
      for (const vigil of alive) for (const role of ROLES) await shareOf(vigil, role).refresh();
    }
  }
  const holds = (vigil: RunningVigil, role: (typeof ROLES)[number], monitorId: string) => shareOf(vigil, role).owned().includes(slotOf(monitorId) % PARTITIONS);
  async function events(type: string) {
    return (await a.vigil.stores.events.readAll()).filter((e) => e.type === type);
  }
  async function notifyUntilQuiet(instances: RunningVigil[]) {
    let attempted = instances.map(() => 0);
    for (let round = 0; round < 10; round += 1) {
      await a.settle();
      const done = await Promise.all(instances.map((vigil) => vigil.notifier!.tick()));
      attempted = attempted.map((n, i) => n + done[i]!.attempted);
      if (done.every((d) => d.fannedOut === 0 && d.attempted === 0)) break;
    }
    await a.settle();
    return attempted;
  }
  async function seed() {
    const hook = (await a.request('POST', '/v1/notification-channels', { key, body: { project_id: projectId, name: 'hook', type: 'WEBHOOK', config: { url: `${sink.url}/hook` } } })).body.channel.id;
    const jobs: string[] = [];
    const sites: string[] = [];
    for (let i = 0; i < 16; i += 1) {
      const created = await a.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: `Job ${i}`, type: 'JOB_HEARTBEAT', schedule: '1h', notification_channel_ids: [hook] } });
      expect(created.status, created.text).to.equal(201);
      jobs.push(created.body.monitor.id);
      // Deadlines count from a monitor's first ping.
      expect((await a.request('GET', `/v1/ping/${created.body.monitor.id}`)).status).to.equal(200);
    }
    for (let i = 0; i < 8; i += 1) {
      const created = await a.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: `Site ${i}`, type: 'UPTIME_HTTP', schedule: '1h', uptime_url: site.url, notification_channel_ids: [hook] } });
      expect(created.status, created.text).to.equal(201);
      sites.push(created.body.monitor.id);
    }
    return { jobs, sites };
  }

  it('split the partitions between them, so each due deadline fires once, each check runs once and each page is delivered once', async () => {
    const { jobs, sites } = await seed();
    await advance(TTL, [a.vigil, b]);
    for (const role of ROLES) {
      const [mine, theirs] = [shareOf(a.vigil, role).owned(), shareOf(b, role).owned()];
      expect(mine, role).to.have.length(PARTITIONS / 2);
      expect([...mine, ...theirs].sort((x, y) => x - y), role).to.deep.equal([...Array(PARTITIONS).keys()]);
    }

    await advance(HOUR, [a.vigil, b]);
    await a.settle();
    const [firedByA, firedByB] = await Promise.all([a.vigil.timer!.tick(), b.timer!.tick()]);
    expect(firedByA).to.equal(jobs.filter((id) => holds(a.vigil, 'timer', id)).length);
    expect(firedByA + firedByB).to.equal(jobs.length);
    expect(firedByB).to.be.above(0);
    const [checkedByA, checkedByB] = await Promise.all([a.vigil.checker!.tick(), b.checker!.tick()]);
    expect(checkedByA + checkedByB).to.equal(sites.length);
    expect(checkedByA).to.equal(sites.filter((id) => holds(a.vigil, 'checker', id)).length);
    await a.settle();
    for (const id of sites) expect((await a.vigil.stores.events.readStream(`pings-${id}`)).filter((e) => e.type === 'CheckCompleted'), id).to.have.length(1);

    const [attemptedByA = 0, attemptedByB = 0] = await notifyUntilQuiet([a.vigil, b]);
    const pages = await events('PageScheduled');
    expect(pages).to.have.length(jobs.length + sites.length);
    expect(attemptedByA + attemptedByB).to.equal(pages.length);
    expect(attemptedByB).to.be.above(0);
    expect(sink.seen).to.have.length(pages.length);
    expect(new Set(sink.seen.map((r) => r.headers['webhook-id'])).size).to.equal(pages.length);
  });

  it('lets the survivor take over a killed instance\'s partitions after the ttl, so nothing it left undone is dropped', async () => {
    const { jobs, sites } = await seed();
    await advance(HOUR + 10 * MINUTE, [a.vigil, b]);
    await a.settle();
    // b is killed with work due in its partitions: nothing of it is done while its leases live.
    const aJobs = jobs.filter((id) => holds(a.vigil, 'timer', id));
    expect(await a.vigil.timer!.tick()).to.equal(aJobs.length);
    const aSites = sites.filter((id) => holds(a.vigil, 'checker', id));
    expect(await a.vigil.checker!.tick()).to.equal(aSites.length);
    await notifyUntilQuiet([a.vigil]);
    expect(sink.seen.length).to.be.below(jobs.length + sites.length);
    await advance(TTL - TTL / 4, [a.vigil]);
    expect(await a.vigil.timer!.tick(), 'still b\'s until its leases expire').to.equal(0);

    await advance(TTL / 4, [a.vigil]);
    for (const role of ROLES) expect(shareOf(a.vigil, role).owned(), role).to.have.length(PARTITIONS);
    await a.settle();
    expect(await a.vigil.timer!.tick()).to.equal(jobs.length - aJobs.length);
    expect(await a.vigil.checker!.tick()).to.equal(sites.length - aSites.length);
    await notifyUntilQuiet([a.vigil]);
    for (const id of sites) expect((await a.vigil.stores.events.readStream(`pings-${id}`)).filter((e) => e.type === 'CheckCompleted'), id).to.have.length(1);

    for (const id of jobs) expect((await a.vigil.stores.events.readStream(`pings-${id}`)).filter((e) => e.type === 'CheckInMissed'), id).to.have.length(1);
    const pages = await events('PageScheduled');
    expect(pages.map((p) => p.data['monitor_id']).sort()).to.deep.equal([...jobs, ...sites].sort());
    expect(sink.seen).to.have.length(pages.length);
    expect(new Set(sink.seen.map((r) => r.headers['webhook-id'])).size).to.equal(pages.length);
  });

  it('never lets two notifiers make the same delivery at once, as while a partition changes hands', async () => {
    const hook = (await a.request('POST', '/v1/notification-channels', { key, body: { project_id: projectId, name: 'hook', type: 'WEBHOOK', config: { url: `${sink.url}/hook` } } })).body.channel.id;
    const job = (await a.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Job', type: 'JOB_BASIC', schedule: 'x', notification_channel_ids: [hook] } })).body.monitor;
    await a.request('GET', `/v1/ping/${job.id}/fail`);
    await a.settle();
    // b's notifier believes it holds every partition, as an instance does whose view of the members is a renewal behind.
    const config = loadConfig(a.env);
    const overlapping = new Notifier(b.commands, b.stores.readModels, SecretBox.fromKeyFile(join(a.dataDir, 'secret.key')), config.notify, undefined, null, {
      claims: new LeasedClaims(b.stores.leases, 'notifier/delivery/', b.holder, 0, a.clock.now),
    });

    holdReplies = true;
    const sending = a.vigil.notifier!.tick();
    await eventually(() => expect(held).to.have.length(1));
    await a.settle();
    await overlapping.tick();
    expect(sink.seen, 'b left the delivery a is making alone').to.have.length(1);

    held[0]!.writeHead(200).end('ok');
    await sending;
    await a.settle();
    await overlapping.tick();
    expect(sink.seen).to.have.length(1);
    expect((await events('PageDelivered'))).to.have.length(1);
  });

  it('never lets two checkers probe a target for the same slot, as while a partition changes hands', async () => {
    let answer: (() => void) | null = null;
    const slow = await startTarget((request, response) => (answer = () => reply(200, 'ok')(request, response)));
    const monitor = (await a.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Site', type: 'UPTIME_HTTP', schedule: '1m', uptime_url: slow.url } })).body.monitor;
    await a.settle();
    const config = loadConfig(a.env);
    const overlapping = new Checker(b.commands, b.stores.readModels, { ...config.checks, extraCaPem: null, userAgent: 'test', maxSleepMs: 1000 }, undefined, undefined, {
      claims: new LeasedClaims(b.stores.leases, 'checker/check/', b.holder, 0, a.clock.now),
    });

    const checking = a.vigil.checker!.tick();
    await eventually(() => expect(slow.seen).to.have.length(1));
    expect(await overlapping.tick(), 'b found it due').to.equal(1);
    expect(slow.seen, 'but left the check a is making alone').to.have.length(1);
    answer!();
    await checking;
    await overlapping.tick();
    expect(slow.seen, 'nor made it again once a had recorded it').to.have.length(1);
    expect((await a.vigil.stores.events.readStream(`pings-${monitor.id}`)).filter((e) => e.type === 'CheckCompleted')).to.have.length(1);
    await slow.close();
  });
});
