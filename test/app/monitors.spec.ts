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
});
