import { expect } from 'chai';
import type { Actor } from '../../src/app/command-handler.js';
import { commandContext } from '../../src/app/context.js';
import { createMonitor, receivePing, updateMonitor } from '../../src/app/monitors.js';
import { createProject } from '../../src/app/projects.js';
import { MONITOR_DEFAULTS, type MonitorConfig } from '../../src/domain/monitors/monitor-config.js';
import type { EventStore } from '../../src/eventstore/event-store.js';
import { type EmbeddedStores, openEmbeddedStores } from '../support/embedded-stores.js';

const actor: Actor = { kind: 'system', user_id: null, api_key_id: null, request_id: 'r-1' };
const config: MonitorConfig = { ...MONITOR_DEFAULTS, name: 'Backup', slug: 'backup', type: 'JOB_HEARTBEAT', schedule: '1h', uptime: null };
const failure = { event: 'FAILURE' as const, run_id: null, exit_code: 1, duration_ms: null, message: null, payload: null, payload_truncated: false, payload_bytes: null, request_ip: null, request_ua: null };

/** The store as one process sees it, with `beforeNextWrite` run (once) just before its next append: another process's write. */
function racedStore(events: EventStore, beforeNextWrite: () => Promise<unknown>): EventStore {
  let pending: (() => Promise<unknown>) | null = beforeNextWrite;
  const interleave = async () => {
    const other = pending;
    pending = null;
    await other?.();
  };
  return Object.assign(Object.create(events) as EventStore, {
    appendToStream: async (...args: Parameters<EventStore['appendToStream']>) => (await interleave(), events.appendToStream(...args)),
    appendToStreams: async (...args: Parameters<NonNullable<EventStore['appendToStreams']>>) => (await interleave(), events.appendToStreams!(...args)),
  });
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
});
