import { expect } from 'chai';
import { type AuditEventDocument, auditEventsProjection } from '../../projections/audit-events.js';
import type { JsonObject } from '../../src/eventstore/event-store.js';
import type { ProjectedEvent } from '../../src/projector/projection.js';
import { Projector } from '../../src/projector/projector.js';
import { type EmbeddedStores, openEmbeddedStores } from '../support/embedded-stores.js';
import { checkCompleted, monitorCreated, monitorUpdated, pingReceived } from '../support/recorded-events.js';

const at = '2026-11-21T00:00:00.000Z';
const projectId = 'p1';

describe('Audit events projection', () => {
  let stores: EmbeddedStores;
  beforeEach(() => (stores = openEmbeddedStores()));
  afterEach(() => stores.dispose());

  const append = (stream: string, type: string, data: JsonObject) => stores.events.appendToStream(stream, [{ type, data }]);
  const project = () => new Projector(stores.events, stores.readModels, [auditEventsProjection]).catchUp();
  const entries = async () =>
    (await stores.readModels.find<AuditEventDocument>('audit_events', {}, { sort: [['position', 1]] })).map((found) => found.id);
  /** Appends the event, then tells how the store would look up the documents it targets by filter. */
  async function lookupPlan(stream: string, type: string, data: JsonObject): Promise<string> {
    const { position } = await append(stream, type, data);
    const [recorded] = await stores.events.readAll({ after: position - 1, maxCount: 1 });
    // As the projector hands it over: the log holds only events of these shapes.
    const event = { ...recorded! } as ProjectedEvent;
    return (await stores.readModels.queryPlan('audit_events', auditEventsProjection.targets(event).where ?? {})).join(' ');
  }

  async function monitorWithHistory(monitorId: string, pings: number) {
    const ids = { monitor_id: monitorId, project_id: projectId };
    await append(`monitor-${monitorId}`, 'MonitorCreated', monitorCreated(ids, at));
    for (let n = 0; n < pings; n++) await append(`pings-${monitorId}`, 'PingReceived', pingReceived(ids, at, { ping_id: `${monitorId}-${n}` }));
    // A check result shares the stream of pings but is no ping: the history keeps an entry of it.
    await append(`pings-${monitorId}`, 'CheckCompleted', checkCompleted(ids, at, { check_id: `${monitorId}-check` }));
  }

  it('records every event with its secrets redacted and the rest of its data as it was', async () => {
    await append('project-p1', 'ProjectCreated', { project_id: projectId, name: 'P', description: '', owner_id: 'u', ping_key: 'secret-key', created_at: at });
    await append('project-p1', 'ProjectUpdated', { project_id: projectId, name: 'Q', description: 'd', updated_at: at });
    await project();
    const created = await stores.readModels.get<AuditEventDocument>('audit_events', 'project-p1@0');
    expect(created?.doc.data).to.deep.equal({ project_id: projectId, name: 'P', description: '', owner_id: 'u', ping_key: '[redacted]', created_at: at });
    expect(Object.keys(created!.doc.data)).to.deep.equal(['project_id', 'name', 'description', 'owner_id', 'ping_key', 'created_at']);
    const updated = await stores.readModels.get<AuditEventDocument>('audit_events', 'project-p1@1');
    expect(updated?.doc).to.deep.include({ type: 'ProjectUpdated', stream: 'project-p1', revision: 1, project_id: projectId, monitor_id: null });
    expect(updated?.doc.data).to.deep.equal({ project_id: projectId, name: 'Q', description: 'd', updated_at: at });
  });

  it("forgets a deleted monitor's own streams, keeping its incidents' records and other monitors' history", async () => {
    await monitorWithHistory('m1', 2);
    await monitorWithHistory('m2', 1);
    const ids = { monitor_id: 'm1', project_id: projectId, incident_id: 'i1' };
    await append('incident-i1', 'IncidentArchived', { ...ids, incident: {}, configuration: null, timeline: [], archived_at: at });
    await append('monitor-m1', 'MonitorDeleted', { monitor_id: 'm1', project_id: projectId, deleted_at: at });
    await project();
    expect(await entries()).to.deep.equal(['monitor-m2@0', 'pings-m2@1', 'incident-i1@0']);
  });

  it('keeps no entry of a ping: the ping history and the monitor history read pings from the log', async () => {
    await monitorWithHistory('m1', 3);
    await append('monitor-m1', 'MonitorUpdated', monitorUpdated({ monitor_id: 'm1', project_id: projectId }, at, { retention_count: 2 }, 2));
    await project();
    expect(await entries()).to.deep.equal(['monitor-m1@0', 'pings-m1@3', 'monitor-m1@1']);
  });

  it('forgets a check result once the pings after it push it out of the log\'s window, as a rebuild would not find it', async () => {
    const ids = { monitor_id: 'm1', project_id: projectId };
    await append('monitor-m1', 'MonitorCreated', monitorCreated(ids, at));
    await append('pings-m1', 'CheckCompleted', checkCompleted(ids, at, { check_number: 1, retention_count: 2 }));
    await append('pings-m1', 'PingReceived', pingReceived(ids, at, { ping_id: 'p-1', retention_count: 2 }));
    await project();
    expect(await entries()).to.deep.equal(['monitor-m1@0', 'pings-m1@0']);
    // Two kept: the ping at revision 2 leaves the check at revision 0 behind.
    await append('pings-m1', 'PingReceived', pingReceived(ids, at, { ping_id: 'p-2', retention_count: 2 }));
    await project();
    expect(await entries()).to.deep.equal(['monitor-m1@0']);
  });

  it("finds a monitor's entries to forget through an index, not by reading the whole history", async () => {
    await stores.readModels.ensureCollections([auditEventsProjection.collection]);
    const ids = { monitor_id: 'm1', project_id: projectId };
    const deleted = await lookupPlan('monitor-m1', 'MonitorDeleted', { ...ids, deleted_at: at });
    expect(deleted).to.match(/SEARCH rm_audit_events USING INDEX rm_audit_events__monitor_id__position/);
  });
});
