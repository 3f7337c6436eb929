import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { OPERATIONS } from '../../src/api/openapi/operations.js';
import type { Scope } from '../../src/domain/access/scopes.js';
import { type KeyUnderTest, type Outcome, RULES, expectedOutcome, reaches, routeOf } from '../support/authorization-oracle.js';
import { type Ids, type MatrixCase, REQUESTS } from '../support/authorization-requests.js';
import { type Aim, type Caller, MatrixFixtures, type World } from '../support/authorization-world.js';
import { type Target, reply, startTarget } from '../support/http-targets.js';
import { servedRoutes } from '../support/served-routes.js';
import { ALL_SCOPES, type Response, TestVigil } from '../support/test-vigil.js';

/**
 * Every authenticated route × every kind of key (account keys with each scope set, project keys
 * bound to the target or elsewhere) × every role (and none) × own project or a foreign one,
 * against the oracle written from the API contract (docs/api.md; "SPEC" in the test names and
 * messages below means that contract). The routes come from the OpenAPI operation list and the
 * served routers, so a route without a rule fails here.
 */
const SCOPE_SETS: Scope[][] = [
  [],
  ['read'],
  ['manage_monitors'],
  ['manage_projects'],
  ['manage_notifications'],
  ['destroy'],
  ALL_SCOPES,
  ['read', 'manage_monitors'],
  ['manage_projects', 'destroy'],
  ['manage_notifications', 'destroy'],
];
const KEYS: KeyUnderTest[] = [
  ...SCOPE_SETS.map((scopes): KeyUnderTest => ({ kind: 'account', scopes })),
  { kind: 'project', bound: 'target' },
  { kind: 'project', bound: 'elsewhere' },
];
const AIMS: Aim[] = ['home', 'foreign'];

const describeKey = (key: KeyUnderTest) =>
  key.kind === 'account' ? `account key [${key.scopes.join(', ')}]` : `project key bound ${key.bound === 'target' ? 'to the target' : 'elsewhere'}`;

/** Answered without a key: the Ping API, the operator endpoints, badges and public status pages. */
const isPublic = (path: string) => /^\/v1\/(ping|s-ping)\//.test(path) || /^\/(docs|openapi\.json|healthz|readyz|metrics|badge|status)(\/|$)/.test(path);
const routeName = (method: string, path: string) => `${method.toUpperCase()} ${path}`;
const AUTHENTICATED = OPERATIONS.filter((operation) => !isPublic(operation.path));
const routePattern = (path: string) => new RegExp(`^${path.replace(/:\w+/g, '[^/?]+')}(\\?.*)?$`);

function describeOutcome(outcome: Outcome): string {
  if (outcome.status !== 403) return String(outcome.status);
  return outcome.code ? `403 ${outcome.code}` : '403 (role)';
}

/** Why the response is not what the contract says, or null when it is. */
function disagreement(wanted: Outcome, response: Response): string | null {
  const got = `${response.status} ${response.text.slice(0, 160)}`;
  if (response.status !== wanted.status) return `wanted ${describeOutcome(wanted)}, got ${got}`;
  if (wanted.status < 400) return null;
  if (typeof response.body?.error !== 'string') return `wanted an { error } body, got ${got}`;
  if (wanted.status === 403 && (response.body.code ?? null) !== wanted.code) return `wanted ${describeOutcome(wanted)}, got ${got}`;
  return null;
}

/** The same ids, none of which exists: what a foreign resource must be indistinguishable from. */
const ghostOf = (ids: Ids): Ids => {
  const ghost = { ...ids };
  for (const name of Object.keys(ghost) as (keyof Ids)[]) ghost[name] = randomUUID();
  return ghost;
};

describe('Authorization matrix', function () {
  this.timeout(180_000);
  let vigil: TestVigil;
  let sink: Target;
  let fixtures: MatrixFixtures;
  let worlds: World[];
  const tally = new Map<string, number>();
  let cases = 0;
  let started = 0;

  before(async () => {
    started = performance.now();
    vigil = await TestVigil.start({ env: { VIGIL_RATE_LIMIT_REQUESTS: '1000000', VIGIL_DNS_SERVERS: '127.0.0.1:9' } });
    sink = await startTarget(reply(200));
    fixtures = await MatrixFixtures.start(vigil, sink.url);
    worlds = await Promise.all(KEYS.map((key) => fixtures.world(describeKey(key), key)));
    expect(await vigil.check(), 'each aimed-at project has an uptime monitor with a check result').to.equal(2 * worlds.length);
  });

  after(async () => {
    const counts = [...tally.entries()].sort().map(([status, n]) => `${status}: ${n}`).join(', ');
    const product = `${Object.keys(RULES).length} operations × ${KEYS.length} keys × 5 roles (none included) × ${AIMS.length} projects (own, foreign)`;
    console.log(`      authorization matrix: ${cases} cases run of ${product}, in ${((performance.now() - started) / 1000).toFixed(1)} s; ${counts}`);
    await sink?.close();
    await vigil?.stop();
  });

  it('has a rule and a request for every authenticated route the routers serve and the operation list names, and for nothing else', () => {
    const served = new Set(servedRoutes(vigil.vigil.api!).filter((route) => route.method !== 'HEAD' && !isPublic(route.path)).map((r) => routeName(r.method, r.path)));
    const listed = new Set(AUTHENTICATED.map((operation) => routeName(operation.method, operation.path)));
    const ruled = new Set(Object.keys(RULES).map(routeOf));
    expect([...served].filter((route) => !ruled.has(route)), 'served routes without a rule').to.deep.equal([]);
    expect([...listed].filter((route) => !ruled.has(route)), 'listed operations without a rule').to.deep.equal([]);
    expect([...ruled].filter((route) => !served.has(route)), 'rules for routes nothing serves').to.deep.equal([]);
    expect(Object.keys(RULES).filter((name) => !REQUESTS[name]), 'rules without a request').to.deep.equal([]);
    expect(Object.keys(REQUESTS).filter((name) => !RULES[name]), 'requests without a rule').to.deep.equal([]);
  });

  it('says what the access sentences of the OpenAPI operation list say', () => {
    const differences = AUTHENTICATED.flatMap((operation) => {
      const rule = RULES[routeName(operation.method, operation.path)];
      if (!rule || (rule.gates !== 'project' && rule.gates !== 'key')) return [];
      const sentence = operation.access ?? '';
      const published = {
        scope: /`(\w+)`/.exec(sentence)?.[1] ?? null,
        accountKeyOnly: /^Account key/.test(sentence),
        minimumRole: /role (OWNER|MANAGER|MEMBER|READONLY)/.exec(sentence)?.[1] ?? null,
      };
      const ours = { scope: rule.scope, accountKeyOnly: rule.accountKeyOnly === true, minimumRole: (rule.gates === 'project' && rule.minimumRole) || null };
      return JSON.stringify(published) === JSON.stringify(ours) ? [] : [`${routeName(operation.method, operation.path)}: "${sentence}" vs ${JSON.stringify(ours)}`];
    });
    expect(differences).to.deep.equal([]);
  });

  async function runCase(operation: string, world: World, caller: Caller, aim: Aim, problems: string[]): Promise<void> {
    const rule = RULES[operation]!;
    const request = REQUESTS[operation]!;
    const listed = AUTHENTICATED.find((o) => routeName(o.method, o.path) === routeOf(operation));
    if (!listed) throw new Error(`${operation} is not in the operation list`);
    const c: MatrixCase = { fixtures, world, caller, aim, project: world.projects[aim] };
    const prepared = request.prepare ? await request.prepare(c) : {};
    try {
      const ids: Ids = { ...c.project, ...(prepared.project ? { projectId: prepared.project.projectId } : {}), fresh: prepared.fresh ?? '' };
      const key = prepared.project?.key ?? caller.key[aim];
      const send = (line: ReturnType<typeof request.line>) => vigil.request(line.method, line.path, { key, ...(line.body === undefined ? {} : { body: line.body }) });
      const line = request.line(ids, sink.url);
      if (line.method !== listed.method.toUpperCase() || !routePattern(listed.path).test(line.path)) throw new Error(`the request for ${operation} is ${line.method} ${line.path}`);
      const onTarget = { key: world.key, role: aim === 'home' ? caller.role : null };
      const wanted = expectedOutcome(rule, listed.success.status, onTarget);
      const response = await send(line);
      cases += 1;
      const status = response.status === 403 ? `403 ${response.body?.code ? 'scope' : 'role'}` : String(response.status);
      tally.set(status, (tally.get(status) ?? 0) + 1);
      const label = `${operation} as ${caller.role ?? 'no role'} on the ${aim} project with ${world.label}`;
      const wrong = disagreement(wanted, response);
      if (wrong) problems.push(`${label}: ${wrong}`);
      else if (wanted.status === 404) {
        const ghost = await send(request.line(ghostOf(ids), sink.url));
        if (ghost.status !== 404 || JSON.stringify(ghost.body) !== JSON.stringify(response.body)) {
          problems.push(`${label}: a resource in a project the key cannot see answers ${response.text}, one that does not exist ${ghost.status} ${ghost.text}`);
        }
      } else if (operation === 'GET /v1/projects' && response.body.projects.some((p: { id: string }) => p.id === ids.projectId) !== reaches(onTarget)) {
        problems.push(`${label}: the list ${reaches(onTarget) ? 'leaves out' : 'shows'} the project`);
      }
      await request.after?.(c, response);
    } finally {
      await prepared.cleanup?.();
    }
  }

  const operationsByRoute = new Map<string, string[]>();
  for (const name of Object.keys(RULES)) operationsByRoute.set(routeOf(name), [...(operationsByRoute.get(routeOf(name)) ?? []), name]);

  for (const listed of AUTHENTICATED) {
    const route = routeName(listed.method, listed.path);
    const operations = operationsByRoute.get(route) ?? [];
    if (operations.length === 0) it(`${route} has an oracle rule`, () => expect.fail(`no rule in authorization-oracle.ts for ${route}`));
    for (const operation of operations) {
      it(`${operation}: the status SPEC promises for every key, role and project`, async () => {
        const problems: string[] = [];
        // Worlds share nothing, so they run side by side; within one, cases run in turn.
        await Promise.all(
          worlds.map(async (world) => {
            for (const caller of world.callers) for (const aim of AIMS) await runCase(operation, world, caller, aim, problems);
          }),
        );
        if (problems.length > 0) expect.fail(`${problems.length} cases disagree with SPEC:\n${problems.slice(0, 15).join('\n')}`);
      });
    }
  }
});

describe('Authorization: keys that follow their holder', () => {
  let vigil: TestVigil;
  before(async () => (vigil = await TestVigil.start()));
  after(() => vigil.stop());

  it("a project-scoped key follows its creator's live role: demoted to MEMBER, it can no longer mint keys", async () => {
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

  it('a project-scoped key cannot see another project of the same owner', async () => {
    const ownerId = await vigil.user('two-projects@example.com');
    const mine = await vigil.project(ownerId);
    const other = await vigil.project(ownerId);
    const key = await vigil.projectKey(ownerId, mine);
    expect((await vigil.request('GET', `/v1/projects/${other}`, { key })).status).to.equal(404);
    expect((await vigil.request('GET', '/v1/projects', { key })).body.projects.map((p: { id: string }) => p.id)).to.deep.equal([mine]);
  });
});
