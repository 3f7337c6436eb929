import { expect } from 'chai';
import { capturedLog } from '../support/captured-log.js';
import { send } from '../support/raw-http.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

describe('HTTP edge', () => {
  let vigil: TestVigil;
  let key: string;
  before(async () => {
    vigil = await TestVigil.start({ env: { VIGIL_BODY_LIMIT_BYTES: '2048' } });
    key = await vigil.accountKey(await vigil.user('edge@example.com'), ALL_SCOPES);
  });
  after(() => vigil.stop());

  it('answers malformed JSON with a 400 and an { error }', async () => {
    const response = await vigil.request('POST', '/v1/projects', { key, rawBody: '{"name":', headers: { 'Content-Type': 'application/json' } });
    expect(response).to.deep.include({ status: 400, body: { error: 'request body is not valid JSON' } });
  });

  it('answers a body that is not an object with a 400', async () => {
    const response = await vigil.request('POST', '/v1/projects', { key, body: ['Billing'] });
    expect(response.status).to.equal(400);
    expect(response.body.error).to.match(/^request body must be/);
    for (const primitive of ['null', '3', '"Billing"']) {
      const refused = await vigil.request('POST', '/v1/projects', { key, rawBody: primitive, headers: { 'Content-Type': 'application/json' } });
      expect(refused, primitive).to.deep.include({ status: 400, body: { error: 'request body must be a JSON object' } });
    }
  });

  it('answers a body over the limit with a 413', async () => {
    const response = await vigil.request('POST', '/v1/projects', { key, body: { name: 'x', description: 'y'.repeat(5000) } });
    expect(response).to.deep.include({ status: 413, body: { error: 'request body is larger than the limit of 2048 bytes' } });
  });

  it('answers a body of another media type with a 415', async () => {
    const response = await vigil.request('POST', '/v1/projects', { key, rawBody: 'name=x', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(response.status).to.equal(415);
    expect(response.body.error).to.match(/Content-Type: application\/json/);
  });

  it('answers an unknown route with a 404 and a known route with a wrong method with a 405', async () => {
    expect(await vigil.request('GET', '/v1/nothing-here', { key })).to.deep.include({ status: 404, body: { error: 'no route for GET /v1/nothing-here' } });
    // `/` is the web console's (see test/console): another path outside /v1 stands for the unknown.
    expect(await vigil.request('GET', '/nothing-here', {})).to.deep.include({ status: 404, body: { error: 'no route for GET /nothing-here' } });
    const wrongMethod = await vigil.request('PUT', '/v1/projects', { key });
    expect(wrongMethod.status).to.equal(405);
    expect(wrongMethod.body.error).to.be.a('string');
  });

  it('takes a POST whose chunked body is empty as one with no body, and refuses one with a body of another type', async () => {
    const project = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Chunked' } })).body.project;
    const monitor = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: project.id, name: 'J', type: 'JOB_HEARTBEAT', schedule: '1h' } })).body.monitor;
    const chunked = (body: string) => send(vigil.url, 'POST', `/v1/monitors/${monitor.id}/pause`, { headers: { 'X-API-Key': key, 'Transfer-Encoding': 'chunked' }, body });
    const empty = await chunked('');
    expect(empty.status, empty.text).to.equal(200);
    expect(JSON.parse(empty.text).monitor.status).to.equal('PAUSED');
    expect((await chunked('paused=please')).status).to.equal(415);
  });

  it('answers a method the routers do not know with a 501 and an { error }, not a 500', async () => {
    expect(await vigil.request('PROPFIND', '/v1/projects', { key })).to.deep.include({ status: 501, body: { error: 'Not Implemented' } });
  });

  it('answers a path id that is not a UUID with a 404', async () => {
    expect(await vigil.request('GET', '/v1/projects/not-a-uuid', { key })).to.deep.include({ status: 404, body: { error: 'project not found' } });
  });

  it('answers a failure it did not expect with a bland 500 { error } and logs it with the request id, on both APIs', async () => {
    const { logger, lines: logged } = capturedLog('error');
    const failing = await TestVigil.start({ logger });
    try {
      const owner = await failing.accountKey(await failing.user('failing@example.com'), ALL_SCOPES);
      const project = (await failing.request('POST', '/v1/projects', { key: owner, body: { name: 'P' } })).body.project;
      const created = await failing.request('POST', '/v1/monitors', { key: owner, body: { project_id: project.id, name: 'J', type: 'JOB_HEARTBEAT', schedule: '1h' } });
      // The REST read fails in the read models; the ping (whose monitor the process has folded
      // already) fails in the log.
      const { readModels, events } = failing.vigil.stores;
      const broken = async () => {
        throw new Error('the disk is on fire');
      };
      Object.assign(readModels, { get: broken, find: broken });
      Object.assign(events, { appendToStream: broken, appendToStreams: broken });
      const rest = await failing.request('GET', `/v1/monitors/${created.body.monitor.id}`, { key: owner, headers: { 'X-Request-Id': 'rest-500' } });
      const ping = await failing.request('GET', `/v1/ping/${created.body.monitor.id}`, { headers: { 'X-Request-Id': 'ping-500' } });
      for (const answer of [rest, ping]) expect(answer).to.deep.include({ status: 500, body: { error: 'internal error' } });
    } finally {
      await failing.stop();
    }
    const failures = logged.filter((line) => line['msg'] === 'request failed');
    expect(failures.map((line) => [line['request_id'], (line['err'] as { message: string }).message])).to.deep.equal([
      ['rest-500', 'the disk is on fire'],
      ['ping-500', 'the disk is on fire'],
    ]);
  });

  it('echoes a sane X-Request-Id and makes one up otherwise', async () => {
    const echoed = await vigil.request('GET', '/v1/projects', { key, headers: { 'X-Request-Id': 'trace-123' } });
    expect(echoed.headers.get('X-Request-Id')).to.equal('trace-123');
    const invented = await vigil.request('GET', '/v1/projects', { key, headers: { 'X-Request-Id': 'bad id with spaces' } });
    expect(invented.headers.get('X-Request-Id')).to.match(/^[0-9a-f-]{36}$/);
  });

  it('marks every answer X-Content-Type-Options: nosniff, on the REST API and the Ping API, errors and what Node refuses included', async () => {
    const project = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Sniffing' } })).body.project;
    const job = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: project.id, name: 'Job', type: 'JOB_HEARTBEAT', schedule: '1h' } })).body.monitor;
    const answers = {
      'a REST read': await send(vigil.url, 'GET', '/v1/projects', { headers: { 'X-API-Key': key } }),
      'a REST 401': await send(vigil.url, 'GET', '/v1/projects'),
      'a REST 400 echoing the request': await send(vigil.url, 'POST', '/v1/projects', { headers: { 'X-API-Key': key, 'Content-Type': 'application/json' }, body: '{"name":"<script>x</script>","extra":1' }),
      'an unknown route': await send(vigil.url, 'GET', '/v1/<img>'),
      'the OpenAPI document': await send(vigil.url, 'GET', '/openapi.json'),
      'a ping': await send(vigil.url, 'GET', `/v1/ping/${job.id}`),
      'a ping to no monitor': await send(vigil.url, 'GET', '/v1/s-ping/nokey/<script>'),
      'a ping with a bad suffix': await send(vigil.url, 'POST', `/v1/ping/${job.id}/<b>`),
      'an Expect it cannot meet': await send(vigil.url, 'GET', '/v1/projects', { headers: { Expect: 'the-moon' } }),
      'headers too large': await send(vigil.url, 'GET', `/v1/projects/${'x'.repeat(20_000)}`),
    };
    for (const [what, answer] of Object.entries(answers)) expect(answer.headers['x-content-type-options'], `${what} (${answer.status})`).to.equal('nosniff');
    expect(Object.values(answers).map((answer) => answer.status)).to.deep.equal([200, 401, 400, 404, 200, 200, 404, 400, 417, 431]);
  });
});
