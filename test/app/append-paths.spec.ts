import { expect } from 'chai';
import type { Actor } from '../../src/app/command-handler.js';
import { commandContext } from '../../src/app/context.js';
import { createMonitor, receivePing } from '../../src/app/monitors.js';
import { addMember, createProject } from '../../src/app/projects.js';
import { MONITOR_DEFAULTS, type MonitorConfig } from '../../src/domain/monitors/monitor-config.js';
import type { EventStore } from '../../src/eventstore/event-store.js';
import { type EmbeddedStores, openEmbeddedStores } from '../support/embedded-stores.js';
import { losingAnswers, withoutMultiStreamAppend } from '../support/store-wrappers.js';

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
