import { expect } from 'chai';
import { allProjections } from '../../projections/index.js';
import { type IncidentDocument, incidentsProjection } from '../../projections/incidents.js';
import { incidentsAsOf } from '../../src/audit/as-of.js';
import { verifyReadModels } from '../../src/audit/verify-read-models.js';
import { INCIDENT_KINDS, INCIDENT_STATUSES } from '../../src/domain/monitors/incidents.js';
import type { EventStore, RecordedEvent } from '../../src/eventstore/event-store.js';
import { openSqliteDatabase } from '../../src/eventstore/sqlite-database.js';
import { Projector } from '../../src/projector/projector.js';
import type { Filter } from '../../src/readstore/read-model-store.js';
import { SqliteReadModelStore } from '../../src/readstore/sqlite-read-model-store.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

const MINUTE = 60_000;

/** The log as it stood at a moment, for a replay: its events recorded by then, in order. */
function logUpTo(events: readonly RecordedEvent[], asOf: string): EventStore {
  const kept = events.filter((e) => e.created <= asOf);
  const readOnly = () => {
    throw new Error('read-only');
  };
  return {
    readAll: async ({ after = 0, maxCount = Number.MAX_SAFE_INTEGER } = {}) => kept.filter((e) => e.position > after).slice(0, maxCount),
    headPosition: async () => kept.at(-1)?.position ?? 0,
    appendToStream: readOnly,
    readStream: readOnly,
    subscribeToAll: readOnly,
    setStreamMaxCount: readOnly,
    deleteStream: readOnly,
    countEventsAfter: readOnly,
    writeHealth: readOnly,
    close: async () => {},
  };
}

/**
 * What `as_of` answered before the history: the project's events up to then, replayed into a
 * scratch store, and the page and count read from it.
 */
async function replayedAsOf(events: readonly RecordedEvent[], projectId: string, asOf: string) {
  const db = openSqliteDatabase(':memory:');
  const store = new SqliteReadModelStore(db);
  await new Projector(logUpTo(events.filter((e) => e.data['project_id'] === projectId), asOf), store, [incidentsProjection]).catchUp();
  return {
    query: async (filter: Filter, page: { page: number; limit: number }) => {
      const [found, total] = await Promise.all([
        store.find<IncidentDocument>('incidents', filter, { sort: [['started_at', -1]], skip: (page.page - 1) * page.limit, limit: page.limit }),
        store.count('incidents', filter),
      ]);
      return { docs: found.map((s) => s.doc), total };
    },
    close: () => db.close(),
  };
}

/** Every subset of the values, the empty one included. */
function subsets<T>(values: readonly T[]): T[][] {
  return values.reduce<T[][]>((all, value) => [...all, ...all.map((subset) => [...subset, value])], [[]]);
}

describe('The incident history', function () {
  this.timeout(60_000);
  let vigil: TestVigil;
  let key: string;
  let projectId: string;
  const monitors: string[] = [];
  const instants: string[] = [];
  /** The log just before a monitor's deletion took its streams out of it. */
  let beforeDeletion: RecordedEvent[] = [];

  before(async () => {
    vigil = await TestVigil.start();
    key = await vigil.accountKey(await vigil.user('history@example.com'), ALL_SCOPES);
    projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Then and now' } })).body.project.id;
    const other = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Elsewhere' } })).body.project.id;
    const step = async (action: () => Promise<unknown>) => {
      await action();
      await vigil.settle();
      instants.push(vigil.clock.now().toISOString());
      vigil.clock.advance(MINUTE);
      instants.push(vigil.clock.now().toISOString());
    };
    const monitor = async (project: string, name: string) =>
      (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: project, name, type: 'JOB_BASIC', schedule: 'x', alert_enabled: false } })).body.monitor.id as string;
    const ping = (id: string, suffix = '') => vigil.request('GET', `/v1/ping/${id}${suffix}`);
    const incidentsOf = async (id: string) => (await vigil.request('GET', `/v1/monitors/${id}/incidents`, { key })).body.data as { id: string; status: string }[];
    const act = (incident: string, action: 'acknowledge' | 'resolve') => vigil.request('POST', `/v1/incidents/${incident}/${action}`, { key });

    instants.push(new Date(vigil.clock.now().getTime() - 1).toISOString());
    for (const name of ['Backup', 'Report', 'Sync']) monitors.push(await monitor(projectId, name));
    const [backup, report, sync] = monitors as [string, string, string];
    const elsewhere = await monitor(other, 'Elsewhere');
    await step(() => ping(backup, '/fail'));
    await step(() => ping(elsewhere, '/fail'));
    // Two events recorded at the same moment.
    await step(async () => {
      await ping(report, '/1');
      await ping(sync, '/fail');
    });
    await step(async () => act((await incidentsOf(backup))[0]!.id, 'acknowledge'));
    await step(() => vigil.request('PATCH', `/v1/monitors/${report}`, { key, body: { name: 'Report (renamed)' } }));
    await step(() => vigil.request('PATCH', `/v1/monitors/${report}`, { key, body: { grace_seconds: 120 } }));
    await step(() => ping(backup));
    await step(() => ping(backup, '/fail'));
    await step(async () => act((await incidentsOf(sync))[0]!.id, 'resolve'));
    await step(async () => act((await incidentsOf(report))[0]!.id, 'acknowledge'));
    // Deleted: its incidents are archived into their own streams, and its streams hard-deleted.
    beforeDeletion = await vigil.vigil.stores.events.readAll();
    await step(() => vigil.request('DELETE', `/v1/monitors/${sync}`, { key }));
    await step(() => ping(report));
  });
  after(() => vigil.stop());

  it('answers at every moment exactly as a replay of the log as it stood then, for every status filter, kind filter, monitor and page', async () => {
    // As it stood then: with the deleted monitor's events up to its deletion, which left it since.
    const now = await vigil.vigil.stores.events.readAll();
    const log = [...beforeDeletion, ...now.filter((e) => e.position > beforeDeletion.at(-1)!.position)];
    const readModels = vigil.vigil.stores.readModels;
    const filters: Filter[] = [];
    for (const statuses of subsets(INCIDENT_STATUSES)) {
      const more: Filter[] = [{}, { event: { $in: ['FAILED'] } }, { event: { $in: INCIDENT_KINDS.filter((k) => k !== 'FAILED') } }, { monitor_id: monitors[0]! }, { monitor_id: monitors[2]! }];
      for (const narrower of more) {
        filters.push({ project_id: projectId, ...(statuses.length < INCIDENT_STATUSES.length ? { status: { $in: statuses } } : {}), ...narrower });
      }
    }
    let compared = 0;
    for (const asOf of instants) {
      const replayed = await replayedAsOf(log, projectId, asOf);
      try {
        for (const filter of filters) {
          for (const page of [{ page: 1, limit: 200 }, { page: 1, limit: 1 }, { page: 2, limit: 1 }, { page: 2, limit: 2 }]) {
            const expected = await replayed.query(filter, page);
            expect(await incidentsAsOf(readModels, filter, asOf, page), `${JSON.stringify(filter)} at ${asOf}, page ${page.page} of ${page.limit}`).to.deep.equal(expected);
            compared += expected.docs.length;
          }
        }
      } finally {
        replayed.close();
      }
    }
    expect(compared, 'incidents compared').to.be.greaterThan(500);
  });

  it('holds each version an incident went through, and is what a rebuild of the log makes of it', async () => {
    const history = await vigil.vigil.stores.readModels.find<{ versions: { incident: { status: string; monitor: { name: string } } | null }[] }>('incident_history', { monitor_id: monitors[1]! });
    expect(history.map((h) => h.doc.versions.map((v) => `${v.incident?.status} ${v.incident?.monitor.name}`))).to.deep.equal([
      ['OPEN Report', 'OPEN Report (renamed)', 'ACKNOWLEDGED Report (renamed)', 'RESOLVED Report (renamed)'],
    ]);
    const verified = await verifyReadModels(vigil.vigil.stores.events, vigil.vigil.stores.readModels, allProjections());
    expect(verified.differences.filter((d) => d.collection === 'incident_history')).to.deep.equal([]);
  });
});
