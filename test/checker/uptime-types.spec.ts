import { expect } from 'chai';
import { type AddressInfo, type Server, type Socket, createServer } from 'node:net';
import { type DnsServer, startDnsServer } from '../support/dns-server.js';
import { type Target, reply, startTarget } from '../support/http-targets.js';
import { ALL_SCOPES, TestClock, TestVigil } from '../support/test-vigil.js';
import { postKeySignIn } from '../support/people.js';

/** A TCP listener on 127.0.0.1 that counts the connections it accepts and closes each at once. */
async function startListener(): Promise<{ port: number; accepted: () => number; close: () => Promise<void> }> {
  let accepted = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    accepted: () => accepted,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port nothing listens on: bound, noted and closed again. */
async function closedPort(): Promise<number> {
  const listener = await startListener();
  await listener.close();
  return listener.port;
}

describe('Checker (UPTIME_TCP, UPTIME_DNS and JSON queries)', function () {
  this.timeout(60_000);
  let vigil: TestVigil;
  let key: string;
  let projectId: string;
  let dns: DnsServer;
  const cleanups: (() => Promise<void>)[] = [];

  async function startVigil(env: NodeJS.ProcessEnv = {}) {
    vigil = await TestVigil.start({ clock: new TestClock(), env: { VIGIL_CHECK_RETRIES: '1', VIGIL_DNS_SERVERS: dns.address, ...env } });
    key = await vigil.accountKey(await vigil.user('checker@example.com'), ALL_SCOPES);
    projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Uptime' } })).body.project.id;
  }

  beforeEach(async () => {
    dns = await startDnsServer({
      'app.example.test': { A: ['192.0.2.10', '192.0.2.11'], AAAA: ['2001:db8::10'], TXT: ['v=spf1 -all', 'site-verification=abc'], MX: [{ priority: 10, exchange: 'mail.example.test' }] },
      'www.example.test': { CNAME: ['app.example.test'] },
    });
    cleanups.push(() => dns.close());
  });
  afterEach(async () => {
    await vigil.stop();
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  const create = (body: Record<string, unknown>) => vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Probe', schedule: '1m', ...body } });
  async function monitor(body: Record<string, unknown>) {
    const created = await create(body);
    expect(created.status, created.text).to.equal(201);
    return created.body.monitor as Record<string, unknown> & { id: string };
  }
  const read = async (id: string) => (await vigil.request('GET', `/v1/monitors/${id}`, { key })).body.monitor;
  const incidents = async (id: string) => (await vigil.request('GET', `/v1/monitors/${id}/incidents`, { key })).body.data;
  const latest = async (id: string) => (await vigil.request('GET', `/v1/monitors/${id}/check-results/latest`, { key })).body;
  const nextMinute = () => vigil.clock.advance(60_000);

  describe('UPTIME_TCP', () => {
    beforeEach(() => startVigil());

    it('is UP while the port accepts connections, and shows its settings', async () => {
      const listener = await startListener();
      cleanups.push(listener.close);
      const m = await monitor({ type: 'UPTIME_TCP', tcp_host: '127.0.0.1', tcp_port: listener.port });
      expect(m).to.include({ type: 'UPTIME_TCP', tcp_host: '127.0.0.1', tcp_port: listener.port, tcp_timeout_ms: 10_000 });
      expect(m).to.not.have.property('uptime_url');
      expect(await vigil.check()).to.equal(1);
      expect(listener.accepted()).to.equal(1);
      expect(await latest(m.id)).to.include({ is_up: true, status_code: null, error: null, check_status: 'ok' });
      expect(await read(m.id)).to.include({ status: 'UP', consecutive_failures: 0 });
    });

    it('retries a closed port, then goes DOWN at failure_tolerance with an incident that says the connection was refused', async () => {
      const port = await closedPort();
      const m = await monitor({ type: 'UPTIME_TCP', tcp_host: '127.0.0.1', tcp_port: port, failure_tolerance: 2 });
      await vigil.check();
      expect(await latest(m.id)).to.include({ is_up: false, error: `connection refused by 127.0.0.1:${port}`, check_status: 'ok' });
      expect(await read(m.id)).to.include({ status: 'UP', consecutive_failures: 1 });
      expect(await incidents(m.id)).to.have.length(0);
      nextMinute();
      await vigil.check();
      expect(await read(m.id)).to.include({ status: 'DOWN', consecutive_failures: 2 });
      const [failed] = await incidents(m.id);
      expect(failed).to.include({ event: 'FAILED', status: 'OPEN', cause: `2 consecutive failed checks; last: connection refused by 127.0.0.1:${port}` });
    });

    it('counts a retry that connects as a pass', async () => {
      const port = await closedPort();
      const m = await monitor({ type: 'UPTIME_TCP', tcp_host: '127.0.0.1', tcp_port: port });
      await vigil.check();
      expect(await read(m.id)).to.include({ status: 'DOWN' });
      const listener = await startListener();
      cleanups.push(listener.close);
      expect((await vigil.request('PATCH', `/v1/monitors/${m.id}`, { key, body: { tcp_port: listener.port } })).body.monitor).to.include({ tcp_port: listener.port, tcp_host: '127.0.0.1' });
      nextMinute();
      await vigil.check();
      expect(await read(m.id)).to.include({ status: 'UP' });
      expect((await incidents(m.id))[0]).to.deep.include({ status: 'RESOLVED', resolved_by: { kind: 'system', reason: 'CHECK_PASSED' } });
    });

    it('adds its checks up into response-time stats like HTTP checks', async () => {
      const listener = await startListener();
      cleanups.push(listener.close);
      const m = await monitor({ type: 'UPTIME_TCP', tcp_host: '127.0.0.1', tcp_port: listener.port });
      for (let i = 0; i < 3; i++) {
        await vigil.check();
        nextMinute();
      }
      const stats = await vigil.request('GET', `/v1/monitors/${m.id}/response-time-stats`, { key });
      expect(stats.body).to.include({ total_checks: 3, up_count: 3, uptime_percentage: 100 });
    });

    it('refuses the fields of other types, and a missing host or port, naming the field', async () => {
      expect((await create({ type: 'UPTIME_TCP', tcp_port: 80 })).body.error).to.equal('tcp_host is required for UPTIME_TCP monitors');
      expect((await create({ type: 'UPTIME_TCP', tcp_host: 'db.internal' })).body.error).to.equal('tcp_port is required for UPTIME_TCP monitors');
      const badPort = await create({ type: 'UPTIME_TCP', tcp_host: 'db.internal', tcp_port: 70_000 });
      expect(badPort.status).to.equal(400);
      expect(badPort.body.error).to.match(/^tcp_port /);
      expect((await create({ type: 'UPTIME_TCP', tcp_host: 'http://db.internal/', tcp_port: 5432 })).body.error).to.equal(
        'tcp_host must be a host name or an IP address, without a scheme, port or path',
      );
      expect((await create({ type: 'UPTIME_TCP', tcp_host: 'db', tcp_port: 5432, uptime_url: 'http://x.test' })).body.error).to.equal('uptime_url is only accepted on UPTIME_HTTP monitors');
      expect((await create({ type: 'UPTIME_HTTP', uptime_url: 'http://x.test', tcp_port: 5432 })).body.error).to.equal('tcp_port is only accepted on UPTIME_TCP monitors');
      expect((await create({ type: 'JOB_HEARTBEAT', dns_hostname: 'x.test' })).body.error).to.equal('dns_hostname is only accepted on UPTIME_DNS monitors');
    });

    it('takes no pings: Vigil checks it itself', async () => {
      const m = await monitor({ type: 'UPTIME_TCP', tcp_host: '127.0.0.1', tcp_port: 9 });
      const ping = await vigil.request('POST', `/v1/ping/${m.id}`);
      expect(ping.status).to.equal(400);
      expect(ping.body.error).to.match(/is UPTIME_TCP: Vigil checks it itself/);
    });
  });

  describe('UPTIME_DNS', () => {
    beforeEach(() => startVigil());

    it('is UP when any expected A value is among the answers, asking VIGIL_DNS_SERVERS', async () => {
      const m = await monitor({ type: 'UPTIME_DNS', dns_hostname: 'app.example.test', dns_expected: ['192.0.2.11', '192.0.2.99'] });
      expect(m).to.include({ dns_hostname: 'app.example.test', dns_record_type: 'A', dns_match: 'any', dns_resolver: null, dns_timeout_ms: 5000 });
      await vigil.check();
      expect(dns.asked).to.deep.equal(['A app.example.test']);
      expect(await latest(m.id)).to.include({ is_up: true, error: null });
    });

    it('with match all, fails when one expected value is missing, and opens an incident at failure_tolerance', async () => {
      const m = await monitor({ type: 'UPTIME_DNS', dns_hostname: 'app.example.test', dns_expected: ['192.0.2.11', '192.0.2.99'], dns_match: 'all' });
      await vigil.check();
      expect(dns.asked).to.have.length(2);
      expect(await read(m.id)).to.include({ status: 'DOWN' });
      const [failed] = await incidents(m.id);
      expect(failed).to.include({
        event: 'FAILED', status: 'OPEN', cause: '1 failed check; last: A record of app.example.test is 192.0.2.10, 192.0.2.11; expected all of 192.0.2.11, 192.0.2.99',
      });
      dns.zone['app.example.test']!.A = ['192.0.2.99', '192.0.2.11'];
      nextMinute();
      await vigil.check();
      expect(await read(m.id)).to.include({ status: 'UP' });
    });

    it('compares TXT, MX, CNAME and AAAA answers as written', async () => {
      const checks = [
        { dns_record_type: 'TXT', dns_hostname: 'app.example.test', dns_expected: ['site-verification=abc'] },
        { dns_record_type: 'MX', dns_hostname: 'app.example.test', dns_expected: ['MAIL.example.test.'] },
        { dns_record_type: 'CNAME', dns_hostname: 'www.example.test', dns_expected: ['app.example.test'] },
        { dns_record_type: 'AAAA', dns_hostname: 'app.example.test', dns_expected: ['2001:0db8:0:0:0:0:0:0010'] },
        { dns_record_type: 'TXT', dns_hostname: 'app.example.test', dns_expected: ['site-verification'] },
      ];
      const ids = [];
      for (const check of checks) ids.push((await monitor({ type: 'UPTIME_DNS', ...check })).id);
      await vigil.check();
      const results = await Promise.all(ids.map(latest));
      expect(results.map((r) => r.is_up)).to.deep.equal([true, true, true, true, false]);
      expect(results[4].error).to.equal('TXT record of app.example.test is v=spf1 -all, site-verification=abc; expected site-verification');
    });

    it('says when the name does not exist or lacks the record', async () => {
      const missing = await monitor({ type: 'UPTIME_DNS', dns_hostname: 'gone.example.test' });
      const noAaaa = await monitor({ type: 'UPTIME_DNS', dns_hostname: 'www.example.test', dns_record_type: 'MX' });
      await vigil.check();
      expect((await latest(missing.id)).error).to.equal('gone.example.test does not exist (NXDOMAIN)');
      expect((await latest(noAaaa.id)).error).to.equal('no MX record of www.example.test');
    });

    it('asks its own dns_resolver when it has one', async () => {
      const other = await startDnsServer({ 'app.example.test': { A: ['198.51.100.7'] } });
      cleanups.push(other.close);
      const m = await monitor({ type: 'UPTIME_DNS', dns_hostname: 'app.example.test', dns_expected: ['198.51.100.7'], dns_resolver: other.address });
      await vigil.check();
      expect(other.asked).to.deep.equal(['A app.example.test']);
      expect(dns.asked).to.deep.equal([]);
      expect(await latest(m.id)).to.include({ is_up: true });
    });

    it('refuses bad settings with a 400 naming the field', async () => {
      const cases: [Record<string, unknown>, RegExp][] = [
        [{}, /^dns_hostname is required for UPTIME_DNS monitors$/],
        [{ dns_hostname: 'a b' }, /^dns_hostname must be a host name/],
        [{ dns_hostname: 'x.test', dns_record_type: 'SRV' }, /^dns_record_type must be one of A, AAAA, CNAME, MX, TXT/],
        [{ dns_hostname: 'x.test', dns_match: 'some' }, /^dns_match must be one of any, all/],
        [{ dns_hostname: 'x.test', dns_expected: 'x' }, /^dns_expected /],
        [{ dns_hostname: 'x.test', dns_resolver: 'dns.google' }, /^dns_resolver must be an IP address/],
      ];
      for (const [body, error] of cases) {
        const response = await create({ type: 'UPTIME_DNS', ...body });
        expect(response.status, JSON.stringify(body)).to.equal(400);
        expect(response.body.error).to.match(error);
      }
    });
  });

  describe('JSON queries on UPTIME_HTTP', () => {
    let target: Target;
    let body = '';
    beforeEach(async () => {
      await startVigil();
      target = await startTarget((request, response) => reply(200, body, { 'Content-Type': 'application/json' })(request, response));
      cleanups.push(target.close);
    });

    it('is UP while the query result equals the expected value, and DOWN with the value it found', async () => {
      body = JSON.stringify({ status: 'ok', checks: [{ name: 'db', ok: true }, { name: 'cache', ok: false }] });
      const m = await monitor({ type: 'UPTIME_HTTP', uptime_url: target.url, uptime_json_query: "checks[?name=='db'].ok | [0]", uptime_json_expected: 'true' });
      expect(m).to.include({ uptime_json_query: "checks[?name=='db'].ok | [0]", uptime_json_operator: 'equals', uptime_json_expected: 'true' });
      await vigil.check();
      expect(await read(m.id)).to.include({ status: 'UP' });
      body = JSON.stringify({ status: 'ok', checks: [{ name: 'db', ok: false }] });
      nextMinute();
      await vigil.check();
      expect(target.seen).to.have.length(3);
      expect(await read(m.id)).to.include({ status: 'DOWN' });
      expect((await incidents(m.id))[0].cause).to.equal(`1 failed check; last: JSON query checks[?name=='db'].ok | [0] returned "false", expected "true"`);
    });

    it('applies the operator: exists, contains, greater_than', async () => {
      body = JSON.stringify({ version: '2.4.1', regions: ['eu', 'us'], queue: { depth: 12 } });
      const cases: [Record<string, unknown>, boolean, string | null][] = [
        [{ uptime_json_query: 'version', uptime_json_operator: 'exists' }, true, null],
        [{ uptime_json_query: 'build', uptime_json_operator: 'exists' }, false, 'JSON query build found nothing'],
        [{ uptime_json_query: 'regions', uptime_json_operator: 'contains', uptime_json_expected: 'eu' }, true, null],
        [{ uptime_json_query: 'queue.depth', uptime_json_operator: 'less_than', uptime_json_expected: '100' }, true, null],
        [{ uptime_json_query: 'queue.depth', uptime_json_operator: 'greater_than', uptime_json_expected: '100' }, false, 'JSON query queue.depth returned "12", expected more than "100"'],
      ];
      const ids = [];
      for (const [fields] of cases) ids.push((await monitor({ type: 'UPTIME_HTTP', uptime_url: target.url, ...fields })).id);
      await vigil.check();
      const results = await Promise.all(ids.map(latest));
      expect(results.map((r) => [r.is_up, r.error])).to.deep.equal(cases.map(([, up, error]) => [up, error]));
    });

    it('is DOWN when the body is not JSON', async () => {
      body = '<html>maintenance</html>';
      const m = await monitor({ type: 'UPTIME_HTTP', uptime_url: target.url, uptime_json_query: 'status', uptime_json_expected: 'ok' });
      await vigil.check();
      expect(await latest(m.id)).to.include({ is_up: false, status_code: 200, error: 'the response is not JSON' });
    });

    it('refuses a query that does not parse, and a comparison without an expected value, naming the field', async () => {
      const bad = await create({ type: 'UPTIME_HTTP', uptime_url: target.url, uptime_json_query: 'checks[?name==' });
      expect(bad.status).to.equal(400);
      expect(bad.body.error).to.match(/^uptime_json_query is not a valid JMESPath expression: /);
      const noExpected = await create({ type: 'UPTIME_HTTP', uptime_url: target.url, uptime_json_query: 'status' });
      expect(noExpected.status).to.equal(400);
      expect(noExpected.body.error).to.equal('uptime_json_expected is required when uptime_json_operator is equals');
      expect((await create({ type: 'UPTIME_HTTP', uptime_url: target.url, uptime_json_query: 'status', uptime_json_operator: 'matches' })).body.error).to.match(/^uptime_json_operator must be one of equals/);
      expect((await create({ type: 'UPTIME_TCP', tcp_host: 'x.test', tcp_port: 1, uptime_json_query: 'status' })).body.error).to.equal('uptime_json_query is only accepted on UPTIME_HTTP monitors');
    });
  });

  describe('in the console', () => {
    beforeEach(() => startVigil());

    async function page(path: string): Promise<string> {
      const signIn = await postKeySignIn(vigil.url, { api_key: key });
      const cookie = `vigil_session=${/vigil_session=([^;]+)/.exec(signIn.headers.get('set-cookie') ?? '')?.[1] ?? ''}`;
      const response = await fetch(`${vigil.url}${path}`, { headers: { Cookie: cookie } });
      expect(response.status).to.equal(200);
      return response.text();
    }

    it('describes each new check in words on its monitor page, escaping what the user wrote', async () => {
      const tcp = await monitor({ type: 'UPTIME_TCP', tcp_host: 'db.example.test', tcp_port: 5432 });
      const dnsMonitor = await monitor({ type: 'UPTIME_DNS', dns_hostname: 'app.example.test', dns_record_type: 'TXT', dns_expected: ['<b>v=1</b>', 'x'], dns_match: 'all' });
      const json = await monitor({ type: 'UPTIME_HTTP', uptime_url: 'http://127.0.0.1:9/health', uptime_json_query: 'status', uptime_json_expected: 'ok' });
      const tcpPage = await page(`/monitors/${tcp.id}`);
      expect(tcpPage).to.include('<dd>TCP port</dd>').and.include('TCP connection to db.example.test port 5432 every').and.include('<code>db.example.test:5432</code>');
      const dnsPage = await page(`/monitors/${dnsMonitor.id}`);
      expect(dnsPage).to.include('<dd>DNS record</dd>').and.include('TXT record of app.example.test every').and.include('expecting all of &lt;b&gt;v=1&lt;/b&gt;, x');
      expect(dnsPage).to.not.include('<b>v=1</b>');
      expect(await page(`/monitors/${json.id}`)).to.include('expecting any 2xx, and JSON status equal to &quot;ok&quot;');
    });
  });

  describe('under VIGIL_PRIVATE_TARGETS=deny', () => {
    beforeEach(() => startVigil({ VIGIL_PRIVATE_TARGETS: 'deny' }));

    it('refuses a TCP check of a loopback address as a probe error, without connecting, as for HTTP', async () => {
      const listener = await startListener();
      cleanups.push(listener.close);
      const tcp = await monitor({ type: 'UPTIME_TCP', tcp_host: '127.0.0.1', tcp_port: listener.port });
      const named = await monitor({ type: 'UPTIME_TCP', tcp_host: 'localhost', tcp_port: listener.port });
      const http = await monitor({ type: 'UPTIME_HTTP', uptime_url: `http://127.0.0.1:${listener.port}/` });
      await vigil.check();
      expect(listener.accepted()).to.equal(0);
      expect(await latest(tcp.id)).to.include({ is_up: false, check_status: 'probe_error', error: 'refused to check a private address (127.0.0.1)' });
      expect(await latest(named.id)).to.include({ check_status: 'probe_error', error: 'refused to check a private address (localhost)' });
      expect(await latest(http.id)).to.include({ check_status: 'probe_error', error: 'refused to check a private address (127.0.0.1)' });
      for (const id of [tcp.id, named.id]) expect(await read(id)).to.include({ status: 'UP', consecutive_failures: 0 });
    });

    it('refuses a DNS check whose own resolver is private, asks the operator-set VIGIL_DNS_SERVERS, and shows no private answers', async () => {
      const own = await monitor({ type: 'UPTIME_DNS', dns_hostname: 'app.example.test', dns_resolver: dns.address });
      const deployment = await monitor({ type: 'UPTIME_DNS', dns_hostname: 'app.example.test', dns_expected: ['192.0.2.10'] });
      const mismatch = await monitor({ type: 'UPTIME_DNS', dns_hostname: 'app.example.test', dns_expected: ['203.0.113.1'] });
      await vigil.check();
      expect(dns.asked).to.deep.equal(['A app.example.test', 'A app.example.test', 'A app.example.test']);
      expect(await latest(own.id)).to.include({ check_status: 'probe_error', error: 'refused to check a private address (127.0.0.1)' });
      expect(await latest(deployment.id)).to.include({ is_up: true, check_status: 'ok' });
      // Not a map of the operator's private network: the answers it may not reach are not shown.
      expect((await latest(mismatch.id)).error).to.equal('A record of app.example.test is a private address, a private address; expected 203.0.113.1');
    });
  });
});
