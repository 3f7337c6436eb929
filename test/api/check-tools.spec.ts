import { expect } from 'chai';
import { type CountingTarget, startCountingTarget } from '../support/counting-target.js';
import { reply } from '../support/http-targets.js';
import { ALL_SCOPES, TestClock, TestVigil } from '../support/test-vigil.js';

/** The check tools under the default policy (VIGIL_PRIVATE_TARGETS=checks), where a check may reach this machine. */
describe('Check tools', () => {
  let vigil: TestVigil;
  let target: CountingTarget;
  let projectId: string;
  let ownerId: string;
  before(async () => {
    vigil = await TestVigil.start({ clock: new TestClock(), env: { VIGIL_PRIVATE_TARGETS: 'checks' } });
    target = await startCountingTarget(reply(200, 'ok'));
    ownerId = await vigil.user('tools-owner@example.com');
    projectId = await vigil.project(ownerId);
  });
  after(async () => {
    await target.close();
    await vigil.stop();
  });

  const checkHttp = (key: string, body: Record<string, unknown> = { project_id: projectId }) =>
    vigil.request('POST', '/v1/tools/check-http', { key, body: { url: `${target.url}/internal`, ...body } });

  it('need the role that creates monitors, so a READONLY member cannot make Vigil connect to what a monitor could reach', async () => {
    const readonly = await vigil.user('tools-readonly@example.com');
    await vigil.member(projectId, readonly, 'READONLY');
    const refused = [
      await checkHttp(await vigil.accountKey(readonly, ALL_SCOPES)),
      await checkHttp(await vigil.projectKey(readonly, projectId), {}),
      await vigil.request('POST', '/v1/tools/check-ssl', { key: await vigil.accountKey(readonly, ALL_SCOPES), body: { hostname: '127.0.0.1', port: Number(new URL(target.url).port), project_id: projectId } }),
      await vigil.request('POST', '/v1/tools/check-dns', { key: await vigil.accountKey(readonly, ALL_SCOPES), body: { hostname: 'vigil.invalid', project_id: projectId } }),
    ];
    for (const response of refused) expect(response).to.deep.include({ status: 403, body: { error: 'this operation needs the MEMBER role or higher on the project' } });

    const member = await vigil.user('tools-member@example.com');
    await vigil.member(projectId, member, 'MEMBER');
    const readOnlyKey = await checkHttp(await vigil.accountKey(member, ['read']));
    expect(readOnlyKey).to.deep.include({ status: 403, body: { error: 'this API key lacks the manage_monitors scope', code: 'INSUFFICIENT_API_KEY_SCOPE' } });
    const stranger = await checkHttp(await vigil.accountKey(await vigil.user('tools-stranger@example.com'), ALL_SCOPES));
    expect(stranger).to.deep.include({ status: 404, body: { error: 'project not found' } });
    expect(target.accepted(), 'connections the target accepted').to.equal(0);

    expect((await checkHttp(await vigil.accountKey(member, ['manage_monitors']))).body).to.include({ status: 'up', status_code: 200 });
    expect((await checkHttp(await vigil.projectKey(member, projectId), {})).body).to.include({ status: 'up', status_code: 200 });
    expect(target.accepted()).to.equal(2);
  });

  it('name their project with an account key, as creating a monitor does', async () => {
    const key = await vigil.accountKey(ownerId, ALL_SCOPES);
    expect(await checkHttp(key, {})).to.deep.include({ status: 400, body: { error: 'project_id is required with an account-scoped API key' } });
    expect((await checkHttp(key, { project_id: 'not-a-uuid' })).body.error).to.match(/^project_id/);
  });

  it('run at most 30 times a minute for each user, whichever key, then answer 429 with Retry-After', async () => {
    vigil.clock.advance(60_000);
    const user = await vigil.user('tools-busy@example.com');
    await vigil.member(projectId, user, 'MEMBER');
    const keys = [await vigil.accountKey(user, ['manage_monitors']), await vigil.projectKey(user, projectId)];
    for (let i = 0; i < 30; i++) expect((await checkHttp(keys[i % 2]!, i % 2 ? {} : { project_id: projectId })).status, `run ${i + 1}`).to.equal(200);
    const limited = await vigil.request('POST', '/v1/tools/check-dns', { key: keys[0]!, body: { hostname: 'vigil.invalid', project_id: projectId } });
    expect(limited).to.deep.include({ status: 429, body: { error: 'too many check tool runs: 30 per minute for each user; retry after 60 s' } });
    expect(limited.headers.get('Retry-After')).to.equal('60');
    // Another user's runs are their own.
    expect((await checkHttp(await vigil.accountKey(ownerId, ALL_SCOPES))).status).to.equal(200);

    vigil.clock.advance(45_000);
    expect((await checkHttp(keys[1]!, {})).headers.get('Retry-After')).to.equal('15');
    vigil.clock.advance(15_000);
    expect((await checkHttp(keys[1]!, {})).status).to.equal(200);
  });
});
