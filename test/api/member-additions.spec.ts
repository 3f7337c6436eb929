import { expect } from 'chai';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

/** Adding members by id (without asking them), and by email (an invitation: never a lookup). */
describe('Project members added without being asked', function () {
  this.timeout(60_000);
  let vigil: TestVigil;
  let ownerKey: string;
  let projectId: string;

  beforeEach(async () => {
    vigil = await TestVigil.start();
    const owner = await vigil.user('owner@example.com');
    ownerKey = await vigil.accountKey(owner, ALL_SCOPES);
    projectId = await vigil.project(owner, 'Jobs');
  });
  afterEach(() => vigil.stop());

  it('lets a member leave a project they were added to, whatever their role, but not remove others or the owner leave', async () => {
    const added = await vigil.user('added@example.com');
    const other = await vigil.user('other@example.com');
    await vigil.member(projectId, added, 'READONLY');
    await vigil.member(projectId, other, 'MEMBER');
    const addedKey = await vigil.accountKey(added, ['read', 'manage_projects']);

    expect((await vigil.request('DELETE', `/v1/projects/${projectId}/members/${other}`, { key: addedKey })).status).to.equal(403);
    const left = await vigil.request('DELETE', `/v1/projects/${projectId}/members/${added}`, { key: addedKey });
    expect(left.status, left.text).to.equal(204);
    expect((await vigil.request('GET', `/v1/projects/${projectId}`, { key: addedKey })).status).to.equal(404);
    const members = (await vigil.request('GET', `/v1/projects/${projectId}`, { key: ownerKey })).body.project.members.map((m: { user_id: string }) => m.user_id);
    expect(members).to.not.include(added);
    expect(members).to.include(other);

    const owner = (await vigil.request('GET', `/v1/projects/${projectId}`, { key: ownerKey })).body.project.owner_id;
    const ownerLeaving = await vigil.request('DELETE', `/v1/projects/${projectId}/members/${owner}`, { key: ownerKey });
    expect(ownerLeaving.status).to.equal(400);
    expect(ownerLeaving.body.error).to.match(/owner cannot be removed/);
  });

  it('invites an email instead of looking it up: the same answer for an address with an account as for one without, and no one joins', async () => {
    await vigil.user('exists@example.com');
    const answers = [];
    for (const email of ['exists@example.com', 'nobody@example.com']) {
      const answer = await vigil.request('POST', `/v1/projects/${projectId}/members`, { key: ownerKey, body: { email, role: 'READONLY' } });
      expect(answer.status, answer.text).to.equal(201);
      expect(answer.body.member).to.equal(undefined);
      expect(answer.body.invitation).to.include({ email, role: 'READONLY', project_id: projectId, status: 'open' });
      expect(answer.body.url).to.match(/\/invitations\/[A-Za-z0-9_-]+$/);
      answers.push(Object.keys(answer.body).sort().join() + '|' + Object.keys(answer.body.invitation).sort().join() + '|' + answer.headers.get('content-length'));
    }
    expect(answers[0]!.replace(/\|\d+$/, '')).to.equal(answers[1]!.replace(/\|\d+$/, ''));
    const members = (await vigil.request('GET', `/v1/projects/${projectId}`, { key: ownerKey })).body.project.members;
    expect(members).to.have.length(1);
    const invitations = (await vigil.request('GET', `/v1/projects/${projectId}/invitations`, { key: ownerKey })).body.invitations.map((i: { email: string }) => i.email);
    expect(invitations).to.have.members(['exists@example.com', 'nobody@example.com']);
    // Named by id (which its user gives out), a member is still added at once.
    const byId = await vigil.user('by-id@example.com');
    const added = await vigil.request('POST', `/v1/projects/${projectId}/members`, { key: ownerKey, body: { user_id: byId, role: 'READONLY' } });
    expect(added.status).to.equal(201);
    expect(added.body.member).to.include({ user_id: byId, role: 'READONLY' });
  });
});
