import { expect } from 'chai';
import { recordIntegrityCheck } from '../../src/app/log-integrity.js';
import { integrityCheck } from '../../src/audit/verify-log.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';
import { preSession } from '../support/people.js';

const SYSTEM = { kind: 'system', user_id: null, api_key_id: null, request_id: null } as const;

/** What one project's audit page shows of the server-wide log, over plain HTTP. */
describe('The console audit page of a project', function () {
  this.timeout(60_000);
  let vigil: TestVigil;
  const projects = {} as Record<'a' | 'b', { id: string; key: string; cookie: string }>;

  // The sign-in page's pre-session, as a browser that opened it holds it.
  const pre = preSession();
  const form = (fields: Record<string, string>, cookie = '') => ({
    method: 'POST',
    redirect: 'manual' as const,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie ? `${cookie}; ${pre.cookie}` : pre.cookie },
    body: new URLSearchParams({ csrf_token: pre.token, ...fields }),
  });
  const auditOf = async (which: 'a' | 'b') => {
    const response = await fetch(`${vigil.url}/projects/${projects[which].id}/audit`, { headers: { Cookie: projects[which].cookie }, redirect: 'manual' });
    expect(response.status).to.equal(200);
    return response.text();
  };
  const verifyFrom = async (which: 'a' | 'b') => {
    const token = /name="csrf_token" value="([^"]+)"/.exec(await auditOf(which))?.[1] ?? '';
    const response = await fetch(`${vigil.url}/projects/${projects[which].id}/audit/verify`, form({ csrf_token: token }, projects[which].cookie));
    expect(response.status).to.equal(303);
  };

  beforeEach(async () => {
    vigil = await TestVigil.start();
    for (const which of ['a', 'b'] as const) {
      const owner = await vigil.user(`owner-${which}@example.com`);
      const id = await vigil.project(owner, `Project ${which}`);
      const key = await vigil.accountKey(owner, ALL_SCOPES);
      const signedIn = await fetch(`${vigil.url}/sign-in`, form({ api_key: key }));
      expect(signedIn.status).to.equal(303);
      projects[which] = { id, key, cookie: `vigil_session=${/vigil_session=([^;]+)/.exec(signedIn.headers.get('set-cookie') ?? '')?.[1]}` };
    }
    await vigil.settle();
  });
  afterEach(() => vigil.stop());

  it('never shows who verified the log from another project, nor that project\'s check', async () => {
    await verifyFrom('b');
    const b = await auditOf('b');
    expect(b).to.contain('the console, by owner-b@example.com');
    expect(b).to.contain('data-check="ok"');

    const a = await auditOf('a');
    expect(a).to.not.contain('owner-b@example.com');
    expect(a).to.not.contain('data-check');
    expect(a).to.contain('The log has not been checked yet');
  });

  it('shows no part of the log head, whose position, time and hashes move with other projects\' events', async () => {
    await verifyFrom('a');
    const before = await auditOf('a');
    const head = await vigil.vigil.stores.events.headPosition();
    expect(before).to.not.contain('data-head-position');
    expect(before, 'no hash of the log (the last event\'s, or the running one)').to.not.match(/[0-9a-f]{64}/);
    expect(before).to.not.match(new RegExp(`position ${head}\\b`));

    // Project B's events leave A's page as it was, but for nothing.
    for (let i = 0; i < 3; i += 1) expect((await vigil.request('POST', '/v1/monitors', { key: projects.b.key, body: { project_id: projects.b.id, name: `Job ${i}`, type: 'JOB_HEARTBEAT', schedule: '1h' } })).status).to.equal(201);
    await vigil.settle();
    expect(await auditOf('a')).to.equal(before);
  });

  it('shows every project the operator\'s vigil verify, and the newer of it and its own check', async () => {
    const verification = { ok: true, events_checked: 40, head_position: 40, head_chain: 'c'.repeat(64), first_break: null, compacted_through: null };
    await recordIntegrityCheck(vigil.commands, integrityCheck(verification, true, vigil.clock.now(), 'cli', null), SYSTEM);
    // A console check recorded before checks named their project is no project's page's.
    await recordIntegrityCheck(vigil.commands, integrityCheck(verification, null, vigil.clock.now(), 'console', null, null), SYSTEM);
    await vigil.settle();
    for (const which of ['a', 'b'] as const) expect(await auditOf(which)).to.contain('vigil verify (the command line)');

    await verifyFrom('a');
    expect(await auditOf('a')).to.contain('the console, by owner-a@example.com');
    expect(await auditOf('b')).to.contain('vigil verify (the command line)');
  });
});
