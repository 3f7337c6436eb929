import { expect } from 'chai';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

const MINUTE = 60_000;

describe('As-of queries', () => {
  let vigil: TestVigil;
  let key: string;
  let projectId: string;
  let monitorId: string;
  const at: Record<string, string> = {};
  before(async () => {
    vigil = await TestVigil.start();
    key = await vigil.accountKey(await vigil.user('as-of@example.com'), ALL_SCOPES);
    projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Then' } })).body.project.id;
    const mark = (name: string) => {
      at[name] = new Date(vigil.clock.now().getTime() + 30_000).toISOString();
      vigil.clock.advance(MINUTE);
    };
    at['before'] = new Date(vigil.clock.now().getTime() - 1).toISOString();
    monitorId = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Job', type: 'JOB_BASIC', schedule: 'x', alert_enabled: false } })).body.monitor.id;
    mark('created');
    await vigil.request('GET', `/v1/ping/${monitorId}`);
    mark('up');
    await vigil.request('GET', `/v1/ping/${monitorId}/4`);
    mark('down');
    const [incident] = (await vigil.request('GET', `/v1/monitors/${monitorId}/incidents`, { key })).body.data;
    await vigil.request('POST', `/v1/incidents/${incident.id}/acknowledge`, { key });
    mark('acknowledged');
    await vigil.request('GET', `/v1/ping/${monitorId}`);
    mark('recovered');
  });
  after(() => vigil.stop());

  const monitorAt = (instant: string) => vigil.request('GET', `/v1/monitors/${monitorId}?as_of=${instant}`, { key });
  const incidentsAt = async (instant: string) =>
    (await vigil.request('GET', `/v1/incidents?project_id=${projectId}&as_of=${instant}`, { key })).body.data.map((i: { status: string }) => i.status);

  it('answers with the monitor as it stood at each instant of its history', async () => {
    expect(await monitorAt(at['before']!)).to.deep.include({ status: 404, body: { error: `monitor did not exist at ${at['before']}` } });
    expect((await monitorAt(at['created']!)).body.monitor).to.include({ status: 'UP', total_pings_received: 0, name: 'Job' });
    expect((await monitorAt(at['up']!)).body.monitor).to.include({ status: 'UP', total_pings_received: 1 });
    const down = await monitorAt(at['down']!);
    expect(down.body.monitor).to.include({ status: 'DOWN', consecutive_failures: 1, total_pings_received: 2 });
    expect(down.body.as_of).to.equal(at['down']);
    expect((await monitorAt(at['recovered']!)).body.monitor).to.deep.equal((await vigil.request('GET', `/v1/monitors/${monitorId}`, { key })).body.monitor);
  });

  it('answers with the incidents as they stood at each instant', async () => {
    expect(await incidentsAt(at['up']!)).to.deep.equal([]);
    expect(await incidentsAt(at['down']!)).to.deep.equal(['OPEN']);
    expect(await incidentsAt(at['acknowledged']!)).to.deep.equal(['ACKNOWLEDGED']);
    expect(await incidentsAt(at['recovered']!)).to.deep.equal(['RESOLVED']);
    const filtered = await vigil.request('GET', `/v1/incidents?project_id=${projectId}&as_of=${at['recovered']}&status=OPEN`, { key });
    expect(filtered.body.pagination.total).to.equal(0);
  });

  it('replays the log rather than reading today’s read models', async () => {
    const readModels = vigil.vigil.stores.readModels;
    const current = (await readModels.get('monitors', monitorId))!;
    await readModels.commit([{ collection: 'monitors', id: monitorId, doc: { ...current.doc, name: 'Tampered' }, position: current.position + 1_000_000 }], []);
    expect((await vigil.request('GET', `/v1/monitors/${monitorId}`, { key })).body.monitor.name).to.equal('Tampered');
    expect((await monitorAt(at['recovered']!)).body.monitor.name).to.equal('Job');
  });

  it('refuses an as_of that is not a time', async () => {
    expect((await monitorAt('yesterday')).body).to.deep.equal({ error: 'as_of must be an ISO 8601 date-time such as 2026-11-21T14:00:00Z' });
    expect((await vigil.request('GET', `/v1/incidents?project_id=${projectId}&as_of=soon`, { key })).status).to.equal(400);
  });
});

describe('As-of queries of incidents', () => {
  let vigil: TestVigil;
  after(() => vigil.stop());

  it('answer from the incidents’ history, without reading the log (whose length they then do not depend on)', async () => {
    vigil = await TestVigil.start();
    const key = await vigil.accountKey(await vigil.user('history@example.com'), ALL_SCOPES);
    const projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Long log' } })).body.project.id;
    const monitorId = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Job', type: 'JOB_BASIC', schedule: 'x', alert_enabled: false } })).body.monitor.id;
    await vigil.request('GET', `/v1/ping/${monitorId}/fail`);
    const down = new Date(vigil.clock.now().getTime() + 30_000).toISOString();
    vigil.clock.advance(MINUTE);
    await vigil.request('GET', `/v1/ping/${monitorId}`);
    await vigil.settle();
    const events = vigil.vigil.stores.events;
    const { readAll, readStream } = events;
    const reads: string[] = [];
    Object.assign(events, {
      readAll: (...args: Parameters<typeof readAll>) => (reads.push('readAll'), readAll.apply(events, args)),
      readStream: (...args: Parameters<typeof readStream>) => (reads.push('readStream'), readStream.apply(events, args)),
    });
    try {
      const then = await vigil.request('GET', `/v1/incidents?project_id=${projectId}&as_of=${down}`, { key });
      expect(then.body.data.map((i: { status: string }) => i.status)).to.deep.equal(['OPEN']);
      const now = await vigil.request('GET', `/v1/incidents?project_id=${projectId}&as_of=${vigil.clock.now().toISOString()}`, { key });
      expect(now.body.data.map((i: { status: string }) => i.status)).to.deep.equal(['RESOLVED']);
    } finally {
      Object.assign(events, { readAll, readStream });
    }
    expect(reads).to.deep.equal([]);
  });
});

describe('As-of queries of a project whose monitor was deleted since', () => {
  let vigil: TestVigil;
  let key: string;
  let projectId: string;
  let deletedId: string;
  let incidentId: string;
  const at: Record<string, string> = {};
  before(async () => {
    vigil = await TestVigil.start();
    key = await vigil.accountKey(await vigil.user('deleted@example.com'), ALL_SCOPES);
    projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Pruned' } })).body.project.id;
    const mark = (name: string) => {
      at[name] = new Date(vigil.clock.now().getTime() + 30_000).toISOString();
      vigil.clock.advance(MINUTE);
    };
    const create = async (name: string) =>
      (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name, type: 'JOB_BASIC', schedule: 'x', alert_enabled: false } })).body.monitor.id as string;
    mark('before');
    deletedId = await create('Legacy export');
    await create('Kept');
    mark('created');
    await vigil.request('GET', `/v1/ping/${deletedId}/fail`);
    mark('down');
    incidentId = (await vigil.request('GET', `/v1/monitors/${deletedId}/incidents`, { key })).body.data[0].id;
    await vigil.request('POST', `/v1/incidents/${incidentId}/acknowledge`, { key });
    mark('acknowledged');
    expect((await vigil.request('DELETE', `/v1/monitors/${deletedId}`, { key })).status).to.equal(204);
    mark('deleted');
  });
  after(() => vigil.stop());

  const incidentsAt = async (instant: string, more = '') => {
    const answer = await vigil.request('GET', `/v1/incidents?project_id=${projectId}&as_of=${instant}${more}`, { key });
    expect(answer.status, answer.text).to.equal(200);
    return answer.body.data.map((i: { id: string; status: string }) => `${i.id === incidentId ? 'its' : 'other'} ${i.status}`);
  };

  it('lists the deleted monitor’s incidents as they stood at an instant before the deletion', async () => {
    expect(await incidentsAt(at['created']!)).to.deep.equal([]);
    expect(await incidentsAt(at['down']!)).to.deep.equal(['its OPEN']);
    expect(await incidentsAt(at['acknowledged']!)).to.deep.equal(['its ACKNOWLEDGED']);
    expect(await incidentsAt(at['deleted']!)).to.deep.equal(['its RESOLVED']);
    expect(await incidentsAt(at['down']!, '&status=OPEN')).to.deep.equal(['its OPEN']);
  });

  it('takes the deleted monitor as the monitor_id filter at an instant it existed, not today', async () => {
    expect(await incidentsAt(at['down']!, `&monitor_id=${deletedId}`)).to.deep.equal(['its OPEN']);
    const today = await vigil.request('GET', `/v1/incidents?project_id=${projectId}&monitor_id=${deletedId}`, { key });
    expect(today.status).to.equal(400);
  });

  it('brings none of the deleted monitor’s pings back', async () => {
    const events = vigil.vigil.stores.events;
    expect(await events.readStream(`pings-${deletedId}`)).to.deep.equal([]);
    expect(await events.readStream(`monitor-${deletedId}`)).to.deep.equal([]);
    const history = await vigil.request('GET', `/v1/projects/${projectId}/events?limit=200`, { key });
    expect(history.status, history.text).to.equal(200);
    expect(history.body.data.filter((e: { type: string; data: { monitor_id?: string } }) => e.type === 'PingReceived' && e.data.monitor_id === deletedId)).to.deep.equal([]);
  });
});
