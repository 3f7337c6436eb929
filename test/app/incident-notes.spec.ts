import { expect } from 'chai';
import { racedStore } from '../support/store-wrappers.js';
import type { Actor } from '../../src/app/command-handler.js';
import { commandContext } from '../../src/app/context.js';
import { addIncidentNote } from '../../src/app/incident-notes.js';
import { archiveMonitorIncidents } from '../../src/app/incident-records.js';
import { createMonitor, receivePing, resolveIncident } from '../../src/app/monitors.js';
import { createProject } from '../../src/app/projects.js';
import { DomainError } from '../../src/domain/errors.js';
import { MONITOR_DEFAULTS, type MonitorConfig } from '../../src/domain/monitors/monitor-config.js';
import type { EventStore } from '../../src/eventstore/event-store.js';
import { Projector } from '../../src/projector/projector.js';
import { allProjections } from '../../projections/index.js';
import { type EmbeddedStores, openEmbeddedStores } from '../support/embedded-stores.js';

const actor: Actor = { kind: 'user', user_id: 'u-1', api_key_id: 'k-1', request_id: 'r-1' };
const by = { user_id: 'u-1', email: 'ops@example.com', api_key_id: 'k-1' };
const config: MonitorConfig = { ...MONITOR_DEFAULTS, alert_enabled: false, name: 'Backup', slug: 'backup', type: 'JOB_HEARTBEAT', schedule: '1h', uptime: null };
const failure = { event: 'FAILURE' as const, run_id: null, exit_code: 1, duration_ms: null, message: null, payload: null, payload_truncated: false, payload_bytes: null, request_ip: null, request_ua: null };


async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(() => null, (caught: unknown) => caught);
  expect(error).to.be.instanceOf(DomainError);
  return error as DomainError;
}

describe('addIncidentNote', () => {
  let stores: EmbeddedStores;
  beforeEach(() => (stores = openEmbeddedStores()));
  afterEach(() => stores.dispose());

  async function openIncident() {
    const context = commandContext(stores.events);
    const { projectId } = await createProject(context, { name: 'P', description: '', owner_id: 'owner' }, actor);
    const { monitorId } = await createMonitor(context, { project_id: projectId, config, slugGiven: true }, actor);
    await receivePing(context, monitorId, failure, actor);
    const opened = (await stores.events.readStream(`monitor-${monitorId}`)).find((e) => e.type === 'IncidentOpened')!;
    return { context, projectId, monitorId, incidentId: String(opened.data['incident_id']) };
  }
  const noteTypes = async (incidentId: string) => (await stores.events.readStream(`incident-${incidentId}`)).filter((e) => e.type === 'IncidentNoteAdded').map((e) => e.data['kind']);

  it("records the note in the incident's stream, with its monitor and project and who wrote it", async () => {
    const { context, projectId, monitorId, incidentId } = await openIncident();
    const { note, position } = await addIncidentNote(context, { monitor_id: monitorId, incident_id: incidentId, kind: 'note', visibility: 'internal', text: ' On it ' }, by, actor);
    expect(note).to.deep.include({ incident_id: incidentId, monitor_id: monitorId, project_id: projectId, kind: 'note', visibility: 'internal', text: 'On it', ...by });
    const [recorded] = (await stores.events.readStream(`incident-${incidentId}`)).filter((e) => e.type === 'IncidentNoteAdded');
    expect(recorded?.position).to.equal(position);
    expect(recorded?.metadata).to.deep.include({ kind: 'user', user_id: 'u-1' });
  });

  it('refuses a note when another process resolved the incident between the read and the append, deciding again on the resolved incident', async () => {
    const { monitorId, incidentId } = await openIncident();
    const other = commandContext(stores.events);
    const here = commandContext(racedStore(stores.events, () => resolveIncident(other, monitorId, incidentId, by, actor)));
    const error = await refusal(addIncidentNote(here, { monitor_id: monitorId, incident_id: incidentId, kind: 'note', visibility: 'internal', text: 'Restarting it' }, by, actor));
    expect(error.message).to.match(/the incident is RESOLVED/);
    expect(await noteTypes(incidentId)).to.deep.equal([]);
  });

  it('decides again when another process added a note in between, and records both', async () => {
    const { monitorId, incidentId } = await openIncident();
    const other = commandContext(stores.events);
    await resolveIncident(other, monitorId, incidentId, by, actor);
    const here = commandContext(racedStore(stores.events, () => addIncidentNote(other, { monitor_id: monitorId, incident_id: incidentId, kind: 'postmortem', visibility: 'public', text: 'First' }, by, actor)));
    await addIncidentNote(here, { monitor_id: monitorId, incident_id: incidentId, kind: 'postmortem', visibility: 'public', text: 'Second' }, by, actor);
    const texts = (await stores.events.readStream(`incident-${incidentId}`)).filter((e) => e.type === 'IncidentNoteAdded').map((e) => e.data['text']);
    expect(texts).to.deep.equal(['First', 'Second']);
  });

  it('refuses a note on an incident archived in the meantime (its monitor is being deleted)', async () => {
    const { monitorId, incidentId } = await openIncident();
    const projector = new Projector(stores.events, stores.readModels, allProjections());
    await projector.catchUp();
    const other = commandContext(stores.events);
    const here = commandContext(racedStore(stores.events, () => archiveMonitorIncidents(other, stores.readModels, monitorId, actor)));
    const error = await refusal(addIncidentNote(here, { monitor_id: monitorId, incident_id: incidentId, kind: 'note', visibility: 'internal', text: 'Too late' }, by, actor));
    expect(error.message).to.match(/archived with its deleted monitor/);
    expect(await noteTypes(incidentId)).to.deep.equal([]);
  });

  it('appends to the incident stream alone on a store that cannot append to several streams at once', async () => {
    const { monitorId, incidentId } = await openIncident();
    const streamByStream = Object.assign(Object.create(stores.events) as EventStore, { appendToStreams: undefined });
    await addIncidentNote(commandContext(streamByStream), { monitor_id: monitorId, incident_id: incidentId, kind: 'note', visibility: 'public', text: 'Failing over' }, by, actor);
    expect(await noteTypes(incidentId)).to.deep.equal(['note']);
  });
});
