import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { randomBase62 } from '../../src/app/random-tokens.js';
import { capturedLog } from '../support/captured-log.js';
import { send } from '../support/raw-http.js';
import { SPOOFS, expectThrottledAfterTwenty } from '../support/spoofed-forwarding.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

describe('Ping API', () => {
  let vigil: TestVigil;
  let key: string;
  let project: { id: string; ping_key: string };
  before(async () => {
    vigil = await TestVigil.start({ env: { VIGIL_PING_PAYLOAD_LIMIT: '1000' } });
    key = await vigil.accountKey(await vigil.user('pings@example.com'), ALL_SCOPES);
    project = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Pings' } })).body.project;
  });
  after(() => vigil.stop());

  async function monitor(body: Record<string, unknown> = {}) {
    const created = await vigil.request('POST', '/v1/monitors', {
      key,
      body: { project_id: project.id, name: 'Job', type: 'JOB_HEARTBEAT', schedule: '1h', failure_tolerance: 5, ...body },
    });
    expect(created.status).to.equal(201);
    return created.body.monitor as { id: string; slug: string };
  }
  async function history(monitorId: string) {
    return (await vigil.request('GET', `/v1/monitors/${monitorId}/pings?limit=100`, { key })).body.data as Record<string, unknown>[];
  }

  it('answers { ok, ping_id, monitor_id, event } only once the ping is in the log, with no API key', async () => {
    const m = await monitor();
    const response = await vigil.request('GET', `/v1/ping/${m.id}`);
    expect(response.status).to.equal(200);
    expect(Object.keys(response.body)).to.deep.equal(['ok', 'ping_id', 'monitor_id', 'event']);
    expect(response.body).to.include({ ok: true, monitor_id: m.id, event: 'SUCCESS' });
    const logged = await vigil.vigil.stores.events.readStream(`pings-${m.id}`);
    expect(logged.map((e) => e.data['ping_id'])).to.deep.equal([response.body.ping_id]);
  });

  it('takes GET, POST and HEAD, and every suffix', async () => {
    const m = await monitor();
    const forms: [string, string, string, number | null][] = [
      ['GET', '', 'SUCCESS', null],
      ['POST', '', 'SUCCESS', null],
      ['GET', '/start', 'START', null],
      ['GET', '/success', 'SUCCESS', null],
      ['GET', '/fail', 'FAILURE', null],
      ['POST', '/failure', 'FAILURE', null],
      ['GET', '/log', 'LOG', null],
      ['GET', '/0', 'SUCCESS', 0],
      ['GET', '/2', 'FAILURE', 2],
      ['GET', '/255', 'FAILURE', 255],
    ];
    for (const [method, suffix, event, exitCode] of forms) {
      const response = await vigil.request(method, `/v1/ping/${m.id}${suffix}`);
      expect(response.status, `${method} ${suffix}`).to.equal(200);
      expect(response.body.event, `${method} ${suffix}`).to.equal(event);
      const [newest] = await history(m.id);
      expect(newest, `${method} ${suffix}`).to.include({ event, exit_code: exitCode });
    }
    const head = await fetch(`${vigil.url}/v1/ping/${m.id}/start`, { method: 'HEAD' });
    expect(head.status).to.equal(200);
    expect(await head.text()).to.equal('');
    expect((await history(m.id))[0]).to.include({ event: 'START' });
  });

  it('matches its paths as the REST routes are matched: any case, a trailing slash, percent-encoded segments', async () => {
    const m = await monitor();
    for (const path of [`/V1/Ping/${m.id.toUpperCase()}/`, `/v1/ping/${m.id}/%66ail`, `/v1/s-ping/${project.ping_key}/${m.slug}/START/`, `/v1/s-ping/${project.ping_key}/${m.slug.toUpperCase()}/log`]) {
      const response = await vigil.request('GET', path);
      expect(response.status, path).to.equal(200);
      expect(response.body.monitor_id, path).to.equal(m.id);
    }
    expect((await history(m.id)).map((ping) => ping.event)).to.deep.equal(['LOG', 'START', 'FAILURE', 'SUCCESS']);
    // The ping key is a secret: it matches only as it is.
    expect((await vigil.request('GET', `/v1/s-ping/${project.ping_key.toUpperCase()}/${m.slug}`)).status).to.equal(404);
    expect((await vigil.request('GET', `/v1/ping/${m.id}/fail/extra`)).status).to.equal(404);
    expect((await vigil.request('GET', `/v1/ping//fail`)).status).to.equal(404);
  });

  it('answers OPTIONS with the methods it takes, a method it does not take with a 405, and an unknown one with a 501', async () => {
    const m = await monitor();
    const options = await vigil.request('OPTIONS', `/v1/ping/${m.id}`);
    expect(options.status).to.equal(200);
    expect(options.headers.get('Allow')).to.equal('HEAD, GET, POST');
    expect(await vigil.request('DELETE', `/v1/ping/${m.id}/fail`)).to.deep.include({ status: 405, body: { error: 'Method Not Allowed' } });
    expect(await vigil.request('PROPFIND', `/v1/s-ping/${project.ping_key}/${m.slug}`)).to.deep.include({ status: 501, body: { error: 'Not Implemented' } });
    expect(await history(m.id), 'none of them is a ping').to.deep.equal([]);
  });

  it('echoes a sane X-Request-Id and records it with the ping', async () => {
    const m = await monitor();
    const response = await vigil.request('GET', `/v1/ping/${m.id}`, { headers: { 'X-Request-Id': 'cron-42' } });
    expect(response.headers.get('X-Request-Id')).to.equal('cron-42');
    const [logged] = await vigil.vigil.stores.events.readStream(`pings-${m.id}`);
    expect(logged!.metadata).to.include({ request_id: 'cron-42' });
    const refused = await vigil.request('GET', `/v1/ping/${m.id}/nope`, { headers: { 'X-Request-Id': 'not sane' } });
    expect(refused.status).to.equal(400);
    expect(refused.headers.get('X-Request-Id')).to.match(/^[0-9a-f-]{36}$/);
  });

  it('logs each ping it answered at debug and each it refused at info, with the request id, path and status', async () => {
    const { logger, lines } = capturedLog('debug');
    const logged = await TestVigil.start({ logger });
    try {
      const owner = await logged.accountKey(await logged.user('logs@example.com'), ALL_SCOPES);
      const p = (await logged.request('POST', '/v1/projects', { key: owner, body: { name: 'P' } })).body.project;
      const id = (await logged.request('POST', '/v1/monitors', { key: owner, body: { project_id: p.id, name: 'J', type: 'JOB_HEARTBEAT', schedule: '1h' } })).body.monitor.id;
      await logged.request('GET', `/v1/ping/${id}/start`, { headers: { 'X-Request-Id': 'answered' } });
      await logged.request('POST', `/v1/ping/${id}/nope`, { headers: { 'X-Request-Id': 'refused' } });
    } finally {
      await logged.stop();
    }
    const requests = lines.filter((line) => line['msg'] === 'request' && String(line['path']).includes('/ping/'));
    expect(requests.map(({ level, request_id, method, status }) => ({ level, request_id, method, status }))).to.deep.equal([
      { level: 20, request_id: 'answered', method: 'GET', status: 200 },
      { level: 30, request_id: 'refused', method: 'POST', status: 400 },
    ]);
    expect(requests[0]!['duration_ms']).to.be.a('number');
  });

  it('records the address of the client, not the X-Forwarded-For it claims, unless told to trust a proxy', async () => {
    const m = await monitor();
    await vigil.request('GET', `/v1/ping/${m.id}`, { headers: { 'X-Forwarded-For': '203.0.113.9, 10.0.0.1', 'User-Agent': 'curl/8.0' } });
    expect((await history(m.id))[0]).to.include({ request_ip: '127.0.0.1', request_ua: 'curl/8.0' });
    // One trusted hop takes the address that proxy appended; listing the proxies passes each of them.
    for (const [trust, recorded] of [['true', '10.0.0.1'], ['127.0.0.1, 10.0.0.0/8', '203.0.113.9']] as const) {
      const behindProxy = await TestVigil.start({ env: { VIGIL_TRUST_PROXY: trust } });
      try {
        const owner = await behindProxy.accountKey(await behindProxy.user('proxy@example.com'), ALL_SCOPES);
        const proxied = (await behindProxy.request('POST', '/v1/projects', { key: owner, body: { name: 'P' } })).body.project;
        const created = await behindProxy.request('POST', '/v1/monitors', { key: owner, body: { project_id: proxied.id, name: 'J', type: 'JOB_HEARTBEAT', schedule: '1h' } });
        const id = created.body.monitor.id;
        await behindProxy.request('GET', `/v1/ping/${id}`, { headers: { 'X-Forwarded-For': '203.0.113.9, 10.0.0.1' } });
        const pings = (await behindProxy.request('GET', `/v1/monitors/${id}/pings`, { key: owner })).body.data;
        expect(pings[0], trust).to.include({ request_ip: recorded });
      } finally {
        await behindProxy.stop();
      }
    }
  });

  it('refuses an unknown suffix or exit code with a 400', async () => {
    const m = await monitor();
    for (const suffix of ['256', 'bogus', '-1']) {
      const response = await vigil.request('GET', `/v1/ping/${m.id}/${suffix}`);
      expect(response.status, suffix).to.equal(400);
      expect(response.body.error).to.match(/unknown ping suffix/);
    }
  });

  it('reads run_id, exit_code, duration_ms and message from the query', async () => {
    const m = await monitor();
    const response = await vigil.request('GET', `/v1/ping/${m.id}?run_id=r-42&exit_code=3&duration_ms=1500&message=${encodeURIComponent('disk full')}`);
    expect(response.body.event).to.equal('FAILURE');
    expect((await history(m.id))[0]).to.include({ run_id: 'r-42', exit_code: 3, duration_ms: 1500, message: 'disk full', event: 'FAILURE' });
    const zero = await vigil.request('GET', `/v1/ping/${m.id}?exit_code=0`);
    expect(zero.body.event).to.equal('SUCCESS');
    // The same code in the path and the query is no contradiction; two different ones are.
    expect((await vigil.request('GET', `/v1/ping/${m.id}/2?exit_code=2`)).body.event).to.equal('FAILURE');
    const contradicted = await vigil.request('GET', `/v1/ping/${m.id}/0?exit_code=2`);
    expect(contradicted).to.deep.include({ status: 400, body: { error: 'exit_code 2 contradicts the exit code 0 in the path' } });
    expect(await history(m.id)).to.have.length(3);
  });

  it('refuses bad query parameters with a 400 naming them, and records nothing', async () => {
    const m = await monitor();
    const cases: [string, RegExp][] = [
      [`run_id=${'r'.repeat(129)}`, /^run_id must be a string of 1 to 128 characters$/],
      [`message=${'m'.repeat(2001)}`, /^message must be a string of at most 2000 characters$/],
      ['duration_ms=-1', /^duration_ms must be an integer/],
      ['exit_code=abc', /^exit_code must be an integer/],
    ];
    for (const [query, message] of cases) {
      const response = await vigil.request('GET', `/v1/ping/${m.id}?${query}`);
      expect(response.status, query).to.equal(400);
      expect(response.body.error, query).to.match(message);
    }
    expect((await vigil.request('GET', `/v1/ping/${m.id}?run_id=${'r'.repeat(128)}&message=${'m'.repeat(2000)}`)).status).to.equal(200);
    expect(await history(m.id)).to.have.length(1);
  });

  it('stores a POST body as the payload, keeping the first VIGIL_PING_PAYLOAD_LIMIT bytes and flagging the rest', async () => {
    const m = await monitor();
    const whole = await vigil.request('POST', `/v1/ping/${m.id}`, { rawBody: 'x'.repeat(1000), headers: { 'Content-Type': 'text/plain' } });
    expect(whole.status).to.equal(200);
    const [kept] = await history(m.id);
    expect(kept).to.include({ payload_truncated: false, payload_bytes: 1000 });
    expect(kept!['payload']).to.have.length(256);

    const over = await vigil.request('POST', `/v1/ping/${m.id}/log`, { rawBody: 'y'.repeat(1500), headers: { 'Content-Type': 'application/octet-stream' } });
    expect(over.status).to.equal(200);
    const [cut] = await history(m.id);
    expect(cut).to.include({ payload_truncated: true, payload_bytes: 1500 });
    const full = await vigil.request('GET', `/v1/monitors/${m.id}/pings/${cut!['id']}`, { key });
    expect(full.status).to.equal(200);
    expect(full.body.ping.payload).to.equal('y'.repeat(1000));
    expect(full.body.ping.truncated).to.equal(true);
  });

  it('cuts a payload over the limit at a character, never past the limit', async () => {
    const m = await monitor();
    // The limit (1000 bytes) falls inside the two bytes of the é.
    await vigil.request('POST', `/v1/ping/${m.id}`, { rawBody: `${'a'.repeat(999)}é${'z'.repeat(10)}`, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
    const [cut] = await history(m.id);
    const full = await vigil.request('GET', `/v1/monitors/${m.id}/pings/${cut!['id']}`, { key });
    expect(full.body.ping.payload).to.equal('a'.repeat(999));
    // Bytes that are no UTF-8, each read as U+FFFD (3 bytes), stay within it too.
    await vigil.request('POST', `/v1/ping/${m.id}`, { rawBody: Buffer.alloc(600, 0xff), headers: { 'Content-Type': 'application/octet-stream' } });
    const [invalid] = await history(m.id);
    const stored = (await vigil.request('GET', `/v1/monitors/${m.id}/pings/${invalid!['id']}`, { key })).body.ping.payload;
    expect(Buffer.byteLength(stored)).to.be.at.most(1000).and.at.least(997);
  });

  it('refuses pings to an UPTIME_HTTP monitor with a 400, by id or by slug, recording nothing', async () => {
    const created = await vigil.request('POST', '/v1/monitors', { key, body: { project_id: project.id, name: 'Site', type: 'UPTIME_HTTP', schedule: '1m', uptime_url: 'http://127.0.0.1:9/health' } });
    const site = created.body.monitor;
    for (const path of [`/v1/ping/${site.id}`, `/v1/s-ping/${project.ping_key}/${site.slug}/fail`]) {
      const refused = await vigil.request('GET', path);
      expect(refused.status, path).to.equal(400);
      expect(refused.body.error).to.equal(`monitor ${site.id} is UPTIME_HTTP: Vigil checks it itself, so it takes no pings`);
    }
    expect(await history(site.id)).to.deep.equal([]);
  });

  it('answers 404 for an unknown monitor, by id or by slug', async () => {
    expect(await vigil.request('GET', '/v1/ping/6f0b0a57-1d7c-4b36-9f1a-2a6a1b0f9a00')).to.deep.include({ status: 404, body: { error: 'monitor not found' } });
    expect((await vigil.request('GET', '/v1/ping/not-a-uuid')).status).to.equal(404);
    expect((await vigil.request('GET', `/v1/s-ping/${project.ping_key}/no-such-slug`)).status).to.equal(404);
    expect((await vigil.request('GET', '/v1/s-ping/wrongkey/anything')).status).to.equal(404);
  });

  it('takes slug pings with the project ping key, and stops taking the old key once rotated', async () => {
    const m = await monitor({ name: 'Slugged', slug: 'slugged-job' });
    const ok = await vigil.request('GET', `/v1/s-ping/${project.ping_key}/slugged-job/start?run_id=a`);
    expect(ok.status).to.equal(200);
    expect(ok.body).to.include({ monitor_id: m.id, event: 'START' });
    expect((await vigil.request('POST', `/v1/s-ping/${project.ping_key}/slugged-job/1`)).body.event).to.equal('FAILURE');
    const rotated = (await vigil.request('POST', `/v1/projects/${project.id}/ping-key/rotate`, { key })).body.project.ping_key;
    expect((await vigil.request('GET', `/v1/s-ping/${project.ping_key}/slugged-job`)).status).to.equal(404);
    expect((await vigil.request('GET', `/v1/s-ping/${rotated}/slugged-job`)).status).to.equal(200);
    project.ping_key = rotated;
  });

  describe('a paused monitor', () => {
    it('records pings, answers code MONITOR_PAUSED, evaluates nothing and opens nothing', async () => {
      const m = await monitor({ failure_tolerance: 1 });
      const paused = await vigil.request('POST', `/v1/monitors/${m.id}/pause`, { key });
      expect(paused.status).to.equal(200);
      expect(paused.body.monitor.status).to.equal('PAUSED');
      expect(paused.body.monitor.next_expected_at).to.equal(null);
      const response = await vigil.request('GET', `/v1/ping/${m.id}/fail`);
      expect(response.status).to.equal(200);
      expect(response.body).to.include({ ok: true, code: 'MONITOR_PAUSED', event: 'FAILURE' });
      const after = (await vigil.request('GET', `/v1/monitors/${m.id}`, { key })).body.monitor;
      expect(after).to.include({ status: 'PAUSED', consecutive_failures: 0, total_pings_received: 1 });
      expect((await history(m.id)).map((p) => p['event'])).to.deep.equal(['FAILURE']);
      const incidents = await vigil.request('GET', `/v1/monitors/${m.id}/incidents`, { key });
      expect(incidents.body.data).to.deep.equal([]);

      const resumed = await vigil.request('POST', `/v1/monitors/${m.id}/resume`, { key });
      expect(resumed.body.monitor.status).to.equal('UP');
      expect(resumed.body.monitor.next_expected_at).to.not.equal(null);
      const evaluated = await vigil.request('GET', `/v1/ping/${m.id}/fail`);
      expect(evaluated.body).to.not.have.property('code');
      expect((await vigil.request('GET', `/v1/monitors/${m.id}`, { key })).body.monitor.status).to.equal('DOWN');
    });

    it('is paused and resumed through PATCH status too', async () => {
      const m = await monitor();
      expect((await vigil.request('PATCH', `/v1/monitors/${m.id}`, { key, body: { status: 'PAUSED' } })).body.monitor.status).to.equal('PAUSED');
      expect((await vigil.request('GET', `/v1/ping/${m.id}`)).body.code).to.equal('MONITOR_PAUSED');
      expect((await vigil.request('PATCH', `/v1/monitors/${m.id}`, { key, body: { status: 'UP' } })).body.monitor.status).to.equal('UP');
      expect((await vigil.request('PATCH', `/v1/monitors/${m.id}`, { key, body: { status: 'DOWN' } })).body.error).to.equal('status must be one of UP, PAUSED');
    });
  });
});

describe('Ping API › pings that name no monitor', () => {
  for (const spoof of SPOOFS) {
    it(`count against the client's address as wrong API keys do, whatever X-Forwarded-For it makes up: ${spoof.name} (VIGIL_TRUST_PROXY=${spoof.trust})`, async () => {
      const vigil = await TestVigil.start({ env: { VIGIL_TRUST_PROXY: spoof.trust } });
      try {
        await expectThrottledAfterTwenty(async (i) => {
          const path = i % 2 ? `/v1/ping/${randomUUID()}` : `/v1/s-ping/${randomBase62(22)}/job`;
          return (await send(vigil.url, 'GET', path, { headers: { 'X-Forwarded-For': spoof.forwardedFor(i) }, localAddress: spoof.from })).status;
        }, 404);
      } finally {
        await vigil.stop();
      }
    });
  }

  it('still records a ping naming a monitor from a throttled address, and counts no guess in a right ping key with an unknown slug', async () => {
    const vigil = await TestVigil.start({ env: { VIGIL_AUTH_FAILURE_LIMIT: '2' } });
    try {
      const key = await vigil.accountKey(await vigil.user('throttled-pings@example.com'), ALL_SCOPES);
      const project = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'P' } })).body.project;
      const m = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: project.id, name: 'Job', type: 'JOB_HEARTBEAT', schedule: '1h' } })).body.monitor;
      for (let i = 0; i < 5; i++) expect((await vigil.request('GET', `/v1/s-ping/${project.ping_key}/no-such-job-${i}`)).status).to.equal(404);
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await vigil.request('GET', `/v1/ping/${randomUUID()}`)).status);
      expect(statuses).to.deep.equal([404, 404, 429]);
      const throttled = await vigil.request('GET', `/v1/s-ping/${randomBase62(22)}/job`);
      expect(throttled.status).to.equal(429);
      expect(throttled.headers.get('Retry-After')).to.equal('60');
      expect(throttled.body.error).to.match(/^too many failed authentications from this address/);
      // The same throttle as the REST API's: one count for every door.
      expect((await vigil.request('GET', '/v1/projects', { key: 'vgl_live_AAAAAAAAAAAAAAAAAAAAAAAAAA' })).status).to.equal(429);
      expect((await vigil.request('GET', `/v1/ping/${m.id}`)).status).to.equal(200);
      expect((await vigil.request('GET', `/v1/s-ping/${project.ping_key}/${m.slug}`)).status).to.equal(200);
    } finally {
      await vigil.stop();
    }
  });
});
