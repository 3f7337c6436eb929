import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { curl } from '../../support/curl.js';
import { ALL_SCOPES, TestVigil } from '../../support/test-vigil.js';

/** Uptime Kuma's push URL, as its push monitor shows it: `/api/push/<token>?status=up&msg=OK&ping=`. */
describe('Uptime Kuma push URLs', () => {
  let vigil: TestVigil;
  let key: string;
  let project: { id: string; ping_key: string };
  before(async () => {
    vigil = await TestVigil.start({ env: { VIGIL_PING_PAYLOAD_LIMIT: '1000' } });
    key = await vigil.accountKey(await vigil.user('kuma@example.com'), ALL_SCOPES);
    project = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Peers' } })).body.project;
  });
  after(() => vigil.stop());

  async function monitor(body: Record<string, unknown> = {}) {
    const created = await vigil.request('POST', '/v1/monitors', { key, body: { project_id: project.id, name: 'Push', type: 'JOB_HEARTBEAT', schedule: '1h', ...body } });
    expect(created.status, created.text).to.equal(201);
    return created.body.monitor as { id: string };
  }
  const history = async (monitorId: string) => (await vigil.request('GET', `/v1/monitors/${monitorId}/pings?limit=100`, { key })).body.data as Record<string, unknown>[];
  const state = async (monitorId: string) => (await vigil.request('GET', `/v1/monitors/${monitorId}`, { key })).body.monitor;

  it('answers {"ok":true} to the URL Kuma shows, a monitor id being a push token', async () => {
    const m = await monitor();
    const answer = await curl([`${vigil.url}/api/push/${m.id}?status=up&msg=OK&ping=`]);
    expect(answer.status).to.equal(200);
    expect(JSON.parse(answer.body)).to.deep.equal({ ok: true });
    expect(answer.headers['content-type']).to.match(/^application\/json/);
    expect(answer.headers['retry-after']).to.equal(undefined);
    const [ping] = await history(m.id);
    expect(ping).to.include({ event: 'SUCCESS', message: 'OK', duration_ms: null });
  });

  it('records status=down as a failure with its msg, and ping as the duration', async () => {
    const m = await monitor();
    expect(JSON.parse((await curl(['-fsS', '-G', `${vigil.url}/api/push/${m.id}`, '-d', 'status=down', '--data-urlencode', 'msg=disk full on /var', '-d', 'ping=42.6'])).body)).to.deep.equal({ ok: true });
    expect(JSON.parse((await curl([`${vigil.url}/api/push/${m.id}?ping=120`])).body)).to.deep.equal({ ok: true });
    const [up, down] = await history(m.id);
    expect(down).to.include({ event: 'FAILURE', message: 'disk full on /var', duration_ms: 43 });
    expect(up).to.include({ event: 'SUCCESS', message: null, duration_ms: 120 });
  });

  it('keeps a POSTed body as the payload, cut to the limit and flagged', async () => {
    const m = await monitor();
    expect((await curl(['-fsS', '--data-binary', 'z'.repeat(1200), `${vigil.url}/api/push/${m.id}?status=up`])).status).to.equal(200);
    expect((await history(m.id))[0]).to.include({ payload_truncated: true, payload_bytes: 1200 });
  });

  it('answers an unknown token or a bad ping as Kuma does, 404 {"ok":false,"msg":…}, recording nothing', async () => {
    const m = await monitor();
    const before = await vigil.vigil.stores.events.headPosition();
    const unknown = await curl([`${vigil.url}/api/push/${randomUUID()}?status=up&msg=OK&ping=`]);
    expect(unknown.status).to.equal(404);
    expect(JSON.parse(unknown.body)).to.deep.equal({ ok: false, msg: 'Monitor not found or not active.' });
    expect(JSON.parse((await curl([`${vigil.url}/api/push/Xk3PqZ9wLm?status=up`])).body)).to.deep.equal({ ok: false, msg: 'Monitor not found or not active.' });
    const negative = await curl([`${vigil.url}/api/push/${m.id}?ping=-5`]);
    expect(negative.status).to.equal(404);
    expect(JSON.parse(negative.body)).to.deep.equal({ ok: false, msg: 'Invalid ping value. Must be between 0 and 2147483647 ms.' });
    expect(await vigil.vigil.stores.events.headPosition(), 'nothing appended to the log').to.equal(before);
  });

  it('answers a paused monitor {"ok":true}, recording the push unevaluated', async () => {
    const m = await monitor();
    expect((await vigil.request('POST', `/v1/monitors/${m.id}/pause`, { key })).status).to.equal(200);
    expect(JSON.parse((await curl([`${vigil.url}/api/push/${m.id}?status=down&msg=x`])).body)).to.deep.equal({ ok: true });
    expect(await state(m.id)).to.include({ status: 'PAUSED', consecutive_failures: 0, total_pings_received: 1 });
  });
});
