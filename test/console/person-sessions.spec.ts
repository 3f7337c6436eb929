import { expect } from 'chai';
import { changeMemberRole, removeMember } from '../../src/app/projects.js';
import type { Actor } from '../../src/app/command-handler.js';
import { personWithPassword, postPasswordSignIn } from '../support/people.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

const PASSWORD = 'correct horse battery staple';
const SEEDING: Actor = { kind: 'system', user_id: null, api_key_id: null, request_id: null };

/** A person's console session acting: no key behind it, their role looked up on every request. */
describe('Web console sessions of people', function () {
  this.timeout(120_000);
  let vigil: TestVigil;

  afterEach(async () => {
    await vigil?.stop();
  });

  async function signIn(email: string): Promise<{ cookie: string; csrf: string }> {
    const { response } = await postPasswordSignIn(vigil.url, email, PASSWORD);
    expect(response.status).to.equal(303);
    const cookie = `vigil_session=${/vigil_session=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1] ?? ''}`;
    const page = await (await fetch(`${vigil.url}/account`, { headers: { Cookie: cookie } })).text();
    return { cookie, csrf: /name="csrf_token" value="([^"]+)"/.exec(page)?.[1] ?? '' };
  }

  const post = (path: string, session: { cookie: string; csrf: string }) =>
    fetch(`${vigil.url}${path}`, { method: 'POST', redirect: 'manual', headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: session.cookie }, body: new URLSearchParams({ csrf_token: session.csrf }) });

  async function failingMonitor(key: string, projectId: string): Promise<string> {
    const created = await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Backup', slug: 'backup', type: 'JOB_CRON', schedule: '0 3 * * *' } });
    expect(created.status, created.text).to.equal(201);
    const monitorId: string = created.body.monitor.id;
    expect((await fetch(`${vigil.url}/v1/ping/${monitorId}/fail`)).status).to.be.lessThan(300);
    await vigil.settle();
    const incidents = await vigil.request('GET', `/v1/incidents?project_id=${projectId}`, { key });
    return incidents.body.data[0].id;
  }

  it('acknowledges an incident as the person, recorded with no key and the session that did it', async () => {
    vigil = await TestVigil.start();
    const { userId, projectId } = await personWithPassword(vigil, 'ada@example.com', PASSWORD);
    const key = await vigil.accountKey(userId, ALL_SCOPES);
    const incidentId = await failingMonitor(key, projectId!);
    const session = await signIn('ada@example.com');
    const acknowledged = await post(`/incidents/${incidentId}/acknowledge`, session);
    expect(acknowledged.status).to.equal(303);

    const [ref] = (await vigil.vigil.stores.events.readStream(`signins-${userId}`)).map((e) => e.data['session_ref']);
    const event = (await vigil.vigil.stores.events.readAll()).find((e) => e.type === 'IncidentAcknowledged')!;
    expect(event.data).to.include({ user_id: userId, email: 'ada@example.com', api_key_id: null });
    expect(event.metadata).to.include({ kind: 'user', user_id: userId, api_key_id: null, session_ref: ref, schema_version: 2 });
    const shown = await vigil.request('GET', `/v1/incidents/${incidentId}`, { key });
    expect(shown.body.incident.acknowledged_by).to.deep.equal({ kind: 'user', user_id: userId, email: 'ada@example.com', api_key_id: null });
  });

  it('follows a role lowered and a membership removed at the next request of a session already open', async () => {
    vigil = await TestVigil.start();
    const { userId: ownerId, projectId } = await personWithPassword(vigil, 'owner@example.com', PASSWORD);
    const { userId: bobId } = await personWithPassword(vigil, 'bob@example.com', PASSWORD, null);
    await vigil.member(projectId!, bobId, 'MEMBER');
    const incidentId = await failingMonitor(await vigil.accountKey(ownerId, ALL_SCOPES), projectId!);
    const bob = await signIn('bob@example.com');
    expect((await fetch(`${vigil.url}/incidents/${incidentId}`, { headers: { Cookie: bob.cookie } })).status).to.equal(200);

    await changeMemberRole(vigil.commands, { project_id: projectId!, user_id: bobId, role: 'READONLY' }, SEEDING);
    await vigil.settle();
    const refused = await post(`/incidents/${incidentId}/acknowledge`, bob);
    expect(refused.status).to.equal(403);
    expect(await refused.text()).to.contain('needs the MEMBER role');

    await removeMember(vigil.commands, { project_id: projectId!, user_id: bobId }, SEEDING);
    await vigil.settle();
    expect((await fetch(`${vigil.url}/incidents/${incidentId}`, { headers: { Cookie: bob.cookie } })).status).to.equal(404);
    expect((await fetch(`${vigil.url}/projects/${projectId}`, { headers: { Cookie: bob.cookie } })).status).to.equal(404);
  });
});
