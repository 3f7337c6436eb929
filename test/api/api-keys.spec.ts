import { expect } from 'chai';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

describe('API keys API', () => {
  let vigil: TestVigil;
  let ownerId: string;
  let projectId: string;
  before(async () => {
    vigil = await TestVigil.start();
    ownerId = await vigil.user('keys-owner@example.com');
    projectId = await vigil.project(ownerId);
  });
  after(() => vigil.stop());

  it('creates an account key shown once, in the documented format, and usable at once', async () => {
    const userId = await vigil.user('fmt@example.com');
    await vigil.project(userId);
    const parent = await vigil.accountKey(userId, ['manage_projects']);
    const created = await vigil.request('POST', '/v1/api-keys', { key: parent, body: { name: 'ci', expires_in_days: 7, scopes: ['read'], env: 'test' } });
    expect(created.status).to.equal(201);
    expect(created.body.key).to.match(/^vgl_test_[0-9A-Za-z]{26}$/);
    expect(created.body.api_key).to.include({ name: 'ci', kind: 'account', env: 'test', project_id: null, revoked_at: null });
    expect(created.body.api_key.scopes).to.deep.equal(['read']);
    expect(created.body.api_key.expires_at).to.equal('2026-11-28T12:00:00.000Z');
    expect((await vigil.request('GET', '/v1/projects', { key: created.body.key })).status).to.equal(200);
    const listed = await vigil.request('GET', '/v1/api-keys', { key: parent });
    expect(listed.text).to.not.include(created.body.key);
    expect(listed.text).to.not.include('key_hash');
    expect(listed.body.api_keys.map((k: { id: string }) => k.id)).to.include(created.body.api_key.id);
  });

  it('refuses a key with a scope the creating key lacks, or one that outlives it', async () => {
    const userId = await vigil.user('power@example.com');
    await vigil.project(userId);
    const parent = await vigil.accountKey(userId, ['manage_monitors'], 10);
    const wider = await vigil.request('POST', '/v1/api-keys', { key: parent, body: { name: 'x', expires_in_days: 1, scopes: ['destroy'] } });
    expect(wider.status).to.equal(403);
    expect(wider.body.code).to.equal('INSUFFICIENT_API_KEY_SCOPE');
    const longer = await vigil.request('POST', '/v1/api-keys', { key: parent, body: { name: 'x', expires_in_days: 11, scopes: ['read'] } });
    expect(longer.status).to.equal(403);
    expect(longer.body.error).to.match(/outlive/);
    const same = await vigil.request('POST', '/v1/api-keys', { key: parent, body: { name: 'x', expires_in_days: 10, scopes: ['manage_monitors'] } });
    expect(same.status).to.equal(201);
  });

  it('lets a project-scoped key mint only project keys for its own project, never account keys', async () => {
    const managerId = await vigil.user('pk-manager@example.com');
    await vigil.member(projectId, managerId, 'MANAGER');
    const projectKey = await vigil.projectKey(managerId, projectId);
    const account = await vigil.request('POST', '/v1/api-keys', { key: projectKey, body: { name: 'x', expires_in_days: 1 } });
    expect(account.status).to.equal(403);
    expect(account.body.code).to.equal('INSUFFICIENT_API_KEY_SCOPE');
    const sibling = await vigil.request('POST', '/v1/api-keys', { key: projectKey, body: { name: 'x', expires_in_days: 1, project_id: projectId } });
    expect(sibling.status).to.equal(201);
    expect(sibling.body.api_key).to.include({ kind: 'project', project_id: projectId });
    expect(sibling.body.api_key.scopes).to.deep.equal(['read', 'manage_monitors']);
    const withScopes = await vigil.request('POST', '/v1/api-keys', { key: projectKey, body: { name: 'x', expires_in_days: 1, project_id: projectId, scopes: ['read'] } });
    expect(withScopes.status).to.equal(400);
  });

  it('allows at most 3 active project-scoped keys per user per project', async () => {
    const managerId = await vigil.user('limit@example.com');
    await vigil.member(projectId, managerId, 'MANAGER');
    const key = await vigil.accountKey(managerId, ['manage_monitors']);
    for (let i = 0; i < 3; i++) {
      expect((await vigil.request('POST', '/v1/api-keys', { key, body: { name: `k${i}`, expires_in_days: 1, project_id: projectId } })).status).to.equal(201);
    }
    const fourth = await vigil.request('POST', '/v1/api-keys', { key, body: { name: 'k4', expires_in_days: 1, project_id: projectId } });
    expect(fourth.status).to.equal(400);
    expect(fourth.body.error).to.match(/at most 3 active project-scoped API keys per project/);
  });

  it('allows at most 3 active account-scoped keys per user, and a revoked one frees its place', async () => {
    const userId = await vigil.user('acct-limit@example.com');
    await vigil.project(userId);
    const first = await vigil.accountKey(userId, ALL_SCOPES);
    const ids = [];
    for (let i = 0; i < 2; i++) {
      const created = await vigil.request('POST', '/v1/api-keys', { key: first, body: { name: `k${i}`, expires_in_days: 1, scopes: ['read'] } });
      expect(created.status).to.equal(201);
      ids.push(created.body.api_key.id);
    }
    const fourth = await vigil.request('POST', '/v1/api-keys', { key: first, body: { name: 'k4', expires_in_days: 1, scopes: ['read'] } });
    expect(fourth.status).to.equal(400);
    expect(fourth.body.error).to.match(/at most 3 active account-scoped/);
    expect((await vigil.request('DELETE', `/v1/api-keys/${ids[0]}`, { key: first })).status).to.equal(204);
    expect((await vigil.request('POST', '/v1/api-keys', { key: first, body: { name: 'k5', expires_in_days: 1, scopes: ['read'] } })).status).to.equal(201);
  });

  it('revokes immediately; a key cannot revoke a more powerful one, nor another user’s', async () => {
    const userId = await vigil.user('revoke@example.com');
    await vigil.project(userId);
    const strong = await vigil.accountKey(userId, ALL_SCOPES);
    const weak = await vigil.accountKey(userId, ['read']);
    const strongId = (await vigil.request('GET', '/v1/api-keys', { key: strong })).body.api_keys.find((k: { scopes: string[] }) => k.scopes.length === 5).id;
    const refused = await vigil.request('DELETE', `/v1/api-keys/${strongId}`, { key: weak });
    expect(refused.status).to.equal(403);
    expect(refused.body.code).to.equal('INSUFFICIENT_API_KEY_SCOPE');
    const otherId = await vigil.user('other-revoke@example.com');
    await vigil.project(otherId);
    const otherKey = await vigil.accountKey(otherId, ALL_SCOPES);
    expect((await vigil.request('DELETE', `/v1/api-keys/${strongId}`, { key: otherKey })).status).to.equal(404);
    expect((await vigil.request('DELETE', `/v1/api-keys/${strongId}`, { key: strong })).status).to.equal(204);
    const after = await vigil.request('GET', '/v1/projects', { key: strong });
    expect(after.status).to.equal(401);
    expect(after.body.error).to.equal('API key has been revoked');
  });

  it('refuses account keys to a user who owns no project', async () => {
    const memberId = await vigil.user('no-projects@example.com');
    await vigil.member(projectId, memberId, 'MEMBER');
    const key = await vigil.accountKey(memberId, ['read']);
    const created = await vigil.request('POST', '/v1/api-keys', { key, body: { name: 'x', expires_in_days: 1 } });
    expect(created.status).to.equal(403);
    expect(created.body.error).to.match(/own at least one project/);
  });

  it('names the bad field: expires_in_days 0 and 366 are refused, 1 and 365 accepted', async () => {
    const userId = await vigil.user('days@example.com');
    await vigil.project(userId);
    const key = await vigil.accountKey(userId, ['read'], 365);
    for (const days of [0, 366, 'ten']) {
      const refused = await vigil.request('POST', '/v1/api-keys', { key, body: { name: 'x', expires_in_days: days } });
      expect(refused.status).to.equal(400);
      expect(refused.body.error).to.equal('expires_in_days must be an integer from 1 to 365');
    }
    for (const days of [1, 365]) expect((await vigil.request('POST', '/v1/api-keys', { key, body: { name: 'x', expires_in_days: days } })).status).to.equal(201);
    const badScope = await vigil.request('POST', '/v1/api-keys', { key, body: { name: 'x', expires_in_days: 1, scopes: ['read', 'admin'] } });
    expect(badScope.body.error).to.equal('scopes[1] must be one of read, manage_monitors, manage_projects, manage_notifications, destroy');
  });
});
