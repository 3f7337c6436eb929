import { expect } from 'chai';
import { racedStore } from '../support/store-wrappers.js';
import type { Actor } from '../../src/app/command-handler.js';
import { commandContext } from '../../src/app/context.js';
import { createMonitor, receivePing, updateMonitor } from '../../src/app/monitors.js';
import { createProject } from '../../src/app/projects.js';
import { DomainError } from '../../src/domain/errors.js';
import { MONITOR_DEFAULTS, type MonitorConfig } from '../../src/domain/monitors/monitor-config.js';
import { type EmbeddedStores, openEmbeddedStores } from '../support/embedded-stores.js';

const actor: Actor = { kind: 'system', user_id: null, api_key_id: null, request_id: 'r-1' };
const job = (name: string, slug: string): MonitorConfig => ({ ...MONITOR_DEFAULTS, name, slug, type: 'JOB_BASIC', schedule: 'x', uptime: null });
const failure = { event: 'FAILURE' as const, run_id: null, exit_code: 1, duration_ms: null, message: null, payload: null, payload_truncated: false, payload_bytes: null, request_ip: null, request_ua: null };


describe('Monitor dependencies over the embedded store', () => {
  let stores: EmbeddedStores;
  let projectId: string;
  const other = () => commandContext(stores.events);
  const types = async (stream: string) => (await stores.events.readStream(stream)).map((e) => e.type);
  beforeEach(async () => {
    stores = openEmbeddedStores();
    projectId = (await createProject(other(), { name: 'P', description: '', owner_id: 'owner' }, actor)).projectId;
  });
  afterEach(() => stores.dispose());

  it('decides a dependent’s incident again when its dependency went DOWN between the read and the append, and pages nobody', async () => {
    const { monitorId: database } = await createMonitor(other(), { project_id: projectId, config: job('Database', 'database'), slugGiven: true }, actor);
    const { monitorId: dependent } = await createMonitor(other(), { project_id: projectId, config: { ...job('Report', 'report'), depends_on: [database] }, slugGiven: true }, actor);
    // This process reads the database UP; another records its failure before this one appends.
    const store = racedStore(stores.events, () => receivePing(other(), database, failure, actor));

    const outcome = await receivePing(commandContext(store), dependent, failure, actor);

    expect(store.raced()).to.equal(true);
    expect(await types(`monitor-${database}`)).to.include('MonitorWentDown');
    const recorded = await types(`monitor-${dependent}`);
    expect(recorded).to.include.members(['IncidentOpened', 'IncidentCausedUpstream']);
    expect(recorded).to.not.include('PageScheduled');
    const caused = (await stores.events.readStream(`monitor-${dependent}`)).find((e) => e.type === 'IncidentCausedUpstream');
    expect(caused?.data).to.include({ upstream_monitor_id: database, upstream_monitor_name: 'Database' });
    expect(outcome.pingId).to.be.a('string');
  });

  it('refuses a dependency that closes a cycle with a change another process recorded between the read and the append', async () => {
    const { monitorId: a } = await createMonitor(other(), { project_id: projectId, config: job('Alpha', 'alpha'), slugGiven: true }, actor);
    const { monitorId: b } = await createMonitor(other(), { project_id: projectId, config: job('Beta', 'beta'), slugGiven: true }, actor);
    // This process reads Beta depending on nothing; another makes Beta depend on Alpha before this one appends.
    const store = racedStore(stores.events, () => updateMonitor(other(), b, { depends_on: [a] }, actor));

    let refused: unknown;
    try {
      await updateMonitor(commandContext(store), a, { depends_on: [b] }, actor);
    } catch (error) {
      refused = error;
    }

    expect(store.raced()).to.equal(true);
    expect(refused).to.be.instanceOf(DomainError);
    expect((refused as DomainError).message).to.equal('depends_on would form a cycle: "Alpha" → "Beta" → "Alpha"');
    expect((await types(`monitor-${a}`)).filter((type) => type === 'MonitorUpdated')).to.have.length(0);
  });
});
