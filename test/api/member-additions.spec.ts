import { expect } from 'chai';
import { EMAIL_LOOKUP_LIMIT } from '../../src/api/member-lookups.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

/** Adding members, until invitations ask them first: what is checked without them. */
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

  it(`looks up at most ${EMAIL_LOOKUP_LIMIT.requests} emails an hour for each user, found or not, so that addresses cannot be tried in bulk`, async () => {
    await vigil.user('exists@example.com');
    const outcomes: number[] = [];
    for (let i = 0; i < EMAIL_LOOKUP_LIMIT.requests; i += 1) {
      const email = i === 0 ? 'exists@example.com' : `guess-${i}@example.com`;
      outcomes.push((await vigil.request('POST', `/v1/projects/${projectId}/members`, { key: ownerKey, body: { email, role: 'READONLY' } })).status);
    }
    expect(outcomes[0]).to.equal(201);
    expect(new Set(outcomes.slice(1))).to.deep.equal(new Set([400]));
    for (const email of ['exists@example.com', 'another-guess@example.com']) {
      const refused = await vigil.request('POST', `/v1/projects/${projectId}/members`, { key: ownerKey, body: { email, role: 'READONLY' } });
      expect(refused.status).to.equal(429);
      expect(Number(refused.headers.get('retry-after'))).to.be.greaterThan(0);
      expect(refused.body.error).to.match(/by email 20 times an hour/);
    }
    // Named by id (which its user gives out), a member is still added.
    const byId = await vigil.user('by-id@example.com');
    expect((await vigil.request('POST', `/v1/projects/${projectId}/members`, { key: ownerKey, body: { user_id: byId, role: 'READONLY' } })).status).to.equal(201);
  });
});
