import { expect } from 'chai';
import type { Actor } from '../../src/app/command-handler.js';
import { commandContext } from '../../src/app/context.js';
import { confirmListening } from '../../src/app/listening.js';
import { createMonitor, receivePing, runMonitorCommand } from '../../src/app/monitors.js';
import { createProject } from '../../src/app/projects.js';
import { MONITOR_DEFAULTS, type MonitorConfig } from '../../src/domain/monitors/monitor-config.js';
import { pingStream } from '../../src/domain/monitors/monitor.js';
import { type EmbeddedStores, openEmbeddedStores } from '../support/embedded-stores.js';
import { racedStore } from '../support/store-wrappers.js';

const actor: Actor = { kind: 'system', user_id: null, api_key_id: null, request_id: 'r-1' };
const config: MonitorConfig = { ...MONITOR_DEFAULTS, name: 'Backup', slug: 'backup', type: 'JOB_HEARTBEAT', schedule: '1h', uptime: null };
const success = { event: 'SUCCESS' as const, run_id: null, exit_code: 0, duration_ms: null, message: null, payload: null, payload_truncated: false, payload_bytes: null, request_ip: null, request_ua: null };
const clockAt = (iso: string) => () => new Date(iso);

describe('A timer fire and Vigil\'s outages', () => {
  let stores: EmbeddedStores;
  beforeEach(() => (stores = openEmbeddedStores()));
  afterEach(() => stores.dispose());

  it('is decided again when an outage covering its deadline is recorded between its read and its append', async () => {
    const before = commandContext(stores.events, { clock: clockAt('2026-11-21T10:00:00.000Z') });
    const { projectId } = await createProject(before, { name: 'P', description: '', owner_id: 'owner' }, actor);
    const { monitorId } = await createMonitor(before, { project_id: projectId, config, slugGiven: true }, actor);
    await receivePing(before, monitorId, success, actor);
    // Listening confirmed just before the 11:05 deadline: the fire at 11:05:01 sees no outage.
    await confirmListening(commandContext(stores.events, { clock: clockAt('2026-11-21T11:04:59.000Z') }), 2000, false);
    // Meanwhile the Ping API's late confirmation records the silence since 11:04:59.
    const late = commandContext(stores.events, { clock: clockAt('2026-11-21T11:05:30.000Z') });
    const raced = racedStore(stores.events, () => confirmListening(late, 2000, false));
    const timer = commandContext(raced, { clock: clockAt('2026-11-21T11:05:01.000Z') });

    await runMonitorCommand(timer, { type: 'ExpireDeadlines', monitor_id: monitorId, incident_ids: { missed: 'm', overdue: 'o', failed: 'f' }, repage_after_seconds: 3600, now: '2026-11-21T11:05:01.000Z' }, actor);

    expect(raced.raced()).to.equal(true);
    const observed = (await stores.events.readStream(pingStream(monitorId))).map((e) => e.type);
    expect(observed).to.deep.equal(['PingReceived', 'CheckInUnheard']);
    expect((await stores.events.readStream(`monitor-${monitorId}`)).map((e) => e.type)).not.to.include('IncidentOpened');
  });
});
