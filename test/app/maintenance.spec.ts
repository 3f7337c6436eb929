import { expect } from 'chai';
import type { Actor } from '../../src/app/command-handler.js';
import { commandContext } from '../../src/app/context.js';
import { scheduleMaintenanceWindow } from '../../src/app/maintenance.js';
import { createMonitor, receivePing } from '../../src/app/monitors.js';
import { createProject } from '../../src/app/projects.js';
import { MONITOR_DEFAULTS, type MonitorConfig } from '../../src/domain/monitors/monitor-config.js';
import { type EmbeddedStores, openEmbeddedStores } from '../support/embedded-stores.js';
import { racedStore } from '../support/store-wrappers.js';

const actor: Actor = { kind: 'system', user_id: null, api_key_id: null, request_id: 'r-1' };
const config: MonitorConfig = { ...MONITOR_DEFAULTS, name: 'Backup', slug: 'backup', type: 'JOB_BASIC', schedule: 'x', uptime: null, failure_tolerance: 1 };
const failure = { event: 'FAILURE' as const, run_id: null, exit_code: 1, duration_ms: null, message: null, payload: null, payload_truncated: false, payload_bytes: null, request_ip: null, request_ua: null };
const NOW = new Date('2026-11-21T12:00:00.000Z');


describe('A failure racing a maintenance window being scheduled, appending to both streams at once (embedded)', () => {
  let stores: EmbeddedStores;
  beforeEach(() => (stores = openEmbeddedStores()));
  afterEach(() => stores.dispose());

  it('is refused when the window lands in the maintenance stream between its read and its append, and decided again: suppressed, not opened', async () => {
    const setup = commandContext(stores.events, { clock: () => NOW });
    const { projectId } = await createProject(setup, { name: 'P', description: '', owner_id: 'owner' }, actor);
    const { monitorId } = await createMonitor(setup, { project_id: projectId, config, slugGiven: true }, actor);
    const window = { name: 'Deploy', monitor_ids: [monitorId], starts_at: NOW.toISOString(), ends_at: '2026-11-21T12:30:00.000Z', rrule: null, timezone: null, duration_seconds: null };
    const deployScript = () => scheduleMaintenanceWindow(setup, { project_id: projectId, settings: window, window_id: 'w-1' }, actor);
    const pinger = commandContext(racedStore(stores.events, deployScript), { clock: () => NOW });

    await receivePing(pinger, monitorId, failure, actor);

    const types = (await stores.events.readStream(`monitor-${monitorId}`)).map((e) => e.type);
    expect(types).to.not.include('IncidentOpened');
    expect(types).to.not.include('PageScheduled');
    const [suppressed] = (await stores.events.readStream(`monitor-${monitorId}`)).filter((e) => e.type === 'IncidentSuppressed');
    expect(suppressed?.data).to.include({ window_id: 'w-1', window_name: 'Deploy' });
    expect(await stores.events.readStream(`pings-${monitorId}`)).to.have.length(1);
  });
});
