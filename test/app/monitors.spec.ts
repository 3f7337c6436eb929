import { expect } from 'chai';
import { racedStore } from '../support/store-wrappers.js';
import type { Actor } from '../../src/app/command-handler.js';
import { commandContext } from '../../src/app/context.js';
import { changeMonitor, createMonitor, pauseMonitor, receivePing, runMonitorCommand, updateMonitor } from '../../src/app/monitors.js';
import { deleteMonitor } from '../../src/app/monitor-deletion.js';
import { createProject } from '../../src/app/projects.js';
import { MONITOR_DEFAULTS, type MonitorConfig } from '../../src/domain/monitors/monitor-config.js';
import { DomainError } from '../../src/domain/errors.js';
import type { EventStore, MultiStreamEventStore } from '../../src/eventstore/event-store.js';
import { type EmbeddedStores, openEmbeddedStores } from '../support/embedded-stores.js';

const actor: Actor = { kind: 'system', user_id: null, api_key_id: null, request_id: 'r-1' };
const config: MonitorConfig = { ...MONITOR_DEFAULTS, name: 'Backup', slug: 'backup', type: 'JOB_HEARTBEAT', schedule: '1h', uptime: null };
const failure = { event: 'FAILURE' as const, run_id: null, exit_code: 1, duration_ms: null, message: null, payload: null, payload_truncated: false, payload_bytes: null, request_ip: null, request_ua: null };

/** The store, counting the stream reads made through it. */
function countingReads(events: EventStore): { store: EventStore; reads: () => number } {
  let reads = 0;
  const store = Object.assign(Object.create(events) as EventStore, {
    readStream: (...args: Parameters<EventStore['readStream']>) => ((reads += 1), events.readStream(...args)),
  });
  return { store, reads: () => reads };
}


describe('runMonitorCommand', () => {
  let stores: EmbeddedStores;
  beforeEach(() => (stores = openEmbeddedStores()));
  afterEach(() => stores.dispose());

  it('records a ping and the incident it opens together, deciding again when another process changed the monitor in between', async () => {
    const other = commandContext(stores.events);
    const { projectId } = await createProject(other, { name: 'P', description: '', owner_id: 'owner' }, actor);
    const { monitorId } = await createMonitor(other, { project_id: projectId, config, slugGiven: true }, actor);
    // This process folds the monitor, then another renames it before this one appends the failure.
    const here = commandContext(racedStore(stores.events, () => updateMonitor(other, monitorId, { name: 'Nightly backup' }, actor)));

    const recorded = await receivePing(here, monitorId, failure, actor);

    const types = async (stream: string) => (await stores.events.readStream(stream)).map((e) => e.type);
    expect(await types(`pings-${monitorId}`)).to.deep.equal(['PingReceived']);
    expect(await types(`monitor-${monitorId}`)).to.include.members(['MonitorUpdated', 'MonitorWentDown', 'IncidentOpened']);
    const opened = (await stores.events.readStream(`monitor-${monitorId}`)).find((e) => e.type === 'IncidentOpened');
    expect(opened?.data['ping_id']).to.equal(recorded.pingId);
  });

  it('gives pings ids that sort in the order they came (UUIDv7, for the index), and monitors random ones (their id is a ping URL secret)', async () => {
    const context = commandContext(stores.events);
    const { projectId } = await createProject(context, { name: 'P', description: '', owner_id: 'owner' }, actor);
    const { monitorId } = await createMonitor(context, { project_id: projectId, config, slugGiven: true }, actor);
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push((await receivePing(context, monitorId, { ...failure, event: 'SUCCESS', exit_code: 0 }, actor)).pingId);
    expect([...ids].sort()).to.deep.equal(ids);
    for (const id of ids) expect(id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(monitorId).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  describe('deciding on the fold this process kept after its last command', () => {
    const success = { ...failure, event: 'SUCCESS' as const, exit_code: 0 };
    async function monitorPingedOnce(here: ReturnType<typeof commandContext>) {
      const { projectId } = await createProject(here, { name: 'P', description: '', owner_id: 'owner' }, actor);
      const { monitorId } = await createMonitor(here, { project_id: projectId, config, slugGiven: true }, actor);
      await receivePing(here, monitorId, success, actor);
      return monitorId;
    }

    it('reads neither stream for the next ping', async () => {
      const counted = countingReads(stores.events);
      const here = commandContext(counted.store);
      const monitorId = await monitorPingedOnce(here);
      const readsBefore = counted.reads();

      await receivePing(here, monitorId, { ...success, event: 'START' }, actor);
      await receivePing(here, monitorId, success, actor);

      expect(counted.reads()).to.equal(readsBefore);
      const totals = (await stores.events.readStream(`pings-${monitorId}`)).map((e) => e.data['total_pings_received']);
      expect(totals).to.deep.equal([1, 2, 3]);
    });

    it('is refused and decided again when another process paused the monitor since', async () => {
      const here = commandContext(stores.events);
      const monitorId = await monitorPingedOnce(here);
      await pauseMonitor(commandContext(stores.events), monitorId, actor);

      // A success changes nothing in the monitor stream, so only the check of its revision can tell.
      const recorded = await receivePing(here, monitorId, success, actor);

      expect(recorded.evaluated).to.equal(false);
    });

    it('is refused and decided again when another process recorded a ping since', async () => {
      const here = commandContext(stores.events);
      const monitorId = await monitorPingedOnce(here);
      await receivePing(commandContext(stores.events), monitorId, failure, actor);

      await receivePing(here, monitorId, failure, actor);

      const pings = await stores.events.readStream(`pings-${monitorId}`);
      expect(pings.map((e) => [e.data['total_pings_received'], e.data['consecutive_failures']])).to.deep.equal([[1, 0], [2, 1], [3, 2]]);
    });

    it('answers "not found" once another process has deleted the monitor, its streams gone', async () => {
      const here = commandContext(stores.events);
      const monitorId = await monitorPingedOnce(here);
      await deleteMonitor({ commands: commandContext(stores.events), readModels: stores.readModels, settled: async () => {} }, monitorId, null, actor);

      const refused = await receivePing(here, monitorId, success, actor).then(() => null, (error: unknown) => error);

      expect(refused).to.be.instanceOf(DomainError);
      expect(refused instanceof DomainError && refused.reason).to.equal('not_found');
    });
  });
});

describe('changeMonitor (a PATCH)', () => {
  let stores: EmbeddedStores;
  beforeEach(() => (stores = openEmbeddedStores()));
  afterEach(() => stores.dispose());

  /** The store, failing (as a crash would) every append after the first `allowed` to the monitor's stream. */
  function crashingAfter(events: MultiStreamEventStore, allowed: number): EventStore {
    let appends = 0;
    const guard = (streams: readonly string[]) => {
      if (!streams.some((s) => s.startsWith('monitor-'))) return;
      appends += 1;
      if (appends > allowed) throw new Error('process killed');
    };
    return Object.assign(Object.create(events) as EventStore, {
      appendToStream: async (...args: Parameters<EventStore['appendToStream']>) => (guard([args[0]]), events.appendToStream(...args)),
      appendToStreams: async (...args: Parameters<MultiStreamEventStore['appendToStreams']>) => (guard(args[0].filter((a) => a.events.length > 0).map((a) => a.streamName)), events.appendToStreams(...args)),
    });
  }

  const by = { user_id: 'u-1', email: 'ops@example.test', api_key_id: 'k-1' };

  it('records new settings and a pause in one append, so a crash after it leaves neither half', async () => {
    const context = commandContext(stores.events);
    const { projectId } = await createProject(context, { name: 'P', description: '', owner_id: 'owner' }, actor);
    const { monitorId } = await createMonitor(context, { project_id: projectId, config, slugGiven: true }, actor);

    // Only one more append to the monitor's stream is allowed: the whole PATCH must fit in it.
    await changeMonitor(commandContext(crashingAfter(stores.events, 1)), monitorId, { patch: { name: 'Nightly backup' }, status: 'PAUSED', by: null }, actor);

    const types = (await stores.events.readStream(`monitor-${monitorId}`)).map((e) => e.type);
    expect(types).to.deep.equal(['MonitorCreated', 'MonitorUpdated', 'MonitorPaused']);
  });

  it('resumes a paused monitor, forces it UP and takes new settings in one decision', async () => {
    const context = commandContext(stores.events);
    const { projectId } = await createProject(context, { name: 'P', description: '', owner_id: 'owner' }, actor);
    const { monitorId } = await createMonitor(context, { project_id: projectId, config, slugGiven: true }, actor);
    await pauseMonitor(context, monitorId, actor);

    const outcome = await changeMonitor(commandContext(crashingAfter(stores.events, 1)), monitorId, { patch: { grace_period_seconds: 600 }, status: 'UP', by }, actor);

    expect(outcome.events.map((e) => e.type)).to.deep.equal(['MonitorUpdated', 'MonitorResumed', 'MonitorCountersReset']);
    expect(outcome.state.paused).to.equal(false);
    expect(outcome.state.config?.grace_period_seconds).to.equal(600);
  });
});

describe('monitor slugs', () => {
  let stores: EmbeddedStores;
  beforeEach(() => (stores = openEmbeddedStores()));
  afterEach(() => stores.dispose());

  const slugOf = async (monitorId: string, which: 'first' | 'last' = 'first') => {
    const [event] = await stores.events.readStream(`monitor-${monitorId}`, { maxCount: 1, direction: which === 'first' ? 'forwards' : 'backwards' });
    return (event?.data['config'] as { slug: string }).slug;
  };
  /** The rename's own decision, without the claim and release around it (the claim was written by hand). */
  const runRename = (context: ReturnType<typeof commandContext>, monitorId: string) =>
    runMonitorCommand(context, { type: 'UpdateMonitor', monitor_id: monitorId, patch: { slug: 'nightly' }, last_ping_seq: null, now: context.clock().toISOString() }, actor);

  it('gives monitors created at the same moment distinct slugs, and one explicit slug to one of them', async () => {
    const context = commandContext(stores.events);
    const { projectId } = await createProject(context, { name: 'P', description: '', owner_id: 'owner' }, actor);

    const derived = await Promise.all([1, 2, 3, 4].map(() => createMonitor(context, { project_id: projectId, config, slugGiven: false }, actor)));
    const explicit = await Promise.allSettled([1, 2, 3].map(() => createMonitor(context, { project_id: projectId, config: { ...config, slug: 'exp' }, slugGiven: true }, actor)));

    expect((await Promise.all(derived.map((m) => slugOf(m.monitorId)))).sort()).to.deep.equal(['backup', 'backup-2', 'backup-3', 'backup-4']);
    expect(explicit.map((outcome) => outcome.status).sort()).to.deep.equal(['fulfilled', 'rejected', 'rejected']);
    for (const outcome of explicit) if (outcome.status === 'rejected') expect(String(outcome.reason)).to.match(/slug exp is already used/);
  });

  it('takes over the slug of a creation that failed half-way once a creation could no longer be under way', async () => {
    let now = new Date('2026-11-21T10:00:00.000Z');
    const context = commandContext(stores.events, { clock: () => now });
    const { projectId } = await createProject(context, { name: 'P', description: '', owner_id: 'owner' }, actor);
    // A claim whose monitor was never created, as a crash between the two appends leaves it.
    await stores.events.appendToStream(`monitorslug-${projectId}-backup`, [
      { type: 'SlugClaimed', data: { project_id: projectId, slug: 'backup', monitor_id: 'never-created', claimed_at: now.toISOString() } },
    ]);

    now = new Date(now.getTime() + 59_000);
    const refused = await createMonitor(context, { project_id: projectId, config, slugGiven: true }, actor).catch((error: unknown) => error);
    expect(String(refused)).to.match(/slug backup is already used/);
    now = new Date(now.getTime() + 1_000);
    const { monitorId } = await createMonitor(context, { project_id: projectId, config, slugGiven: true }, actor);
    expect(await slugOf(monitorId)).to.equal('backup');
  });
  it('frees the old slug of a rename that stopped before releasing it, once the rename could no longer be under way', async () => {
    let now = new Date('2026-11-21T10:00:00.000Z');
    const context = commandContext(stores.events, { clock: () => now });
    const { projectId } = await createProject(context, { name: 'P', description: '', owner_id: 'owner' }, actor);
    const { monitorId } = await createMonitor(context, { project_id: projectId, config, slugGiven: true }, actor);
    // Renamed to "nightly" with "backup" still claimed for it, as a crash before the release leaves it.
    await stores.events.appendToStream(`monitorslug-${projectId}-nightly`, [
      { type: 'SlugClaimed', data: { project_id: projectId, slug: 'nightly', monitor_id: monitorId, claimed_at: now.toISOString() } },
    ]);
    await runRename(context, monitorId);

    now = new Date(now.getTime() + 59_000);
    const early = await createMonitor(context, { project_id: projectId, config, slugGiven: true }, actor).catch((error: unknown) => error);
    expect(String(early)).to.match(/slug backup is already used/);
    now = new Date(now.getTime() + 1_000);
    const { monitorId: second } = await createMonitor(context, { project_id: projectId, config, slugGiven: true }, actor);
    expect(await slugOf(second)).to.equal('backup');
    expect(await slugOf(monitorId, 'last')).to.equal('nightly');
  });
});

describe("the log's window over a monitor's pings", () => {
  let stores: EmbeddedStores;
  beforeEach(() => (stores = openEmbeddedStores()));
  afterEach(() => stores.dispose());

  /** The store, writing down each change of a ping stream's max count and each monitor event appended, in order. */
  function journaled(events: MultiStreamEventStore): { store: EventStore; journal: string[] } {
    const journal: string[] = [];
    const note = (appends: { streamName: string; events: readonly { type: string }[] }[]) => {
      for (const a of appends) if (a.streamName.startsWith('monitor-')) journal.push(...a.events.map((e) => e.type));
    };
    const store = Object.assign(Object.create(events) as EventStore, {
      setStreamMaxCount: async (stream: string, maxCount: number) => (journal.push(`window ${maxCount}`), events.setStreamMaxCount(stream, maxCount)),
      appendToStream: async (...args: Parameters<EventStore['appendToStream']>) => (note([{ streamName: args[0], events: args[1] }]), events.appendToStream(...args)),
      appendToStreams: async (...args: Parameters<MultiStreamEventStore['appendToStreams']>) => (note([...args[0]]), events.appendToStreams(...args)),
    });
    return { store, journal };
  }

  it('grows before the event that grows the history, and shrinks after the one that shrinks it: a crash between leaves the log holding every ping the history does', async () => {
    const { store, journal } = journaled(stores.events);
    const context = commandContext(store);
    const { projectId } = await createProject(context, { name: 'P', description: '', owner_id: 'owner' }, actor);
    const { monitorId } = await createMonitor(context, { project_id: projectId, config: { ...config, retention_count: 50 }, slugGiven: true }, actor);
    await updateMonitor(context, monitorId, { retention_count: 80 }, actor);
    await updateMonitor(context, monitorId, { retention_count: 20 }, actor);
    await updateMonitor(context, monitorId, { name: 'Renamed' }, actor);
    expect(journal).to.deep.equal(['window 50', 'MonitorCreated', 'window 80', 'MonitorUpdated', 'MonitorUpdated', 'window 20', 'MonitorUpdated']);
  });

  it('is put back when the update that would have grown it is refused', async () => {
    const { store, journal } = journaled(stores.events);
    const context = commandContext(store);
    const { projectId } = await createProject(context, { name: 'P', description: '', owner_id: 'owner' }, actor);
    const { monitorId } = await createMonitor(context, { project_id: projectId, config: { ...config, retention_count: 50, max_duration_seconds: 100 }, slugGiven: true }, actor);
    const refused = await updateMonitor(context, monitorId, { retention_count: 80, min_duration_seconds: 200 }, actor).catch((error: unknown) => error);
    expect(refused).to.be.instanceOf(DomainError);
    expect(journal).to.deep.equal(['window 50', 'MonitorCreated', 'window 80', 'window 50']);
  });
});
