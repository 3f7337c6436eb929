import { expect } from 'chai';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

describe('Projects API', () => {
  let vigil: TestVigil;
  let ownerId: string;
  let ownerKey: string;
  before(async () => {
    vigil = await TestVigil.start();
    ownerId = await vigil.user('owner@example.com');
    ownerKey = await vigil.accountKey(ownerId, ALL_SCOPES);
  });
  after(() => vigil.stop());

  async function newProject(name = 'Billing') {
    const created = await vigil.request('POST', '/v1/projects', { key: ownerKey, body: { name, description: 'nightly jobs' } });
    expect(created.status).to.equal(201);
    return created.body.project.id as string;
  }

  it('creates a project whose creator is its OWNER, readable at once (read-your-writes)', async () => {
    const created = await vigil.request('POST', '/v1/projects', { key: ownerKey, body: { name: 'Billing', description: 'nightly jobs' } });
    expect(created.status).to.equal(201);
    const project = created.body.project;
    expect(project).to.include({ name: 'Billing', description: 'nightly jobs', owner_id: ownerId });
    expect(project.owner).to.deep.equal({ id: ownerId, email: 'owner@example.com', first_name: 'owner', last_name: 'Test' });
    expect(project._count).to.deep.equal({ members: 1 });
    expect(project.members[0]).to.include({ user_id: ownerId, role: 'OWNER', project_id: project.id });
    expect(project.created_at).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(project.ping_key).to.match(/^[0-9A-Za-z]{22}$/);
    const read = await vigil.request('GET', `/v1/projects/${project.id}`, { key: ownerKey });
    expect(read.status).to.equal(200);
    expect(read.body.project.members[0].user).to.deep.equal({ id: ownerId, email: 'owner@example.com', first_name: 'owner', last_name: 'Test' });
  });

  it('lists only the projects the key can reach, members without embedded users', async () => {
    const mine = await newProject('Mine');
    const strangerId = await vigil.user('stranger@example.com');
    const theirs = await vigil.project(strangerId, 'Theirs');
    await vigil.settle();
    const list = await vigil.request('GET', '/v1/projects', { key: ownerKey });
    const ids = list.body.projects.map((p: { id: string }) => p.id);
    expect(ids).to.include(mine).and.not.include(theirs);
    const listed = list.body.projects.find((p: { id: string }) => p.id === mine);
    expect(listed.members[0]).to.not.have.property('user');
    expect((await vigil.request('GET', `/v1/projects/${theirs}`, { key: ownerKey })).status).to.equal(404);
  });

  it('updates only the fields sent', async () => {
    const id = await newProject();
    const patched = await vigil.request('PATCH', `/v1/projects/${id}`, { key: ownerKey, body: { description: 'invoices' } });
    expect(patched.status).to.equal(200);
    expect(patched.body.project).to.include({ name: 'Billing', description: 'invoices' });
    expect((await vigil.request('GET', `/v1/projects/${id}`, { key: ownerKey })).body.project.description).to.equal('invoices');
  });

  it('refuses a name of 0 or 101 characters and accepts 100, naming the field', async () => {
    expect((await vigil.request('POST', '/v1/projects', { key: ownerKey, body: { name: 'x'.repeat(100) } })).status).to.equal(201);
    for (const name of ['', 'x'.repeat(101), 42]) {
      const refused = await vigil.request('POST', '/v1/projects', { key: ownerKey, body: { name } });
      expect(refused.status).to.equal(400);
      expect(refused.body.error).to.match(/^name must be/);
    }
    const missing = await vigil.request('POST', '/v1/projects', { key: ownerKey, body: { description: 'x' } });
    expect(missing.body).to.deep.equal({ error: 'name is required' });
  });

  it('rotates the ping key', async () => {
    const id = await newProject();
    const before = (await vigil.request('GET', `/v1/projects/${id}`, { key: ownerKey })).body.project.ping_key;
    const rotated = await vigil.request('POST', `/v1/projects/${id}/ping-key/rotate`, { key: ownerKey });
    expect(rotated.status).to.equal(200);
    expect(rotated.body.project.ping_key).to.match(/^[0-9A-Za-z]{22}$/).and.not.equal(before);
  });

  describe('members', () => {
    it('adds a member by user id (by email it invites them), changes the role, and removes them', async () => {
      const id = await newProject();
      const aliceId = await vigil.user(`alice-${id}@example.com`);
      const bobId = await vigil.user(`bob-${id}@example.com`);
      await vigil.settle();
      const byEmail = await vigil.request('POST', `/v1/projects/${id}/members`, { key: ownerKey, body: { email: `Alice-${id}@example.com`, role: 'MEMBER' } });
      expect(byEmail.status).to.equal(201);
      expect(byEmail.body.invitation).to.include({ email: `alice-${id}@example.com`, role: 'MEMBER', project_id: id });
      expect((await vigil.request('GET', `/v1/projects/${id}`, { key: ownerKey })).body.project._count.members).to.equal(1);
      const byAliceId = await vigil.request('POST', `/v1/projects/${id}/members`, { key: ownerKey, body: { user_id: aliceId, role: 'MEMBER' } });
      expect(byAliceId.body.member).to.include({ user_id: aliceId, role: 'MEMBER', project_id: id });
      expect(byAliceId.body.member.user.email).to.equal(`alice-${id}@example.com`);
      const byId = await vigil.request('POST', `/v1/projects/${id}/members`, { key: ownerKey, body: { user_id: bobId, role: 'READONLY' } });
      expect(byId.status).to.equal(201);
      expect((await vigil.request('GET', `/v1/projects/${id}`, { key: ownerKey })).body.project._count.members).to.equal(3);

      const promoted = await vigil.request('PATCH', `/v1/projects/${id}/members/${bobId}`, { key: ownerKey, body: { role: 'MANAGER' } });
      expect(promoted.status).to.equal(200);
      expect(promoted.body.member.role).to.equal('MANAGER');

      expect((await vigil.request('DELETE', `/v1/projects/${id}/members/${aliceId}`, { key: ownerKey })).status).to.equal(204);
      const members = (await vigil.request('GET', `/v1/projects/${id}`, { key: ownerKey })).body.project.members;
      expect(members.map((m: { user_id: string }) => m.user_id)).to.have.members([ownerId, bobId]);
    });

    it('refuses the OWNER role, an unknown user id, a duplicate member, and removing the owner', async () => {
      const id = await newProject();
      const carolId = await vigil.user(`carol-${id}@example.com`);
      await vigil.settle();
      const owner = await vigil.request('POST', `/v1/projects/${id}/members`, { key: ownerKey, body: { user_id: carolId, role: 'OWNER' } });
      expect(owner).to.include({ status: 400 });
      expect(owner.body.error).to.equal('role must be one of MANAGER, MEMBER, READONLY');
      const unknown = await vigil.request('POST', `/v1/projects/${id}/members`, { key: ownerKey, body: { user_id: '00000000-0000-4000-8000-000000000000', role: 'MEMBER' } });
      expect(unknown.status).to.equal(400);
      expect(unknown.body.error).to.match(/no user has the id/);
      const both = await vigil.request('POST', `/v1/projects/${id}/members`, { key: ownerKey, body: { role: 'MEMBER' } });
      expect(both.body.error).to.equal('give exactly one of user_id or email');
      await vigil.request('POST', `/v1/projects/${id}/members`, { key: ownerKey, body: { user_id: carolId, role: 'MEMBER' } });
      const again = await vigil.request('POST', `/v1/projects/${id}/members`, { key: ownerKey, body: { user_id: carolId, role: 'MEMBER' } });
      expect(again.status).to.equal(400);
      expect(again.body.error).to.match(/already a member/);
      const removeOwner = await vigil.request('DELETE', `/v1/projects/${id}/members/${ownerId}`, { key: ownerKey });
      expect(removeOwner.status).to.equal(400);
      expect(removeOwner.body.error).to.match(/owner cannot be removed/);
    });

    it('gives a new member access at once and takes it away on removal', async () => {
      const id = await newProject();
      const daveId = await vigil.user(`dave-${id}@example.com`);
      const daveKey = await vigil.accountKey(daveId, ['read']);
      expect((await vigil.request('GET', `/v1/projects/${id}`, { key: daveKey })).status).to.equal(404);
      await vigil.request('POST', `/v1/projects/${id}/members`, { key: ownerKey, body: { user_id: daveId, role: 'READONLY' } });
      expect((await vigil.request('GET', `/v1/projects/${id}`, { key: daveKey })).status).to.equal(200);
      await vigil.request('DELETE', `/v1/projects/${id}/members/${daveId}`, { key: ownerKey });
      expect((await vigil.request('GET', `/v1/projects/${id}`, { key: daveKey })).status).to.equal(404);
    });
  });

  describe('deleting a project', () => {
    it('removes the project, its memberships and the keys bound to it, and records the deletion as an event', async () => {
      const id = await newProject('Doomed');
      const eveId = await vigil.user(`eve-${id}@example.com`);
      await vigil.member(id, eveId, 'MANAGER');
      const boundKey = await vigil.projectKey(eveId, id);
      expect((await vigil.request('GET', `/v1/projects/${id}`, { key: boundKey })).status).to.equal(200);

      expect((await vigil.request('DELETE', `/v1/projects/${id}`, { key: ownerKey })).status).to.equal(204);
      expect((await vigil.request('GET', `/v1/projects/${id}`, { key: ownerKey })).status).to.equal(404);
      expect((await vigil.request('GET', '/v1/projects', { key: ownerKey })).body.projects.map((p: { id: string }) => p.id)).to.not.include(id);
      expect((await vigil.request('GET', `/v1/projects/${id}`, { key: boundKey })).status).to.equal(401);
      expect(await vigil.vigil.stores.readModels.count('project_members', { project_id: id })).to.equal(0);
      const stream = await vigil.vigil.stores.events.readStream(`project-${id}`);
      expect(stream.at(-1)?.type).to.equal('ProjectDeleted');
      expect(stream.at(-1)?.metadata).to.include({ kind: 'user', user_id: ownerId });
      expect((await vigil.request('DELETE', `/v1/projects/${id}`, { key: ownerKey })).status).to.equal(404);
    });
  });
});
