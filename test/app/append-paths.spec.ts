import { expect } from 'chai';
import type { Actor } from '../../src/app/command-handler.js';
import { commandContext } from '../../src/app/context.js';
import { createMonitor, receivePing, runMonitorCommand, updateMonitor } from '../../src/app/monitors.js';
import { addMember, createProject } from '../../src/app/projects.js';
import { MONITOR_DEFAULTS, type MonitorConfig, UPTIME_DEFAULTS } from '../../src/domain/monitors/monitor-config.js';
import { MonitorStates } from '../../src/app/monitor-states.js';
import type { EventStore } from '../../src/eventstore/event-store.js';
import { type EmbeddedStores, openEmbeddedStores } from '../support/embedded-stores.js';
import { losingAnswers, racedStore, withoutMultiStreamAppend } from '../support/store-wrappers.js';

const actor: Actor = { kind: 'system', user_id: null, api_key_id: null, request_id: 'r-1' };
const config: MonitorConfig = { ...MONITOR_DEFAULTS, name: 'Backup', slug: 'backup', type: 'JOB_HEARTBEAT', schedule: '1h', uptime: null };
const failure = { event: 'FAILURE' as const, run_id: null, exit_code: 1, duration_ms: null, message: null, payload: null, payload_truncated: false, payload_bytes: null, request_ip: null, request_ua: null };

/** Both ways Vigil appends: the embedded store's, and EventStoreDB's (no append to several streams at once). */
const paths: { name: string; wrap: (store: EventStore) => EventStore }[] = [
  { name: 'appending to both streams at once (embedded)', wrap: (store) => store },
  { name: 'appending stream by stream (EventStoreDB)', wrap: withoutMultiStreamAppend },
];

for (const path of paths) {
  describe(`Appends whose answer was lost, ${path.name}`, () => {
    let stores: EmbeddedStores;
    beforeEach(() => (stores = openEmbeddedStores()));
    afterEach(() => stores.dispose());

    it('records a ping once when the store committed it but its answer was lost, and the append was sent again', async () => {
      const setup = commandContext(stores.events);
      const { projectId } = await createProject(setup, { name: 'P', description: '', owner_id: 'owner' }, actor);
      const { monitorId } = await createMonitor(setup, { project_id: projectId, config, slugGiven: true }, actor);
      const lossy = losingAnswers(path.wrap(stores.events), 2);
      const context = commandContext(lossy);

      const recorded = await receivePing(context, monitorId, failure, actor);

      expect(lossy.lostAnswers()).to.equal(2);
      const pings = await stores.events.readStream(`pings-${monitorId}`);
      expect(pings.map((e) => e.data['ping_id'])).to.deep.equal([recorded.pingId]);
      const monitor = (await stores.events.readStream(`monitor-${monitorId}`)).map((e) => e.type);
      expect(monitor.filter((type) => type === 'IncidentOpened')).to.have.length(1);
    });

    it('records a command of any other stream once when its answer was lost', async () => {
      const setup = commandContext(stores.events);
      const { projectId } = await createProject(setup, { name: 'P', description: '', owner_id: 'owner' }, actor);
      const context = commandContext(losingAnswers(path.wrap(stores.events), 1));
      await addMember(context, { project_id: projectId, user_id: 'u-1', role: 'MEMBER' }, actor);
      const added = (await stores.events.readStream(`project-${projectId}`)).filter((e) => e.type === 'ProjectMemberAdded');
      expect(added.map((e) => e.data['user_id'])).to.deep.equal(['owner', 'u-1']);
    });
  });
}

for (const path of paths) {
  describe(`An uptime monitor's checks, ${path.name}`, () => {
    let stores: EmbeddedStores;
    beforeEach(() => (stores = openEmbeddedStores()));
    afterEach(() => stores.dispose());

    it('records the hourly summaries in a stream of their own, its window set before the first, and folds them again from scratch', async () => {
      const setup = commandContext(stores.events);
      const { projectId } = await createProject(setup, { name: 'P', description: '', owner_id: 'owner' }, actor);
      const uptime: MonitorConfig = { ...config, name: 'Site', slug: 'site', type: 'UPTIME_HTTP', schedule: '1m', retention_count: 10, uptime: { ...UPTIME_DEFAULTS, uptime_url: 'https://site.example.com/' } };
      const { monitorId } = await createMonitor(setup, { project_id: projectId, config: uptime, slugGiven: true }, actor);
      const context = commandContext(path.wrap(stores.events));
      // 25 checks a minute apart from 10:50: ten of the 10 o'clock hour, fifteen of the next.
      for (let i = 0; i < 25; i += 1) {
        const now = new Date(Date.parse('2026-03-01T10:50:00.000Z') + i * 60_000).toISOString();
        const check = { check_id: `c-${i}`, status_code: 200, response_time_ms: i, is_up: true, error: null, ssl_expires_at: null, ssl_issuer: null, check_region: 'local', check_status: 'ok' as const, cycle_id: null, attempts: 1 };
        await runMonitorCommand(context, { type: 'RecordCheck', monitor_id: monitorId, check, incident_ids: { failed: `f-${i}`, ssl: `s-${i}` }, ssl_warning_days: 14, repage_after_seconds: 3600, now }, actor);
      }

      expect((await stores.events.readStream(`monitor-${monitorId}`)).map((e) => e.type)).to.deep.equal(['MonitorCreated']);
      const summaries = await stores.events.readStream(`checkhours-${monitorId}`);
      expect(summaries.map((e) => [e.data['hour'], e.data['total'], e.data['previous_hour']])).to.deep.equal([
        ['2026-03-01T10:00:00.000Z', 10, null],
        ['2026-03-01T11:00:00.000Z', 10, '2026-03-01T10:00:00.000Z'],
      ]);
      // A minute's checks kept ten at a time: 93 days of hours, each with six summaries and the one closing it.
      const window = stores.db.prepare<[string], { max_count: number }>('SELECT max_count FROM es_streams WHERE stream = ?').get(`checkhours-${monitorId}`);
      expect(window?.max_count).to.equal(93 * 24 * 7);
      const kept = await new MonitorStates().load(stores.events, monitorId);
      const folded = await context.monitorStates.load(stores.events, monitorId);
      expect(kept).to.deep.equal(folded);
      expect(kept.state.unsummarizedHours.map((h) => [h.hour, h.total])).to.deep.equal([['2026-03-01T11:00:00.000Z', 5]]);
      expect(kept.summaryRevision).to.equal(1);
    });
  });
}

describe('A check decided on a fold another process moved past, appending to every stream at once (embedded)', () => {
  let stores: EmbeddedStores;
  beforeEach(() => (stores = openEmbeddedStores()));
  afterEach(() => stores.dispose());

  it('leaves the summaries\' window as wide as the newest summary says, though it had set a narrower one before its append was refused', async () => {
    const uptime: MonitorConfig = { ...config, name: 'Site', slug: 'site', type: 'UPTIME_HTTP', schedule: '1h', retention_count: 10, uptime: { ...UPTIME_DEFAULTS, uptime_url: 'https://site.example.com/' } };
    const setup = commandContext(stores.events);
    const { projectId } = await createProject(setup, { name: 'P', description: '', owner_id: 'owner' }, actor);
    const { monitorId } = await createMonitor(setup, { project_id: projectId, config: uptime, slugGiven: true }, actor);
    const checkAt = (context: ReturnType<typeof commandContext>, now: string) => runMonitorCommand(context, {
      type: 'RecordCheck', monitor_id: monitorId, incident_ids: { failed: `f-${now}`, ssl: `s-${now}` }, ssl_warning_days: 14, repage_after_seconds: 3600, now,
      check: { check_id: `c-${now}`, status_code: 200, response_time_ms: 5, is_up: true, error: null, ssl_expires_at: null, ssl_issuer: null, check_region: 'local', check_status: 'ok', cycle_id: null, attempts: 1 },
    }, actor);
    const window = () => stores.db.prepare<[string], { max_count: number }>('SELECT max_count FROM es_streams WHERE stream = ?').get(`checkhours-${monitorId}`)?.max_count;
    const first = commandContext(stores.events);
    await checkAt(first, '2026-03-01T10:30:00.000Z');
    // Another process checks it every minute from now on, and records the 10 o'clock hour's summary.
    const second = commandContext(stores.events);
    await updateMonitor(second, monitorId, { schedule: '1m' }, actor);
    await checkAt(second, '2026-03-01T11:05:00.000Z');
    expect(window()).to.equal(93 * 24 * 7);

    // The first, still folding the hourly schedule and an hour not summarized, sets that one's window first.
    await checkAt(first, '2026-03-01T11:06:00.000Z');

    expect((await stores.events.readStream(`checkhours-${monitorId}`)).map((e) => e.data['hour'])).to.deep.equal(['2026-03-01T10:00:00.000Z']);
    expect(window()).to.equal(93 * 24 * 7);
  });
});

describe('A timer fire racing a check-in, appending to both streams at once (embedded)', () => {
  let stores: EmbeddedStores;
  beforeEach(() => (stores = openEmbeddedStores()));
  afterEach(() => stores.dispose());

  it('is refused when the ping lands between its read and its append, and decided again: no CheckInMissed', async () => {
    const created = new Date('2026-03-01T00:00:00.000Z');
    const setup = commandContext(stores.events, { clock: () => created });
    const { projectId } = await createProject(setup, { name: 'P', description: '', owner_id: 'owner' }, actor);
    const { monitorId } = await createMonitor(setup, { project_id: projectId, config, slugGiven: true }, actor);
    // Its first ping, at creation: deadlines count from it.
    await receivePing(setup, monitorId, { ...failure, event: 'SUCCESS', exit_code: 0 }, actor);
    // The check-in, from another process, a minute before the deadline (1 h + 5 min grace).
    const pinger = commandContext(stores.events, { clock: () => new Date('2026-03-01T01:04:00.000Z') });
    const ping = () => receivePing(pinger, monitorId, { ...failure, event: 'SUCCESS', exit_code: 0 }, actor);
    const timer = commandContext(racedStore(stores.events, ping), { clock: () => new Date('2026-03-01T01:05:00.000Z') });

    await runMonitorCommand(timer, { type: 'ExpireDeadlines', monitor_id: monitorId, incident_ids: { missed: 'i-1', overdue: 'i-2', failed: 'i-3' }, repage_after_seconds: 3600, now: '2026-03-01T01:05:00.000Z' }, actor);

    const types = (await stores.events.readStream(`monitor-${monitorId}`)).map((e) => e.type);
    // The first ping and the racing check-in.
    expect(await stores.events.readStream(`pings-${monitorId}`)).to.have.length(2);
    expect(types).to.not.include('CheckInMissed');
    expect(types).to.not.include('IncidentOpened');
  });
});

describe('A timer fire racing a check-in, appending stream by stream (EventStoreDB)', () => {
  let stores: EmbeddedStores;
  beforeEach(() => (stores = openEmbeddedStores()));
  afterEach(() => stores.dispose());

  it('loses to the ping landing between its read and its append, and decides again: no CheckInMissed, no MISSED incident', async () => {
    const created = new Date('2026-03-01T00:00:00.000Z');
    const setup = commandContext(stores.events, { clock: () => created });
    const { projectId } = await createProject(setup, { name: 'P', description: '', owner_id: 'owner' }, actor);
    const { monitorId } = await createMonitor(setup, { project_id: projectId, config, slugGiven: true }, actor);
    await receivePing(setup, monitorId, { ...failure, event: 'SUCCESS', exit_code: 0 }, actor);
    // The check-in, from another process, a minute before the deadline (1 h + 5 min grace), lands
    // after the timer read the streams and before it appends.
    const pinger = commandContext(withoutMultiStreamAppend(stores.events), { clock: () => new Date('2026-03-01T01:04:00.000Z') });
    const ping = () => receivePing(pinger, monitorId, { ...failure, event: 'SUCCESS', exit_code: 0 }, actor);
    const timer = commandContext(racedStore(withoutMultiStreamAppend(stores.events), ping), { clock: () => new Date('2026-03-01T01:05:00.000Z') });

    await runMonitorCommand(timer, { type: 'ExpireDeadlines', monitor_id: monitorId, incident_ids: { missed: 'i-1', overdue: 'i-2', failed: 'i-3' }, repage_after_seconds: 3600, now: '2026-03-01T01:05:00.000Z' }, actor);

    const recorded = [...(await stores.events.readStream(`monitor-${monitorId}`)), ...(await stores.events.readStream(`pings-${monitorId}`))].map((e) => e.type);
    expect(recorded.filter((type) => type === 'PingReceived')).to.have.length(2);
    expect(recorded).to.not.include('CheckInMissed');
    expect(recorded).to.not.include('IncidentOpened');
    expect(recorded).to.not.include('MonitorWentDown');
  });
});

describe('A timer fire whose second append loses a race, appending stream by stream (EventStoreDB)', () => {
  let stores: EmbeddedStores;
  beforeEach(() => (stores = openEmbeddedStores()));
  afterEach(() => stores.dispose());

  it('keeps the misses it recorded and decides again what follows from them: DOWN with one MISSED incident', async () => {
    const created = new Date('2026-03-01T00:00:00.000Z');
    const setup = commandContext(stores.events, { clock: () => created });
    const { projectId } = await createProject(setup, { name: 'P', description: '', owner_id: 'owner' }, actor);
    const { monitorId } = await createMonitor(setup, { project_id: projectId, config, slugGiven: true }, actor);
    await receivePing(setup, monitorId, { ...failure, event: 'SUCCESS', exit_code: 0 }, actor);
    // Another process renames the monitor after the timer recorded its miss, before it records what follows.
    const other = commandContext(withoutMultiStreamAppend(stores.events), { clock: () => new Date('2026-03-01T01:05:00.000Z') });
    let appends = 0;
    const base = withoutMultiStreamAppend(stores.events);
    const store: EventStore = {
      ...base,
      appendToStream: async (...args) => {
        appends += 1;
        if (appends === 2) await updateMonitor(other, monitorId, { name: 'Renamed' }, actor);
        return base.appendToStream(...args);
      },
    };
    const timer = commandContext(store, { clock: () => new Date('2026-03-01T01:05:00.000Z') });

    const outcome = await runMonitorCommand(timer, { type: 'ExpireDeadlines', monitor_id: monitorId, incident_ids: { missed: 'i-1', overdue: 'i-2', failed: 'i-3' }, repage_after_seconds: 3600, now: '2026-03-01T01:05:00.000Z' }, actor);

    const pings = (await stores.events.readStream(`pings-${monitorId}`)).map((e) => e.type);
    const monitor = (await stores.events.readStream(`monitor-${monitorId}`)).map((e) => e.type);
    expect(pings).to.deep.equal(['PingReceived', 'CheckInMissed']);
    expect(monitor.filter((type) => type !== 'MonitorCreated')).to.deep.equal(['MonitorUpdated', 'MonitorWentDown', 'IncidentOpened', 'PageScheduled']);
    expect(outcome.state.health).to.equal('DOWN');
    expect(outcome.events.map((e) => e.type)).to.deep.equal(['CheckInMissed', 'MonitorWentDown', 'IncidentOpened', 'PageScheduled']);
    // Its evidence names the miss, as if nothing had raced it.
    const evidence = (await stores.events.readStream('incident-i-1')).find((e) => e.type === 'IncidentEvidenceRecorded');
    expect(JSON.stringify(evidence?.data['evidence'])).to.contain('CheckInMissed');
  });
});
