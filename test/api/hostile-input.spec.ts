import { expect } from 'chai';
import fc from 'fast-check';
import { createSocket } from 'node:dgram';
import { gzipSync } from 'node:zlib';
import { Agent, type OutgoingHttpHeaders } from 'node:http';
import type * as t from 'io-ts';
import {
  CONTENT_ENCODINGS,
  CONTENT_TYPES,
  HOSTILE_JSON_TEXTS,
  NON_JSON_TEXTS,
  discoverBodyCodecs,
  fieldNames,
  hostilePayload,
  hostileString,
  hostileValue,
  loopbackOnly,
  plausibleFor,
} from '../support/hostile-arbitraries.js';
import { type Target, reply, startTarget } from '../support/http-targets.js';
import { type RawResponse, type UploadOutcome, converse, parseRawResponse, send, trickle, upload } from '../support/raw-http.js';
import { ConfigError, loadConfig } from '../../src/main/config.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';
import { type ServedRoute, servedRoutes } from '../support/served-routes.js';

/** Every run is reproducible: FUZZ_SEED=<n> replays (or explores) another sequence. */
const SEED = Number(process.env['FUZZ_SEED'] ?? 20261121);
const RUNS_PER_ROUTE = Number(process.env['FUZZ_RUNS'] ?? 6);

type Route = ServedRoute;

const isPingRoute = (route: Route) => /\/(s-)?ping\//.test(route.path);

/** Path segments that are not ids: traversal, encoded slashes and NULs, broken escapes, unicode, sheer length. */
const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  fc.uuid(),
  fc.uuid().map((id) => `${id}x`),
  fc.constantFrom('%00', '..%2F..%2Fetc%2Fpasswd', '..', '%2E%2E', 'a%2Fb', '%2F', '%5C', '%', '%zz', '%E0%A4%A', '%C0%AF', '%FF%FE', '%u0000', '%0D%0AX-Injected:%201', 'null', '__proto__', 'constructor', '-1', '0', '1e309', '%20', 'é'),
  hostileString.map(percentEncoded),
  fc.integer({ min: 500, max: 12_000 }).map((n) => 'a'.repeat(n)),
);

describe('Hostile input', () => {
  describe('at every route', function () {
    this.timeout(120_000);
    let vigil: TestVigil;
    let key: string;
    let sink: Target;
    let routes: Route[];
    let codecs: t.Decoder<unknown, unknown>[];
    let fields: string[];
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    const fixtures = { project: '', pingKey: '', monitor: '', slug: '', ping: '', incident: '', channel: '', group: '', apiKey: '', member: '' };

    before(async () => {
      sink = await startTarget(reply(200, 'ok'));
      // A DNS "server" that is not there: tools/check-dns asks 127.0.0.1 and nothing past it.
      const deadDns = createSocket('udp4');
      await new Promise<void>((resolve) => deadDns.bind(0, '127.0.0.1', resolve));
      const dnsPort = deadDns.address().port;
      deadDns.close();
      vigil = await TestVigil.start({
        env: { VIGIL_RATE_LIMIT_REQUESTS: '1000000', VIGIL_DNS_SERVERS: `127.0.0.1:${dnsPort}`, VIGIL_PING_PAYLOAD_LIMIT: '1000', VIGIL_HEADERS_TIMEOUT_MS: '2000', VIGIL_REQUEST_TIMEOUT_MS: '4000' },
      });
      const owner = await vigil.user('fuzz-owner@example.com');
      key = await vigil.accountKey(owner, ALL_SCOPES);
      const made = async (path: string, body: unknown) => {
        const response = await vigil.request('POST', path, { key, body });
        expect(response.status, `${path}: ${response.text}`).to.be.oneOf([200, 201, 204]);
        return response.body;
      };
      const project = (await made('/v1/projects', { name: 'Fuzzed' })).project;
      Object.assign(fixtures, { project: project.id, pingKey: project.ping_key });
      fixtures.member = await vigil.user('fuzz-member@example.com');
      await vigil.settle();
      await made(`/v1/projects/${project.id}/members`, { user_id: fixtures.member, role: 'MEMBER' });
      const monitor = (await made('/v1/monitors', { project_id: project.id, name: 'Job', type: 'JOB_HEARTBEAT', schedule: '1h' })).monitor;
      Object.assign(fixtures, { monitor: monitor.id, slug: monitor.slug });
      fixtures.ping = (await vigil.request('GET', `/v1/ping/${monitor.id}/fail`)).body.ping_id;
      await vigil.settle();
      fixtures.incident = (await vigil.request('GET', `/v1/monitors/${monitor.id}/incidents`, { key })).body.data[0].id;
      fixtures.channel = (await made('/v1/notification-channels', { project_id: project.id, name: 'Sink', type: 'WEBHOOK', config: { url: sink.url } })).channel.id;
      fixtures.group = (await made('/v1/notification-groups', { project_id: project.id, name: 'Team' })).group.id;
      await made(`/v1/notification-groups/${fixtures.group}/channels`, { channel_id: fixtures.channel });
      fixtures.apiKey = (await made('/v1/api-keys', { name: 'spare', expires_in_days: 30, scopes: ['read'] })).api_key.id;

      routes = servedRoutes(vigil.vigil.api!);
      codecs = await discoverBodyCodecs();
      fields = fieldNames(codecs);
    });
    after(async () => {
      agent.destroy();
      await vigil.stop();
      await sink.close();
    });

    const knownIds = () => [fixtures.project, fixtures.monitor, fixtures.ping, fixtures.incident, fixtures.channel, fixtures.group, fixtures.apiKey, fixtures.member];

    /** The real value for a path parameter, by its name; parameters no fixture names get only hostile values. */
    function realParam(name: string): fc.Arbitrary<string> | null {
      const real: Record<string, () => fc.Arbitrary<string>> = {
        projectId: () => fc.constant(fixtures.project),
        monitorId: () => fc.constant(fixtures.monitor),
        pingId: () => fc.constant(fixtures.ping),
        incidentId: () => fc.constant(fixtures.incident),
        channelId: () => fc.constant(fixtures.channel),
        groupId: () => fc.constant(fixtures.group),
        apiKeyId: () => fc.constant(fixtures.apiKey),
        userId: () => fc.constant(fixtures.member),
        pingKey: () => fc.constant(fixtures.pingKey),
        slug: () => fc.constant(fixtures.slug),
        suffix: () => fc.constantFrom('start', 'success', 'fail', 'log', '0', '255'),
      };
      return real[name]?.() ?? null;
    }

    /**
     * Values for a route's path parameters: mostly real ones, so what comes after the lookup is
     * reached. A DELETE never gets real values for all of them, so the fixtures stay.
     */
    function pathFor(route: Route, hostileShare: number): fc.Arbitrary<string> {
      const values = route.params.map((name, index) => {
        const real = realParam(name);
        const destructive = route.method === 'DELETE' && index === route.params.length - 1;
        if (!real || destructive) return hostileSegment;
        return fc.oneof({ weight: 10 - hostileShare, arbitrary: real }, { weight: hostileShare, arbitrary: hostileSegment });
      });
      return fc.tuple(...values).map((filled) => {
        let path = route.path;
        route.params.forEach((name, index) => (path = path.replace(`:${name}`, filled[index]!)));
        return path;
      });
    }

    const keyHeader = (): fc.Arbitrary<OutgoingHttpHeaders> =>
      fc.oneof(
        { weight: 8, arbitrary: fc.constant({ 'X-API-Key': key }) },
        { weight: 1, arbitrary: fc.constant({}) },
        { weight: 1, arbitrary: hostileString.filter(headerSafe).map((garbage) => ({ 'X-API-Key': garbage })) },
      );

    /**
     * Never a 5xx; an error is JSON with a string `error` (a HEAD answer has no body to say it in).
     * The public status pages are for people: theirs is one plain HTML page, the same for everything.
     */
    function expectTidy(route: Route, response: RawResponse, what: string): void {
      const context = `${what} → ${response.status} ${response.text.slice(0, 300)}`;
      expect(response.status, context).to.be.within(100, 499);
      if (response.status === 404 && route.path.startsWith('/status/')) {
        if (route.method !== 'HEAD') expect(response.text, context).to.contain('<h1>Not found</h1>');
      } else if (response.status >= 400 && route.method !== 'HEAD') {
        let body: unknown;
        expect(() => (body = JSON.parse(response.text)), context).not.to.throw();
        expect(body, context).to.have.property('error').that.is.a('string').and.is.not.empty;
      }
    }

    /** Runs `property` for every route, then checks the server still answers. */
    async function forEveryRoute(which: (route: Route) => boolean, property: (route: Route) => fc.IAsyncProperty<any>, runs = RUNS_PER_ROUTE): Promise<void> {
      const chosen = routes.filter(which);
      expect(chosen).not.to.be.empty;
      for (const [index, route] of chosen.entries()) {
        await assertBriefly(property(route), { numRuns: runs, seed: SEED + index });
        // POST …/ping-key/rotate is fair game: the Ping API by slug then needs the new key.
        fixtures.pingKey = (await vigil.request('GET', `/v1/projects/${fixtures.project}`, { key })).body.project.ping_key;
      }
      expect((await vigil.request('GET', '/v1/projects', { key })).status).to.equal(200);
    }

    const url = () => vigil.url;

    it('finds every route in the routers: the Ping API and the REST API under /v1', () => {
      const names = routes.map((r) => `${r.method} ${r.path}`);
      expect(names).to.include.members(['GET /v1/ping/:monitorId', 'POST /v1/s-ping/:pingKey/:slug/:suffix', 'POST /v1/projects', 'DELETE /v1/monitors/:monitorId', 'HEAD /v1/monitors/:monitorId']);
      expect(routes.length).to.be.greaterThan(50);
    });

    it('answers random JSON bodies, plausible or not, with a success or a 4xx { error }', async () => {
      const bodies = fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...codecs).chain((codec) => plausibleFor(codec, knownIds)) },
        {
          weight: 2,
          arbitrary: fc
            .tuple(fc.constantFrom(...codecs).chain((codec) => plausibleFor(codec, knownIds)), fc.constantFrom(...fields, '__proto__', 'constructor'), hostileValue)
            .map(([body, field, value]) => (typeof body === 'object' && body !== null ? { ...body, [field]: value } : body)),
        },
        { weight: 1, arbitrary: fc.jsonValue() },
        { weight: 1, arbitrary: hostileValue },
      );
      await forEveryRoute(
        (route) => route.method !== 'HEAD',
        (route) =>
          fc.asyncProperty(pathFor(route, 2), bodies, keyHeader(), async (path, body, auth) => {
            const text = JSON.stringify(loopbackOnly(body)) ?? 'null';
            const response = await send(url(), route.method, path, { agent, headers: { ...auth, 'Content-Type': 'application/json' }, body: text });
            expectTidy(route, response, `${route.method} ${path} ${text.slice(0, 200)}`);
          }),
      );
    });

    it('answers bodies that are not JSON, are hostile JSON, or come as another media type with a 4xx { error }', async () => {
      const texts = fc.oneof(fc.constantFrom(...NON_JSON_TEXTS, ...HOSTILE_JSON_TEXTS), fc.string({ unit: 'binary', maxLength: 200 }));
      const contentHeaders = fc.record(
        { 'Content-Type': fc.oneof(fc.constantFrom(...CONTENT_TYPES), hostileString.filter(headerSafe)), 'Content-Encoding': fc.constantFrom(...CONTENT_ENCODINGS) },
        { requiredKeys: ['Content-Type'] },
      );
      await forEveryRoute(
        (route) => route.method !== 'HEAD' && route.method !== 'GET',
        (route) =>
          fc.asyncProperty(pathFor(route, 1), texts, contentHeaders, keyHeader(), async (path, text, content, auth) => {
            const response = await send(url(), route.method, path, { agent, headers: { ...auth, ...content }, body: text });
            expectTidy(route, response, `${route.method} ${path} ${JSON.stringify(content)} ${JSON.stringify(text.slice(0, 200))}`);
          }),
      );
    });

    it('answers random query strings (repeated keys, empty and huge values, broken escapes) with a success or a 4xx { error }', async () => {
      const queryKey = fc.oneof(fc.constantFrom(...fields, 'page', 'limit', 'as_of', 'period_hours', 'status', 'event', 'from', 'to', '__proto__', 'constructor', 'a[b]', 'a[]', ''), hostileString);
      const queryValue = fc.oneof(hostileString, hostileValue.map((v) => JSON.stringify(v) ?? ''), fc.constant(''), fc.integer({ min: 1000, max: 8000 }).map((n) => '9'.repeat(n)));
      const pair = fc.tuple(queryKey, queryValue, fc.boolean()).map(([k, v, raw]) => (raw ? `${k.replace(/[^\x21-\x7e]/g, '')}=${v.replace(/[^\x21-\x7e]/g, '')}` : `${percentEncoded(k)}=${percentEncoded(v)}`));
      const query = fc.array(pair, { maxLength: 8 }).chain((pairs) =>
        pairs.length > 0 ? fc.constantFrom(...pairs).map((repeated) => [...pairs, repeated].join('&')) : fc.constant(''),
      );
      await forEveryRoute(
        () => true,
        (route) =>
          fc.asyncProperty(pathFor(route, 1), query, keyHeader(), async (path, queryString, auth) => {
            const response = await send(url(), route.method, `${path}?${queryString.slice(0, 12_000)}`, { agent, headers: auth });
            expectTidy(route, response, `${route.method} ${path}?${queryString.slice(0, 300)}`);
          }),
      );
    });

    it('answers hostile path ids (random UUIDs, junk, traversal, %00, encoded slashes, unicode, very long) with a 4xx { error } or a success', async () => {
      await forEveryRoute(
        (route) => route.params.length > 0,
        (route) =>
          fc.asyncProperty(pathFor(route, 7), keyHeader(), async (path, auth) => {
            const response = await send(url(), route.method, path, { agent, headers: auth });
            expectTidy(route, response, `${route.method} ${path.slice(0, 300)}`);
          }),
        RUNS_PER_ROUTE * 2,
      );
    });

    it('answers missing, garbage, repeated and oversized headers with a 4xx { error } or a success', async () => {
      const headerName = fc.oneof(
        fc.constantFrom('X-API-Key', 'x-api-key', 'Authorization', 'Accept', 'Accept-Encoding', 'Accept-Charset', 'Content-Type', 'Content-Encoding', 'X-Request-Id', 'X-Forwarded-For', 'X-Forwarded-Proto', 'X-Forwarded-Host', 'Forwarded', 'Origin', 'Cookie', 'Range', 'If-None-Match', 'If-Modified-Since', 'User-Agent', 'Expect', 'Upgrade', 'Connection', 'TE'),
        fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,40}$/),
      );
      const headerValue = fc.oneof(hostileString.filter(headerSafe), fc.constant(key), fc.integer({ min: 1000, max: 15_000 }).map((n) => 'v'.repeat(n)));
      const headers = fc.array(fc.tuple(headerName, fc.array(headerValue, { minLength: 1, maxLength: 3 })), { maxLength: 6 }).map((pairs) => {
        const all: OutgoingHttpHeaders = {};
        for (const [name, values] of pairs) all[name] = values.length === 1 ? values[0]! : values;
        return all;
      });
      await forEveryRoute(
        () => true,
        (route) =>
          fc.asyncProperty(pathFor(route, 1), keyHeader(), headers, async (path, auth, extra) => {
            // A fresh connection each time: Connection and Upgrade headers are among the values sent.
            const response = await send(url(), route.method, path, { headers: { ...auth, ...extra } });
            expectTidy(route, response, `${route.method} ${path} ${JSON.stringify(extra).slice(0, 300)}`);
          }),
      );
    });

    it('answers malformed HTTP (bad bytes in the request line or a header, broken framing) with a 4xx { error } and closes, never a 5xx or silence', async () => {
      const rawByte = fc.integer({ min: 0, max: 255 }).filter((b) => b !== 0x0d && b !== 0x0a);
      const badValue = fc.array(rawByte, { minLength: 1, maxLength: 40 }).map((bytes) => Buffer.from(bytes).toString('latin1'));
      const request = fc.oneof(
        fc.tuple(fc.constantFrom(...routes), badValue).map(([route, junk]) => `${route.method} ${route.path.replace(/:\w+/g, 'x')}${junk} HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n`),
        fc.tuple(fc.constantFrom(...routes), badValue, badValue).map(([route, name, value]) => `${route.method} ${route.path.replace(/:\w+/g, 'x')} HTTP/1.1\r\nHost: a\r\nConnection: close\r\n${name}: ${value}\r\n\r\n`),
        fc.constantFrom(
          'GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
          'POST /v1/projects HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n',
          'POST /v1/projects HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
          'POST /v1/projects HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n',
          'GET /v1/projects HTTP/9.9\r\n\r\n',
          'GARBAGE\r\n\r\n',
          `GET /v1/projects HTTP/1.1\r\nHost: a\r\nX-Big: ${'b'.repeat(70_000)}\r\n\r\n`,
        ),
      );
      await assertBriefly(
        fc.asyncProperty(request, async (raw) => {
          const outcome = await converse(url(), async (socket) => void socket.write(Buffer.from(raw, 'latin1')), 5000);
          const context = `${JSON.stringify(raw.slice(0, 200))} → ${JSON.stringify(outcome.received.slice(0, 300))}`;
          const parsed = parseRawResponse(outcome.received);
          expect(parsed, context).not.to.equal(null);
          expect(outcome.closedAfterMs, context).not.to.equal(null);
          expect(parsed!.status, context).to.be.within(100, 499);
          if (parsed!.status >= 400 && !raw.startsWith('HEAD')) expect(JSON.parse(parsed!.body), context).to.have.property('error').that.is.a('string');
        }),
        { numRuns: 80, seed: SEED },
      );
      expect((await vigil.request('GET', '/v1/projects', { key })).status).to.equal(200);
    });

    it('records binary, invalid UTF-8 and oversized ping payloads under any Content-Type, and reads them back', async () => {
      await forEveryRoute(
        (route) => isPingRoute(route) && route.method === 'POST',
        (route) =>
          fc.asyncProperty(pathFor(route, 0), hostilePayload, fc.constantFrom(...CONTENT_TYPES), async (path, payload, contentType) => {
            const response = await send(url(), 'POST', path, { agent, headers: { 'Content-Type': contentType }, body: payload });
            const context = `POST ${path} (${payload.length} bytes)`;
            expectTidy(route, response, context);
            if (response.status !== 200) return;
            const recorded = JSON.parse(response.text);
            const ping = await vigil.request('GET', `/v1/monitors/${recorded.monitor_id}/pings/${recorded.ping_id}`, { key });
            expect(ping.status, context).to.equal(200);
            expect(ping.body.ping.payload_bytes, context).to.equal(payload.length > 0 ? payload.length : null);
            expect(ping.body.ping.truncated, context).to.equal(payload.length > 1000);
          }),
      );
    });

    it('leaves Object.prototype unpolluted after all of that', () => {
      const probe: Record<string, unknown> = {};
      expect(probe['polluted']).to.equal(undefined);
      expect(probe['isAdmin']).to.equal(undefined);
      expect(Object.keys(Object.prototype)).to.deep.equal([]);
      expect(Object.keys(Array.prototype)).to.deep.equal([]);
    });

    it('counted no 5xx answer at all, not even to clients that were gone', async () => {
      expect(await serverErrorsCounted(vigil)).to.deep.equal([]);
    });

    it('still serves, and every fixture is still there', async () => {
      for (const path of [
        `/v1/projects/${fixtures.project}`,
        `/v1/monitors/${fixtures.monitor}`,
        `/v1/incidents/${fixtures.incident}`,
        `/v1/notification-channels/${fixtures.channel}`,
        `/v1/notification-groups/${fixtures.group}`,
      ]) {
        expect((await vigil.request('GET', path, { key })).status, path).to.equal(200);
      }
      // The fixture ping itself may be gone: the fuzzed pings pushed it past the monitor's retention.
      expect((await vigil.request('GET', `/v1/monitors/${fixtures.monitor}/pings`, { key })).body.data).not.to.be.empty;
      const keys = (await vigil.request('GET', '/v1/api-keys', { key })).body;
      expect(JSON.stringify(keys)).to.include(fixtures.apiKey);
      const channels = (await vigil.request('GET', `/v1/notification-groups/${fixtures.group}/channels`, { key })).body;
      expect(JSON.stringify(channels)).to.include(fixtures.channel);
    });
  });
});

describe('Hostile input: oversized bodies', function () {
  this.timeout(60_000);
  const FIFTY_MB = 50 * 1024 * 1024;
  let vigil: TestVigil;
  let key: string;
  let monitorId: string;
  before(async () => {
    vigil = await TestVigil.start();
    key = await vigil.accountKey(await vigil.user('big@example.com'), ALL_SCOPES);
    const project = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Big' } })).body.project;
    monitorId = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: project.id, name: 'Job', type: 'JOB_HEARTBEAT', schedule: '1h' } })).body.monitor.id;
  });
  after(() => vigil.stop());

  /** Refused with a 413 { error } while most of the body was still unsent, and never held in memory whole. */
  function expectRefusedEarly(outcome: UploadOutcome, error: string | RegExp): void {
    const context = JSON.stringify({ ...outcome, text: outcome.text.slice(0, 200) });
    expect(outcome.status, context).to.equal(413);
    expect(JSON.parse(outcome.text).error, context).to.match(typeof error === 'string' ? new RegExp(`^${error}$`) : error);
    expect(outcome.sentWhenAnswered, context).to.be.below(FIFTY_MB / 2);
    // Streamed, nothing stays alive; held even until the 10 MB ping cap, it would show.
    expect(outcome.peakGrowthBytes, context).to.be.below(FIFTY_MB / 8);
  }

  it('refuses a 50 MB JSON body declared by Content-Length with a 413 before reading it', async () => {
    const outcome = await upload(vigil.url, 'POST', '/v1/projects', { 'X-API-Key': key, 'Content-Type': 'application/json', 'Content-Length': FIFTY_MB }, FIFTY_MB);
    expectRefusedEarly(outcome, 'request body is larger than the limit of 262144 bytes');
  });

  it('refuses a 50 MB chunked JSON body with a 413 once it passes the limit, without buffering the rest', async () => {
    const outcome = await upload(vigil.url, 'PATCH', `/v1/monitors/${monitorId}`, { 'X-API-Key': key, 'Content-Type': 'application/json' }, FIFTY_MB);
    expectRefusedEarly(outcome, 'request body is larger than the limit of 262144 bytes');
    expect((await vigil.request('GET', '/v1/projects', { key })).status).to.equal(200);
  });

  it('refuses a 50 MB ping payload past the hard cap with a 413, keeping only what a payload keeps', async () => {
    const chunked = await upload(vigil.url, 'POST', `/v1/ping/${monitorId}`, { 'Content-Type': 'application/octet-stream' }, FIFTY_MB);
    expectRefusedEarly(chunked, /^ping body is larger than \d+ bytes$/);
    const declared = await upload(vigil.url, 'POST', `/v1/ping/${monitorId}/fail`, { 'Content-Length': FIFTY_MB }, FIFTY_MB);
    expectRefusedEarly(declared, /^ping body is larger than \d+ bytes$/);
    await vigil.settle();
    expect((await vigil.request('GET', `/v1/monitors/${monitorId}/pings`, { key })).body.data, 'a refused ping is not recorded').to.deep.equal([]);
    expect(await serverErrorsCounted(vigil)).to.deep.equal([]);
  });
});

describe('Hostile input: slow clients', function () {
  this.timeout(30_000);
  let vigil: TestVigil;
  let key: string;
  let monitorId: string;
  before(async () => {
    vigil = await TestVigil.start({ env: { VIGIL_HEADERS_TIMEOUT_MS: '1000', VIGIL_REQUEST_TIMEOUT_MS: '2000', VIGIL_KEEP_ALIVE_TIMEOUT_MS: '500' } });
    key = await vigil.accountKey(await vigil.user('slow@example.com'), ALL_SCOPES);
    const project = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Slow' } })).body.project;
    monitorId = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: project.id, name: 'Job', type: 'JOB_HEARTBEAT', schedule: '1h' } })).body.monitor.id;
  });
  after(() => vigil.stop());

  const REQUEST_TIMEOUT = { status: 408, body: '{"error":"the request was not received in time"}' };

  it('closes a connection whose headers trickle in a byte at a time (slowloris) once VIGIL_HEADERS_TIMEOUT_MS passes, with a 408 { error }', async () => {
    const outcome = await converse(vigil.url, (socket, closed) => trickle(socket, `GET /v1/projects HTTP/1.1\r\nHost: a\r\nX-API-Key: ${key}\r\nX-Slow: ${'a'.repeat(200)}`, 100, closed), 15_000);
    expect(outcome.closedAfterMs, 'closed by the server').not.to.equal(null);
    expect(outcome.closedAfterMs!).to.be.within(900, 3000);
    expect(parseRawResponse(outcome.received)).to.deep.equal(REQUEST_TIMEOUT);
  });

  it('closes a connection whose body trickles in once VIGIL_REQUEST_TIMEOUT_MS passes, with a 408 { error }, on the REST API and the Ping API', async () => {
    for (const [path, headers] of [
      ['/v1/projects', `X-API-Key: ${key}\r\nContent-Type: application/json\r\n`],
      [`/v1/ping/${monitorId}`, ''],
    ] as const) {
      const head = `POST ${path} HTTP/1.1\r\nHost: a\r\n${headers}Content-Length: 500\r\n\r\n`;
      const outcome = await converse(vigil.url, async (socket, closed) => {
        socket.write(head);
        await trickle(socket, `{"name":"${'a'.repeat(480)}"}`, 100, closed);
      }, 15_000);
      expect(outcome.closedAfterMs, path).not.to.equal(null);
      expect(outcome.closedAfterMs!, path).to.be.within(1900, 4500);
      expect(parseRawResponse(outcome.received), path).to.deep.equal(REQUEST_TIMEOUT);
    }
    await vigil.settle();
    expect((await vigil.request('GET', `/v1/monitors/${monitorId}/pings`, { key })).body.data, 'a ping whose body never arrived is not recorded').to.deep.equal([]);
    expect(await serverErrorsCounted(vigil), 'a body cut short is the client\'s fault, not a 500').to.deep.equal([]);
  });

  it('closes an idle keep-alive connection once VIGIL_KEEP_ALIVE_TIMEOUT_MS passes', async () => {
    const outcome = await converse(vigil.url, async (socket) => void socket.write(`GET /v1/projects HTTP/1.1\r\nHost: a\r\nX-API-Key: ${key}\r\n\r\n`), 10_000);
    expect(parseRawResponse(outcome.received)?.status).to.equal(200);
    expect(outcome.closedAfterMs, 'closed by the server').not.to.equal(null);
    expect(outcome.closedAfterMs!).to.be.within(400, 3000);
  });

  it('defaults to 10 s for headers, 30 s for a whole request and 5 s for an idle connection, and refuses headers allowed longer than the request', () => {
    expect(loadConfig({}).httpTimeouts).to.deep.equal({ headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5000 });
    expect(() => loadConfig({ VIGIL_HEADERS_TIMEOUT_MS: '5000', VIGIL_REQUEST_TIMEOUT_MS: '4000' })).to.throw(ConfigError, /VIGIL_HEADERS_TIMEOUT_MS \(5000\) must not be longer than VIGIL_REQUEST_TIMEOUT_MS \(4000\)/);
  });
});

describe('Hostile input: what fuzzing found', () => {
  let vigil: TestVigil;
  let key: string;
  before(async () => {
    vigil = await TestVigil.start();
    key = await vigil.accountKey(await vigil.user('found@example.com'), ALL_SCOPES);
  });
  after(() => vigil.stop());

  it('drops body fields no codec names, so PATCH /v1/projects/<own> cannot rename or delete another tenant\'s project', async () => {
    const victimKey = await vigil.accountKey(await vigil.user('victim@example.com'), ALL_SCOPES);
    const victim = (await vigil.request('POST', '/v1/projects', { key: victimKey, body: { name: 'Victim' } })).body.project;
    const own = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Own' } })).body.project;
    const renamed = await vigil.request('PATCH', `/v1/projects/${own.id}`, { key, body: { project_id: victim.id, name: 'Taken over' } });
    expect(renamed.status).to.equal(200);
    expect(renamed.body.project).to.include({ id: own.id, name: 'Taken over' });
    const deleting = await vigil.request('PATCH', `/v1/projects/${own.id}`, { key, body: { project_id: victim.id, type: 'DeleteProject' } });
    expect(deleting.status).to.equal(200);
    expect((await vigil.request('GET', `/v1/projects/${victim.id}`, { key: victimKey })).body.project).to.include({ name: 'Victim' });
    const unknownCommand = await vigil.request('PATCH', `/v1/projects/${own.id}`, { key, body: { name: 'Own', type: 'DISCORD' } });
    expect(unknownCommand.status).to.equal(200);
  });

  it('answers a body that is not what its Content-Encoding says with a 400, not a 500', async () => {
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const response = await send(vigil.url, 'POST', '/v1/projects', { headers: { 'X-API-Key': key, 'Content-Type': 'application/json', 'Content-Encoding': encoding }, body: '{"name":"x"}' });
      expect(response.status, encoding).to.equal(400);
      expect(JSON.parse(response.text), encoding).to.deep.equal({ error: `request body is not valid ${encoding} data` });
    }
    const gzipped = await send(vigil.url, 'POST', '/v1/projects', { headers: { 'X-API-Key': key, 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }, body: gzipSync('{"name":"Zipped"}') });
    expect(gzipped.status).to.equal(201);
  });

  it('answers an Expect it cannot meet with a 417 { error }, and what Node\'s parser refuses with a 400 { error }', async () => {
    const expectation = await send(vigil.url, 'GET', '/v1/projects', { headers: { 'X-API-Key': key, Expect: 'the-moon' } });
    expect(expectation.status).to.equal(417);
    expect(JSON.parse(expectation.text)).to.have.property('error').that.is.a('string');
    const outcome = await converse(vigil.url, async (socket) => void socket.write('GET /v1/projects HTTP/1.1\r\nHost: a\r\nX-Bad\u0001: 1\r\n\r\n'), 5000);
    expect(parseRawResponse(outcome.received)).to.deep.equal({ status: 400, body: '{"error":"malformed HTTP request"}' });
    expect(outcome.closedAfterMs).not.to.equal(null);
  });

  it('answers headers too large with a 431 { error }, without a body after HEAD', async () => {
    const big = 'x'.repeat(20_000);
    const get = await send(vigil.url, 'GET', `/v1/monitors/${big}`, { headers: { 'X-API-Key': key } });
    expect(get.status).to.equal(431);
    expect(JSON.parse(get.text)).to.deep.equal({ error: 'request headers are too large' });
    const head = await send(vigil.url, 'HEAD', `/v1/monitors/${big}`, { headers: { 'X-API-Key': key } });
    expect(head.status).to.equal(431);
  });
});

/**
 * The answers the server counted with a 5xx status, from /metrics: it sees the ones no client
 * read, such as a handler failing after the connection was gone.
 */
async function serverErrorsCounted(vigil: TestVigil): Promise<string[]> {
  const text = await (await fetch(`${vigil.url}/metrics`)).text();
  return text.split('\n').filter((line) => /^vigil_http_request_duration_seconds_count\{.*status_code="5\d\d"/.test(line));
}

/** Like fc.assert, but a failure names its seed and counterexample in a few lines, not a 20 kB path. */
async function assertBriefly<T>(property: fc.IAsyncProperty<T>, params: { numRuns: number; seed: number }): Promise<void> {
  const details = await fc.check(property, { ...params, endOnFailure: true });
  if (!details.failed) return;
  const shown = JSON.stringify(details.counterexample, (_key, value: unknown) => (typeof value === 'string' && value.length > 300 ? `${value.slice(0, 300)}…(${value.length} chars)` : value));
  const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  throw new Error(
    `property failed (FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS_PER_ROUTE} replays it; fast-check seed ${details.seed}, path "${details.counterexamplePath}"): ${cause.slice(0, 1500)}\ncounterexample: ${shown.slice(0, 1500)}`,
  );
}

/** encodeURIComponent, except a lone surrogate becomes the invalid UTF-8 a careless client would send. */
function percentEncoded(text: string): string {
  return Array.from(text, (char) => (/[\uD800-\uDFFF]/.test(char) && char.length === 1 ? '%ED%A0%80' : encodeURIComponent(char))).join('');
}

/** Values node:http will put in a header at all (no CR, LF or NUL, nothing past latin-1). */
function headerSafe(value: string): boolean {
  return /^[\t\x20-\x7e\x80-\xff]*$/.test(value);
}
