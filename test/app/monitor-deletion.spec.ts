import { expect } from 'chai';
import { type EventStore, type RecordedEvent, appendsToStreamsAtOnce } from '../../src/eventstore/event-store.js';
import { runMonitorCommand } from '../../src/app/monitors.js';
import { type Target, reply, startTarget } from '../support/http-targets.js';
import { ALL_SCOPES, TestClock, TestVigil } from '../support/test-vigil.js';

/**
 * From the moment `crashesAt` says, every write to the log fails, as if the process had died
 * there: the request in progress fails half-way, and only a restart can go on. `older`: the
 * process is an older Vigil, which kept a deletion's progress in the project's stream alone: the
 * deletion workflow's stream lives in its memory only, and dies with it.
 */
function dieWhen(events: EventStore, crashesAt: { appended?: string; deleting?: true; older?: true }): void {
  let dead = false;
  const forgotten = new Map<string, RecordedEvent[]>();
  const forgets = (stream: string) => crashesAt.older === true && stream.startsWith('monitor-deletion-');
  const readStream = events.readStream.bind(events);
  events.readStream = async (stream, options) => (forgets(stream) ? [...(forgotten.get(stream) ?? [])] : readStream(stream, options));
  const die = () => {
    throw new Error('the process died here');
  };
  const appendToStream = events.appendToStream.bind(events);
  const deleteStream = events.deleteStream.bind(events);
  const wrote = (types: string[]) => {
    if (crashesAt.appended !== undefined && types.includes(crashesAt.appended)) dead = true;
  };
  events.appendToStream = async (stream, toAppend, options) => {
    if (dead) die();
    if (forgets(stream)) {
      const kept = forgotten.get(stream) ?? [];
      for (const e of toAppend) {
        kept.push({ id: e.id ?? `${stream}/${kept.length}`, streamName: stream, type: e.type, revision: kept.length, position: 0, data: e.data, metadata: e.metadata ?? {}, created: new Date(0).toISOString() });
      }
      forgotten.set(stream, kept);
      return { nextExpectedRevision: kept.length - 1, position: 0 };
    }
    const result = await appendToStream(stream, toAppend, options);
    wrote(toAppend.map((e) => e.type));
    return result;
  };
  if (appendsToStreamsAtOnce(events)) {
    const appendToStreams = events.appendToStreams.bind(events);
    events.appendToStreams = async (appends) => {
      if (dead) die();
      const results = await appendToStreams(appends);
      wrote(appends.flatMap((a) => a.events.map((e) => e.type)));
      return results;
    };
  }
  events.deleteStream = async (stream) => {
    if (crashesAt.deleting) dead = true;
    if (dead) die();
    return deleteStream(stream);
  };
}

describe('Monitor deletion', function () {
  this.timeout(60_000);
  let vigil: TestVigil;
  let sink: Target;
  let key: string;
  let projectId: string;
  let hook: string;
  const events = () => sink.seen.map((request) => JSON.parse(request.body) as { event: string; incident: { id: string } | null });

  beforeEach(async () => {
    sink = await startTarget(reply(200, 'ok'));
    // Receivers check webhook timestamps against real time, so this clock starts at real time.
    vigil = await TestVigil.start({ clock: TestClock.atWallTime() });
    key = await vigil.accountKey(await vigil.user('deleter@example.com'), ALL_SCOPES);
    projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Deleted things' } })).body.project.id;
    const created = await vigil.request('POST', '/v1/notification-channels', { key, body: { project_id: projectId, name: 'Pager', type: 'WEBHOOK', config: { url: `${sink.url}/hook` } } });
    expect(created.status, created.text).to.equal(201);
    hook = created.body.channel.id;
  });
  afterEach(async () => {
    await vigil.stop();
    await sink.close();
  });

  /** A monitor paging the webhook, with an OPEN incident it has been paged about. */
  async function pagedMonitor(): Promise<{ id: string; slug: string; incidentId: string }> {
    const created = await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Nightly backup', type: 'JOB_BASIC', schedule: 'x', notification_channel_ids: [hook] } });
    expect(created.status, created.text).to.equal(201);
    const monitor = created.body.monitor as { id: string; slug: string };
    await vigil.request('GET', `/v1/ping/${monitor.id}/fail`);
    await vigil.notify();
    const [incident] = (await vigil.request('GET', `/v1/monitors/${monitor.id}/incidents`, { key })).body.data;
    expect(events().map((e) => e.event)).to.deep.equal(['incident.opened']);
    return { ...monitor, incidentId: incident.id };
  }

  const streamTypes = async (stream: string) => (await vigil.vigil.stores.events.readStream(stream)).map((e) => e.type);
  /** The deletion workflow's stream, each step by name. */
  const workflowSteps = async (monitorId: string) =>
    (await vigil.vigil.stores.events.readStream(`monitor-deletion-${monitorId}`)).map((e) => (e.type === 'MonitorDeletionStepCompleted' ? `${e.type}:${String(e.data['step'])}` : e.type));
  const EVERY_STEP = [
    'MonitorDeletionStarted',
    'MonitorDeletionStepCompleted:hand_over_pages',
    'MonitorDeletionStepCompleted:record_removal',
    'MonitorDeletionStepCompleted:delete_streams',
    'MonitorDeletionStepCompleted:record_streams_deletion',
    'MonitorDeletionFinished',
  ];

  it('delivers the resolved page of the open incident it resolves to the monitor\'s webhook', async () => {
    const monitor = await pagedMonitor();

    expect((await vigil.request('DELETE', `/v1/monitors/${monitor.id}`, { key })).status).to.equal(204);
    await vigil.notify();

    expect(events().map((e) => [e.event, e.incident?.id])).to.deep.equal([
      ['incident.opened', monitor.incidentId],
      ['incident.resolved', monitor.incidentId],
    ]);
    expect((await vigil.request('GET', `/v1/monitors/${monitor.id}`, { key })).status).to.equal(404);
    expect(await streamTypes(`monitor-${monitor.id}`)).to.deep.equal([]);
    expect((await streamTypes(`project-${projectId}`)).filter((type) => type.startsWith('ProjectMonitor'))).to.deep.equal(['ProjectMonitorRemoved', 'ProjectMonitorStreamsDeleted']);
    // Its progress is the workflow's own stream's, each step recorded once, in order.
    expect(await workflowSteps(monitor.id)).to.deep.equal(EVERY_STEP);
    // The project's history shows the deletion by the project's two events, as it always has: not the workflow's bookkeeping.
    const history = await vigil.request('GET', `/v1/projects/${projectId}/events?limit=200`, { key });
    const types = (history.body.data as { type: string }[]).map((e) => e.type);
    expect(types).to.include.members(['ProjectMonitorRemoved', 'ProjectMonitorStreamsDeleted']);
    expect(types.filter((type) => type.startsWith('MonitorDeletion'))).to.deep.equal([]);
  });

  it('sends the resolved page of an incident whose opening had not gone out yet, and not the opening after it', async () => {
    const created = await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Quick', type: 'JOB_BASIC', schedule: 'x', notification_channel_ids: [hook] } });
    const monitorId = created.body.monitor.id as string;
    await vigil.request('GET', `/v1/ping/${monitorId}/fail`);

    expect((await vigil.request('DELETE', `/v1/monitors/${monitorId}`, { key })).status).to.equal(204);
    await vigil.notify();

    expect(events().map((e) => e.event)).to.deep.equal(['incident.resolved']);
  });

  it('deletes an uptime monitor\'s hourly summaries with its other streams, and their history', async () => {
    const created = await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Site', type: 'UPTIME_HTTP', schedule: '1m', uptime_url: 'https://site.example.com/', retention_count: 10 } });
    const monitorId = created.body.monitor.id as string;
    const from = Date.parse(vigil.clock.now().toISOString().slice(0, 13) + ':00:00.000Z');
    // Twelve checks, ten in one hour and two in the next: that hour's summary.
    for (let i = 0; i < 12; i += 1) {
      const check = { check_id: `c-${i}`, status_code: 200, response_time_ms: 5, is_up: true, error: null, ssl_expires_at: null, ssl_issuer: null, check_region: 'local', check_status: 'ok' as const, cycle_id: null, attempts: 1 };
      const now = new Date(from + (50 + i) * 60_000).toISOString();
      await runMonitorCommand(vigil.commands, { type: 'RecordCheck', monitor_id: monitorId, check, incident_ids: { failed: `f-${i}`, ssl: `s-${i}` }, ssl_warning_days: 14, repage_after_seconds: 3600, now }, { kind: 'system', user_id: null, api_key_id: null, request_id: null });
    }
    await vigil.settle();
    expect(await streamTypes(`checkhours-${monitorId}`)).to.deep.equal(['ChecksSummarized']);
    const history = () => vigil.vigil.stores.readModels.find('audit_events', { monitor_id: monitorId, stream: `checkhours-${monitorId}` });
    expect(await history()).to.have.length(1);

    expect((await vigil.request('DELETE', `/v1/monitors/${monitorId}`, { key })).status).to.equal(204);
    await vigil.settle();

    for (const stream of [`monitor-${monitorId}`, `pings-${monitorId}`, `checkhours-${monitorId}`]) expect(await streamTypes(stream), stream).to.deep.equal([]);
    expect(await history()).to.deep.equal([]);
  });

  for (const [when, crashesAt, before] of [
    // As an older Vigil left it too: it recorded no more than MonitorDeleted either.
    ['right after MonitorDeleted is recorded', { appended: 'MonitorDeleted' }, []],
    ['at the hard delete of its streams', { deleting: true }, EVERY_STEP.slice(0, 3)],
    // An older Vigil kept a deletion's progress in the project's stream only: no workflow stream.
    ['at the hard delete of its streams, recorded by an older Vigil', { deleting: true, older: true }, []],
  ] as const) {
    it(`finishes a deletion the process died in ${when} once restarted: its streams go and the resolved page arrives`, async () => {
      const monitor = await pagedMonitor();
      dieWhen(vigil.vigil.stores.events, crashesAt);
      expect((await vigil.request('DELETE', `/v1/monitors/${monitor.id}`, { key })).status).to.equal(500);
      await vigil.settle();
      expect(await streamTypes(`monitor-${monitor.id}`)).to.include('MonitorDeleted');
      await vigil.stopKeepingData();

      vigil = await TestVigil.reopen(vigil.dataDir, vigil.env, vigil.clock);
      if ('older' in crashesAt) {
        // The log as an older Vigil left it: pages handed over and the removal recorded, in the project's stream alone.
        expect((await streamTypes(`project-${projectId}`)).filter((type) => type.startsWith('ProjectMonitor'))).to.deep.equal(['ProjectMonitorRemoved']);
      }
      expect(await workflowSteps(monitor.id)).to.deep.equal(before);
      await vigil.notify();

      expect(events().map((e) => [e.event, e.incident?.id])).to.deep.equal([
        ['incident.opened', monitor.incidentId],
        ['incident.resolved', monitor.incidentId],
      ]);
      expect(await streamTypes(`monitor-${monitor.id}`)).to.deep.equal([]);
      expect(await streamTypes(`pings-${monitor.id}`)).to.deep.equal([]);
      expect((await streamTypes(`project-${projectId}`)).filter((type) => type.startsWith('ProjectMonitor'))).to.deep.equal(['ProjectMonitorRemoved', 'ProjectMonitorStreamsDeleted']);
      // Its slug is free again, and its incident stays readable, resolved.
      const again = await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Nightly backup', slug: monitor.slug, type: 'JOB_BASIC', schedule: 'x' } });
      expect(again.status, again.text).to.equal(201);
      expect((await vigil.request('GET', `/v1/incidents/${monitor.incidentId}`, { key })).body.incident).to.include({ status: 'RESOLVED' });
      // Nothing is left to finish: another pass changes nothing.
      await vigil.notify();
      expect(sink.seen).to.have.length(2);
      expect(await workflowSteps(monitor.id)).to.deep.equal(EVERY_STEP);
      expect(await vigil.vigil.stores.readModels.find('monitor_removals', {})).to.deep.equal([]);
    });
  }
});
