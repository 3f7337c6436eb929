import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { curl } from '../../support/curl.js';
import { ALL_SCOPES, TestVigil } from '../../support/test-vigil.js';

/** Healthchecks' ping URLs, sent as its documentation sends them (healthchecks.io/docs/http_api/, /docs/bash/). */
describe('Healthchecks ping URLs', () => {
  let vigil: TestVigil;
  let key: string;
  let project: { id: string; ping_key: string };
  before(async () => {
    vigil = await TestVigil.start({ env: { VIGIL_PING_PAYLOAD_LIMIT: '1000' } });
    key = await vigil.accountKey(await vigil.user('hc@example.com'), ALL_SCOPES);
    project = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Peers' } })).body.project;
  });
  after(() => vigil.stop());

  async function monitor(body: Record<string, unknown> = {}) {
    const created = await vigil.request('POST', '/v1/monitors', { key, body: { project_id: project.id, name: 'Job', type: 'JOB_HEARTBEAT', schedule: '1h', failure_tolerance: 5, ...body } });
    expect(created.status, created.text).to.equal(201);
    return created.body.monitor as { id: string; slug: string };
  }
  const history = async (monitorId: string) => (await vigil.request('GET', `/v1/monitors/${monitorId}/pings?limit=100`, { key })).body.data as Record<string, unknown>[];
  const state = async (monitorId: string) => (await vigil.request('GET', `/v1/monitors/${monitorId}`, { key })).body.monitor;
  const logHead = () => vigil.vigil.stores.events.headPosition();

  it('answers `curl -fsS -m 10 --retry 5 -o /dev/null https://hc-ping.com/<uuid>` with 200 OK, a monitor id being its UUID', async () => {
    const m = await monitor();
    const answer = await curl(['-fsS', '-m', '10', '--retry', '5', `${vigil.url}/ping/${m.id}`]);
    expect(answer).to.deep.include({ status: 200, body: 'OK' });
    expect(answer.headers['content-type']).to.equal('text/plain; charset=utf-8');
    expect(answer.headers['ping-body-limit']).to.equal('1000');
    expect(answer.headers['retry-after']).to.equal(undefined);
    expect((await history(m.id)).map((p) => p['event'])).to.deep.equal(['SUCCESS']);
    // A trailing slash is Healthchecks' too.
    expect((await curl([`${vigil.url}/ping/${m.id}/`])).body).to.equal('OK');
  });

  it('takes /start, /fail, /log and exit statuses 0-255, with ?rid= as the run, a body as the payload', async () => {
    const m = await monitor();
    const rid = randomUUID();
    expect((await curl(['-fsS', '-m', '10', '--retry', '5', `${vigil.url}/ping/${m.id}/start?rid=${rid}`])).body).to.equal('OK');
    expect((await curl(['-fsS', '-m', '10', '--retry', '5', '--data-raw', 'disk 91% full', `${vigil.url}/ping/${m.id}/log`])).body).to.equal('OK');
    expect((await curl(['-fsS', '-m', '10', '--retry', '5', '--data-raw', 'rsync: error 23', `${vigil.url}/ping/${m.id}/23?rid=${rid}`])).body).to.equal('OK');
    expect((await curl(['-fsS', `${vigil.url}/ping/${m.id}/fail`])).body).to.equal('OK');
    expect((await curl(['-fsS', `${vigil.url}/ping/${m.id}/0`])).body).to.equal('OK');
    expect((await curl(['-fsS', '-I', `${vigil.url}/ping/${m.id}`])).status).to.equal(200);
    const pings = (await history(m.id)).reverse();
    expect(pings.map((p) => [p['event'], p['exit_code'], p['run_id']])).to.deep.equal([
      ['START', null, rid],
      ['LOG', null, null],
      ['FAILURE', 23, rid],
      ['FAILURE', null, null],
      ['SUCCESS', 0, null],
      ['SUCCESS', null, null],
    ]);
    expect(pings[1]).to.include({ payload: 'disk 91% full', payload_truncated: false });
    expect(pings[2]).to.include({ payload: 'rsync: error 23' });
    expect(pings[2]!['duration_ms']).to.be.a('number');
    expect(await state(m.id)).to.include({ total_pings_received: 6, consecutive_failures: 0 });
  });

  it('keeps the first VIGIL_PING_PAYLOAD_LIMIT bytes of a body and flags the rest', async () => {
    const m = await monitor();
    expect((await curl(['-fsS', '--data-binary', 'y'.repeat(1500), `${vigil.url}/ping/${m.id}`])).body).to.equal('OK');
    const [cut] = await history(m.id);
    expect(cut).to.include({ payload_truncated: true, payload_bytes: 1500 });
    expect((await vigil.request('GET', `/v1/monitors/${m.id}/pings/${cut!['id']}`, { key })).body.ping.payload).to.equal('y'.repeat(1000));
  });

  it('takes /ping/<ping key>/<slug> and its suffixes', async () => {
    const m = await monitor({ slug: 'db-backup' });
    expect((await curl(['-fsS', '-m', '10', '--retry', '5', `${vigil.url}/ping/${project.ping_key}/db-backup/start`])).body).to.equal('OK');
    expect((await curl(['-fsS', '-m', '10', '--retry', '5', `${vigil.url}/ping/${project.ping_key}/db-backup`])).body).to.equal('OK');
    expect((await curl(['-fsS', `${vigil.url}/ping/${project.ping_key}/db-backup/1`])).body).to.equal('OK');
    expect((await history(m.id)).map((p) => p['event'])).to.deep.equal(['FAILURE', 'SUCCESS', 'START']);
  });

  it('answers as Healthchecks does what it refuses, and records nothing for it', async () => {
    const m = await monitor({ slug: 'refusals' });
    const before = await logHead();
    const refusals: [string, number, string][] = [
      [`/ping/${randomUUID()}`, 404, 'not found'],
      [`/ping/${m.id}/256`, 400, 'invalid url format'],
      [`/ping/${m.id}?rid=not-a-uuid`, 400, 'invalid uuid format'],
      [`/ping/${project.ping_key}/unknown-slug`, 404, 'not found'],
      [`/ping/${project.ping_key}/Refusals`, 400, 'invalid url format'],
      [`/ping/${project.ping_key}/unknown-slug?create=1`, 404, 'not found'],
    ];
    for (const [path, status, body] of refusals) {
      const answer = await curl([`${vigil.url}${path}`]);
      expect([path, answer.status, answer.body]).to.deep.equal([path, status, body]);
    }
    expect(await logHead(), 'nothing appended to the log').to.equal(before);
    expect(await history(m.id)).to.deep.equal([]);
  });

  it('creates a monitor on `?create=1` where the project provisions on a first ping: 201 Created, then 200 OK', async () => {
    expect((await vigil.request('PATCH', `/v1/projects/${project.id}`, { key, body: { auto_provisioning: { enabled: true } } })).status).to.equal(200);
    const created = await curl(['-fsS', '-m', '10', '--retry', '5', `${vigil.url}/ping/${project.ping_key}/new-job?create=1`]);
    expect(created).to.deep.include({ status: 201, body: 'Created' });
    const before = await logHead();
    const underscore = await curl([`${vigil.url}/ping/${project.ping_key}/new_job?create=1`]);
    expect(underscore.status, 'a Healthchecks slug Vigil cannot take').to.equal(400);
    expect(underscore.body).to.match(/slug must be lowercase letters, digits and hyphens/);
    expect(await logHead(), 'nothing recorded, no creation counted').to.equal(before);
    const again = await curl(['-fsS', `${vigil.url}/ping/${project.ping_key}/new-job?create=1`]);
    expect(again).to.deep.include({ status: 200, body: 'OK' });
    const made = ((await vigil.request('GET', `/v1/monitors?project_id=${project.id}`, { key })).body.monitors as { id: string; slug: string }[]).find((x) => x.slug === 'new-job');
    expect(made, 'the monitor was created').to.not.equal(undefined);
    expect((await history(made!.id)).length).to.equal(2);
  });

  it('answers a paused monitor as Healthchecks answers any ping, 200 OK, recording the ping unevaluated', async () => {
    const m = await monitor({ failure_tolerance: 1 });
    expect((await vigil.request('POST', `/v1/monitors/${m.id}/pause`, { key })).status).to.equal(200);
    expect((await curl(['-fsS', `${vigil.url}/ping/${m.id}/fail`])).body).to.equal('OK');
    expect(await state(m.id)).to.include({ status: 'PAUSED', consecutive_failures: 0, total_pings_received: 1 });
  });

  it('leaves Vigil\'s own Ping API as it was', async () => {
    const m = await monitor();
    const own = await vigil.request('GET', `/v1/ping/${m.id}`);
    expect(own.body).to.include({ ok: true, monitor_id: m.id, event: 'SUCCESS' });
  });
});
