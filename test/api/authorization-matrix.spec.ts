import { expect } from 'chai';
import type { Scope } from '../../src/domain/access/scopes.js';
import { type Response, TestVigil } from '../support/test-vigil.js';

/**
 * Every role × every scope set × account-vs-project key against the project and key operations.
 * The expected status comes from SPEC "Authentication", spelled out here on its own rather than
 * by calling the implementation's gate, so a wrong gate cannot agree with itself.
 */
type Role = 'OWNER' | 'MANAGER' | 'MEMBER' | 'READONLY' | 'NONE';
type KeySpec = { kind: 'account'; scopes: Scope[] } | { kind: 'project' };
interface Expectation {
  status: number;
  scopeCode?: boolean;
}

const ROLES: Role[] = ['OWNER', 'MANAGER', 'MEMBER', 'READONLY', 'NONE'];
const SCOPE_SETS: Scope[][] = [[], ['read'], ['manage_monitors'], ['manage_projects'], ['destroy'], ['manage_projects', 'destroy'], ['manage_notifications']];
const RANK: Record<Role, number> = { NONE: -1, READONLY: 0, MEMBER: 1, MANAGER: 2, OWNER: 3 };

const scopesOf = (key: KeySpec): Scope[] => (key.kind === 'project' ? ['read', 'manage_monitors'] : ['read', ...key.scopes]);
const SCOPE_DENIED: Expectation = { status: 403, scopeCode: true };
const ROLE_DENIED: Expectation = { status: 403, scopeCode: false };
const HIDDEN: Expectation = { status: 404 };

/** Needs an account key holding `scope`, then a reachable project, then `minRole` on it. */
function projectOperation(key: KeySpec, role: Role, scope: Scope, minRole: Role, success: number): Expectation {
  if (key.kind === 'project' || !scopesOf(key).includes(scope)) return SCOPE_DENIED;
  if (role === 'NONE') return HIDDEN;
  return RANK[role] >= RANK[minRole] ? { status: success } : ROLE_DENIED;
}

interface Operation {
  name: string;
  expect: (key: KeySpec, role: Role) => Expectation;
  run: (world: World) => Promise<Response>;
}

interface World {
  vigil: TestVigil;
  key: string;
  projectId: string;
  outsiderId: string;
}

const OPERATIONS: Operation[] = [
  {
    name: 'GET /v1/projects/:id',
    expect: (_key, role) => (role === 'NONE' ? HIDDEN : { status: 200 }),
    run: (w) => w.vigil.request('GET', `/v1/projects/${w.projectId}`, { key: w.key }),
  },
  {
    name: 'GET /v1/projects',
    expect: () => ({ status: 200 }),
    run: (w) => w.vigil.request('GET', '/v1/projects', { key: w.key }),
  },
  {
    name: 'POST /v1/projects',
    expect: (key) => (key.kind === 'project' || !scopesOf(key).includes('manage_projects') ? SCOPE_DENIED : { status: 201 }),
    run: (w) => w.vigil.request('POST', '/v1/projects', { key: w.key, body: { name: 'New' } }),
  },
  {
    name: 'PATCH /v1/projects/:id',
    expect: (key, role) => projectOperation(key, role, 'manage_projects', 'MANAGER', 200),
    run: (w) => w.vigil.request('PATCH', `/v1/projects/${w.projectId}`, { key: w.key, body: { name: 'Renamed' } }),
  },
  {
    name: 'POST /v1/projects/:id/members',
    expect: (key, role) => projectOperation(key, role, 'manage_projects', 'MANAGER', 201),
    run: (w) => w.vigil.request('POST', `/v1/projects/${w.projectId}/members`, { key: w.key, body: { user_id: w.outsiderId, role: 'READONLY' } }),
  },
  {
    name: 'POST /v1/projects/:id/ping-key/rotate',
    expect: (key, role) => projectOperation(key, role, 'manage_projects', 'MANAGER', 200),
    run: (w) => w.vigil.request('POST', `/v1/projects/${w.projectId}/ping-key/rotate`, { key: w.key }),
  },
  {
    name: 'GET /v1/api-keys',
    expect: () => ({ status: 200 }),
    run: (w) => w.vigil.request('GET', '/v1/api-keys', { key: w.key }),
  },
  {
    // A project key has read + manage_monitors on its project; minting one needs that power and MANAGER.
    name: 'POST /v1/api-keys (project key)',
    expect: (key, role) => {
      if (role === 'NONE') return HIDDEN;
      if (key.kind === 'account' && !scopesOf(key).includes('manage_monitors')) return SCOPE_DENIED;
      return RANK[role] >= RANK.MANAGER ? { status: 201 } : ROLE_DENIED;
    },
    run: (w) => w.vigil.request('POST', '/v1/api-keys', { key: w.key, body: { name: 'minted', expires_in_days: 1, project_id: w.projectId } }),
  },
  {
    name: 'DELETE /v1/projects/:id',
    expect: (key, role) => projectOperation(key, role, 'destroy', 'OWNER', 204),
    run: (w) => w.vigil.request('DELETE', `/v1/projects/${w.projectId}`, { key: w.key }),
  },
];

const KEYS: KeySpec[] = [...SCOPE_SETS.map((scopes): KeySpec => ({ kind: 'account', scopes })), { kind: 'project' }];
const describeKey = (key: KeySpec) => (key.kind === 'project' ? 'project-scoped key' : `account key [${key.scopes.join(', ')}]`);

describe('Authorization matrix', function () {
  this.timeout(120_000);
  let vigil: TestVigil;
  let n = 0;
  before(async () => (vigil = await TestVigil.start()));
  after(() => vigil.stop());

  /** A fresh project per case, so a delete or a rename in one case cannot change another. */
  async function world(role: Role, key: KeySpec): Promise<World> {
    n += 1;
    const ownerId = await vigil.user(`owner-${n}@example.com`);
    const projectId = await vigil.project(ownerId, `P${n}`);
    const outsiderId = await vigil.user(`outsider-${n}@example.com`);
    let callerId = ownerId;
    if (role !== 'OWNER') {
      callerId = await vigil.user(`caller-${n}@example.com`);
      await vigil.project(callerId, `Own${n}`);
      if (role !== 'NONE') await vigil.member(projectId, callerId, role);
    }
    await vigil.settle();
    const apiKey = key.kind === 'project' ? await vigil.projectKey(callerId, projectId) : await vigil.accountKey(callerId, key.scopes);
    return { vigil, key: apiKey, projectId, outsiderId };
  }

  for (const role of ROLES) {
    for (const key of KEYS) {
      // Project keys are minted by Owners and Managers; their role is then resolved live.
      if (key.kind === 'project' && RANK[role] < RANK.MANAGER) continue;
      it(`${role} with ${describeKey(key)}`, async () => {
        for (const operation of OPERATIONS) {
          const w = await world(role, key);
          const wanted = operation.expect(key, role);
          const response = await operation.run(w);
          const label = `${operation.name} as ${role} with ${describeKey(key)}: ${response.text}`;
          expect(response.status, label).to.equal(wanted.status);
          if (wanted.status >= 400) expect(response.body.error, label).to.be.a('string');
          if (wanted.scopeCode === true) expect(response.body.code, label).to.equal('INSUFFICIENT_API_KEY_SCOPE');
          if (wanted.scopeCode === false) expect(response.body, label).to.not.have.property('code');
          if (operation.name === 'GET /v1/projects') {
            const listed = response.body.projects.map((p: { id: string }) => p.id);
            if (role === 'NONE') expect(listed, label).to.not.include(w.projectId);
            else expect(listed, label).to.include(w.projectId);
          }
        }
      });
    }
  }

  it('a project-scoped key follows its creator’s live role: demoted to MEMBER, it can no longer mint keys', async () => {
    const ownerId = await vigil.user('live-owner@example.com');
    const projectId = await vigil.project(ownerId);
    const managerId = await vigil.user('live-manager@example.com');
    await vigil.member(projectId, managerId, 'MANAGER');
    const key = await vigil.projectKey(managerId, projectId);
    const ownerKey = await vigil.accountKey(ownerId, ['manage_projects']);
    const demoted = await vigil.request('PATCH', `/v1/projects/${projectId}/members/${managerId}`, { key: ownerKey, body: { role: 'MEMBER' } });
    expect(demoted.status).to.equal(200);
    const minted = await vigil.request('POST', '/v1/api-keys', { key, body: { name: 'x', expires_in_days: 1, project_id: projectId } });
    expect(minted.status).to.equal(403);
    await vigil.request('DELETE', `/v1/projects/${projectId}/members/${managerId}`, { key: ownerKey });
    expect((await vigil.request('GET', `/v1/projects/${projectId}`, { key })).status).to.equal(404);
    expect((await vigil.request('GET', '/v1/projects', { key })).body.projects).to.deep.equal([]);
  });

  it('a project-scoped key cannot see another project', async () => {
    const ownerId = await vigil.user('two-projects@example.com');
    const mine = await vigil.project(ownerId);
    const other = await vigil.project(ownerId);
    const key = await vigil.projectKey(ownerId, mine);
    expect((await vigil.request('GET', `/v1/projects/${other}`, { key })).status).to.equal(404);
    expect((await vigil.request('GET', '/v1/projects', { key })).body.projects.map((p: { id: string }) => p.id)).to.deep.equal([mine]);
  });
});
