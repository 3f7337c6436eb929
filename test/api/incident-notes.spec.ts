import { expect } from 'chai';
import { allProjections } from '../../projections/index.js';
import { verifyReadModels } from '../../src/audit/verify-read-models.js';
import { commandContext } from '../../src/app/context.js';
import { addIncidentNote } from '../../src/app/incident-notes.js';
import { runCliCaptured } from '../support/cli-run.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

describe('Incident notes over the REST API', () => {
  let vigil: TestVigil;
  let key: string;
  let readerKey: string;
  let ownerId: string;
  let projectId: string;
  before(async () => {
    vigil = await TestVigil.start();
    ownerId = await vigil.user('notes@example.com');
    key = await vigil.accountKey(ownerId, ALL_SCOPES);
    projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Notes' } })).body.project.id;
    const readerId = await vigil.user('reader@example.com');
    await vigil.member(projectId, readerId, 'READONLY');
    readerKey = await vigil.accountKey(readerId, ALL_SCOPES);
  });
  after(() => vigil.stop());

  /** A monitor with one OPEN incident, opened by a failure. */
  async function openIncident(): Promise<{ monitorId: string; incidentId: string }> {
    const monitor = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Job', type: 'JOB_BASIC', schedule: 'x', alert_enabled: false } })).body.monitor;
    await vigil.request('GET', `/v1/ping/${monitor.id}/fail`);
    const [incident] = (await vigil.request('GET', `/v1/monitors/${monitor.id}/incidents`, { key })).body.data;
    return { monitorId: monitor.id, incidentId: incident.id };
  }
  const post = (incidentId: string, body: unknown, as = key) => vigil.request('POST', `/v1/incidents/${incidentId}/notes`, { key: as, body });
  const list = async (incidentId: string, as = key) => (await vigil.request('GET', `/v1/incidents/${incidentId}/notes`, { key: as })).body.notes as Record<string, unknown>[];

  it('adds a note to an OPEN incident, internal by default, and lists the notes oldest first with who wrote them', async () => {
    const { monitorId, incidentId } = await openIncident();
    const first = await post(incidentId, { text: '  Looking at the database host  ' });
    expect(first.status, first.text).to.equal(201);
    expect(first.body.note).to.deep.equal({
      id: first.body.note.id, incident_id: incidentId, monitor_id: monitorId, project_id: projectId, kind: 'note', visibility: 'internal',
      text: 'Looking at the database host', added_at: vigil.clock.now().toISOString(), author_user_id: ownerId, author_email: 'notes@example.com',
    });
    // Read your writes: the next request sees it, as does the one after the second note added in the same millisecond.
    expect(await list(incidentId)).to.deep.equal([first.body.note]);
    const second = await post(incidentId, { text: 'Failing over to the replica', visibility: 'public', kind: 'note' });
    expect(second.status).to.equal(201);
    expect((await list(incidentId)).map((n) => [n['text'], n['visibility']])).to.deep.equal([['Looking at the database host', 'internal'], ['Failing over to the replica', 'public']]);
    // The incident itself is as it was.
    const incident = (await vigil.request('GET', `/v1/incidents/${incidentId}`, { key })).body.incident;
    expect(Object.keys(incident)).to.not.include('notes');
  });

  it('takes notes on an ACKNOWLEDGED incident, refuses a postmortem before the resolution and a note after it, and takes several postmortems', async () => {
    const { incidentId } = await openIncident();
    await vigil.request('POST', `/v1/incidents/${incidentId}/acknowledge`, { key });
    expect((await post(incidentId, { text: 'Still on it' })).status).to.equal(201);
    const early = await post(incidentId, { text: 'It was the disk', kind: 'postmortem' });
    expect(early).to.deep.include({ status: 400, body: { error: 'a postmortem is written once the incident is RESOLVED; this one is ACKNOWLEDGED: add a note (kind "note") instead' } });

    await vigil.request('POST', `/v1/incidents/${incidentId}/resolve`, { key });
    const late = await post(incidentId, { text: 'One more thing' });
    expect(late).to.deep.include({ status: 400, body: { error: 'the incident is RESOLVED: a note is for an open incident; write a postmortem (kind "postmortem") instead' } });
    for (const text of ['The disk filled up with logs', 'Corrected: it was the WAL, not the logs']) {
      expect((await post(incidentId, { text, kind: 'postmortem', visibility: 'public' })).status).to.equal(201);
    }
    expect((await list(incidentId)).map((n) => `${n['kind']}: ${n['text']}`)).to.deep.equal([
      'note: Still on it', 'postmortem: The disk filled up with logs', 'postmortem: Corrected: it was the WAL, not the logs',
    ]);
  });

  it('answers 400 naming the field for a missing, blank, too long or unclean text and an unknown kind or visibility, and records nothing', async () => {
    const { incidentId } = await openIncident();
    const cases: [unknown, string][] = [
      [{}, 'text is required'],
      [{ text: 42 }, 'text must be a string of 1 to 4000 characters'],
      [{ text: '   \n ' }, 'text must not be empty'],
      [{ text: 'x'.repeat(4001) }, 'text must be at most 4000 characters; this one has 4001'],
      [{ text: 'a\u0000b' }, 'text must not contain NUL or unpaired surrogate characters'],
      [{ text: 'half \ud800 a pair' }, 'text must not contain NUL or unpaired surrogate characters'],
      [{ text: 'ok', visibility: 'everyone' }, 'visibility must be one of internal, public'],
      [{ text: 'ok', kind: 'comment' }, 'kind must be one of note, postmortem'],
    ];
    for (const [body, error] of cases) {
      const response = await post(incidentId, body);
      expect(response.status, JSON.stringify(body)).to.equal(400);
      expect(response.body.error, JSON.stringify(body)).to.equal(error);
    }
    // Padding around 4000 characters is trimmed before the count.
    expect((await post(incidentId, { text: ` ${'y'.repeat(4000)}\n` })).status).to.equal(201);
    expect((await list(incidentId)).map((n) => (n['text'] as string).length)).to.deep.equal([4000]);
  });

  it('lets a READONLY member read the notes but refuses their note with 403, and answers 404 for an unknown incident', async () => {
    const { incidentId } = await openIncident();
    await post(incidentId, { text: 'Visible to every member' });
    expect((await list(incidentId, readerKey)).map((n) => n['text'])).to.deep.equal(['Visible to every member']);
    const refused = await post(incidentId, { text: 'Can I?' }, readerKey);
    expect(refused.status).to.equal(403);
    expect(await list(incidentId)).to.have.length(1);
    expect((await post('7d1b5d0e-8b8a-4f0f-9d5e-1c2b3a4d5e6f', { text: 'Nobody home' })).status).to.equal(404);
    expect((await vigil.request('GET', '/v1/incidents/7d1b5d0e-8b8a-4f0f-9d5e-1c2b3a4d5e6f/notes', { key })).status).to.equal(404);
  });

  it('shows each note in the incident timeline, with who wrote it and its visibility, in order with the lifecycle', async () => {
    const { incidentId } = await openIncident();
    vigil.clock.advance(60_000);
    await post(incidentId, { text: 'Checking the <b>cron</b> logs', visibility: 'public' });
    vigil.clock.advance(60_000);
    await vigil.request('POST', `/v1/incidents/${incidentId}/resolve`, { key });
    await post(incidentId, { text: 'A full disk', kind: 'postmortem' });
    const { entries } = (await vigil.request('GET', `/v1/incidents/${incidentId}/timeline`, { key })).body;
    const tail = entries.slice(-3).map((e: { type: string; summary: string }) => `${e.type}: ${e.summary}`);
    expect(tail).to.deep.equal([
      'IncidentNoteAdded: Note (public) by notes@example.com: Checking the <b>cron</b> logs',
      'IncidentResolved: Resolved by notes@example.com',
      'IncidentNoteAdded: Postmortem (internal) by notes@example.com: A full disk',
    ]);
    expect(entries.at(-1).data).to.include({ kind: 'postmortem', visibility: 'internal', text: 'A full disk', email: 'notes@example.com' });
  });

  it("keeps a deleted monitor's incident notes in its list and its timeline, and refuses new ones with 400", async () => {
    const { monitorId, incidentId } = await openIncident();
    await post(incidentId, { text: 'Retiring this job', visibility: 'public' });
    expect((await vigil.request('DELETE', `/v1/monitors/${monitorId}`, { key })).status).to.equal(204);
    expect((await list(incidentId)).map((n) => n['text'])).to.deep.equal(['Retiring this job']);
    const { entries } = (await vigil.request('GET', `/v1/incidents/${incidentId}/timeline`, { key })).body;
    expect(entries.filter((e: { type: string }) => e.type === 'IncidentNoteAdded').map((e: { summary: string }) => e.summary)).to.deep.equal([
      'Note (public) by notes@example.com: Retiring this job',
    ]);
    const refused = await post(incidentId, { text: 'What happened', kind: 'postmortem' });
    expect(refused).to.deep.include({ status: 400, body: { error: `incident ${incidentId} is archived with its deleted monitor; it takes no more notes` } });
  });

  it('keeps in the timeline a postmortem written while the incident was being archived, after its timeline was read', async () => {
    const { monitorId, incidentId } = await openIncident();
    const events = vigil.commands.events;
    const append = events.appendToStream.bind(events);
    // Another process (its own locks) writes the postmortem just before the archive is appended.
    const other = commandContext(events, { clock: vigil.clock.now });
    let raced = false;
    events.appendToStream = async (stream, toAppend, options) => {
      if (!raced && toAppend.some((e) => e.type === 'IncidentArchived')) {
        raced = true;
        await addIncidentNote(other, { monitor_id: monitorId, incident_id: incidentId, kind: 'postmortem', visibility: 'public', text: 'Written during the deletion' }, { user_id: ownerId, email: 'notes@example.com', api_key_id: 'k' }, { kind: 'user', user_id: ownerId, api_key_id: 'k', request_id: null });
      }
      return append(stream, toAppend, options);
    };
    try {
      expect((await vigil.request('DELETE', `/v1/monitors/${monitorId}`, { key })).status).to.equal(204);
    } finally {
      events.appendToStream = append;
    }
    expect(raced).to.equal(true);
    const { entries } = (await vigil.request('GET', `/v1/incidents/${incidentId}/timeline`, { key })).body;
    expect(entries.map((e: { type: string }) => e.type).slice(-2)).to.deep.equal(['IncidentResolved', 'IncidentNoteAdded']);
    expect(entries.at(-1).summary).to.equal('Postmortem (public) by notes@example.com: Written during the deletion');
  });

  it('records each note as an event of the history, exported with the project, and a rebuild of the read models makes the same notes', async () => {
    const { incidentId } = await openIncident();
    const added = (await post(incidentId, { text: 'Exported and rebuilt', visibility: 'public' })).body.note;
    const history = (await vigil.request('GET', `/v1/projects/${projectId}/events?type=IncidentNoteAdded&limit=200`, { key })).body.data;
    expect(history.map((e: { data: { note_id: string } }) => e.data.note_id)).to.include(added.id);
    await vigil.settle();
    const notes = await vigil.vigil.stores.readModels.find('incident_notes', { project_id: projectId });
    expect(notes.length).to.be.greaterThan(5);
    const verified = await verifyReadModels(vigil.vigil.stores.events, vigil.vigil.stores.readModels, allProjections());
    expect(verified.differences).to.deep.equal([]);
    const exported = await runCliCaptured(['events', 'export', '--project', projectId], vigil.env);
    expect(exported.code, exported.stderr).to.equal(0);
    const noteEvents = exported.stdout.map((line) => JSON.parse(line)).filter((e) => e.type === 'IncidentNoteAdded');
    expect(noteEvents.map((e) => e.data.note_id)).to.include(added.id);
    expect(noteEvents.find((e) => e.data.note_id === added.id)).to.deep.include({ stream: `incident-${incidentId}` });
  });
});
