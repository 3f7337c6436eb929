import { expect } from 'chai';
import { Counter, Registry } from 'prom-client';
import { Projector } from '../../src/projector/projector.js';
import type { Projection } from '../../src/projector/projection.js';
import { type EmbeddedStores, openEmbeddedStores } from '../support/embedded-stores.js';

function incidentList(name: string, version = 1): Projection {
  return {
    name,
    version,
    collection: { name, indexes: [] },
    handles: ['IncidentOpened'],
    targets: (event) => ({ ids: event.type === 'IncidentOpened' ? [event.data.incident_id] : [] }),
    apply: (_doc, event) => (event.type === 'IncidentOpened' ? { kind: event.data.event } : null),
  };
}

async function openIncident(stores: EmbeddedStores, n: number, kind: 'FAILED' | 'MISSED') {
  return stores.events.appendToStream(`monitor-m${n}`, [
    {
      type: 'IncidentOpened',
      data: {
        monitor_id: `m${n}`, project_id: 'p', incident_id: `i${n}`, event: kind, cause: 'test', started_at: '2026-11-21T00:00:00.000Z',
        monitor_name: 'Job', monitor_slug: 'job', ping_id: null,
      },
    },
  ]);
}

describe('Projector: vigil_incidents_opened_total', () => {
  let stores: EmbeddedStores;
  let metrics: { incidentsOpened: Counter<'kind'> };
  const counted = async () => Object.fromEntries((await metrics.incidentsOpened.get()).values.map((v) => [v.labels['kind'], v.value]));
  beforeEach(() => {
    stores = openEmbeddedStores();
    metrics = { incidentsOpened: new Counter({ name: 'vigil_incidents_opened_total', help: 'test', labelNames: ['kind'], registers: [new Registry()] }) };
  });
  afterEach(() => stores.dispose());

  it('counts each incident once, when its event is committed, across restarts from the checkpoint', async () => {
    const first = await openIncident(stores, 1, 'FAILED');
    await openIncident(stores, 2, 'MISSED');
    await openIncident(stores, 3, 'FAILED');
    await new Projector(stores.events, stores.readModels, [incidentList('a')], { metrics }).catchUp({ until: first.position });
    expect(await counted()).to.deep.equal({ FAILED: 1 });
    await new Projector(stores.events, stores.readModels, [incidentList('a')], { metrics }).catchUp();
    expect(await counted()).to.deep.equal({ FAILED: 2, MISSED: 1 });
  });

  it('does not count again when a projection is rebuilt from the start', async () => {
    await openIncident(stores, 1, 'FAILED');
    await openIncident(stores, 2, 'MISSED');
    await new Projector(stores.events, stores.readModels, [incidentList('a'), incidentList('b')], { metrics }).catchUp();
    expect(await counted()).to.deep.equal({ FAILED: 1, MISSED: 1 });
    await openIncident(stores, 3, 'MISSED');
    const rebuilding = new Projector(stores.events, stores.readModels, [incidentList('a', 2), incidentList('b')], { metrics });
    await rebuilding.catchUp();
    expect((await stores.readModels.find('a')).length).to.equal(3);
    expect(await counted()).to.deep.equal({ FAILED: 1, MISSED: 2 });
  });
});
