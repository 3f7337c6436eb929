import { expect } from 'chai';
import type { ServerResponse } from 'node:http';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { registerUser } from '../../src/app/identity.js';
import { loadConfig, type RoleName } from '../../src/main/config.js';
import { type RunningVigil, startVigil } from '../../src/main/vigil.js';
import type { ReadinessReport } from '../../src/metrics/readiness.js';
import { selfPingCounter } from '../../src/metrics/self-ping-metrics.js';
import { guardFor } from '../../src/outbound/guard.js';
import { SelfPinger } from '../../src/self-ping/self-pinger.js';
import { capturedLog } from '../support/captured-log.js';
import { startCountingTarget } from '../support/counting-target.js';
import { eventually } from '../support/eventually.js';
import { type Target, reply, startTarget } from '../support/http-targets.js';
import { parsePrometheusText } from '../support/prometheus-text.js';
import { makeTempDir } from '../support/temp-dir.js';
import { TestClock, TestVigil } from '../support/test-vigil.js';

const TOKEN = '5c2a9e4e-0d7e-4c55-9b1a-6f0a3d1e2b7c';
const MINUTE = 60_000;

describe('SelfPinger', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function target(handler = reply(200, 'OK')): Promise<Target> {
    const started = await startTarget(handler);
    cleanups.push(() => started.close());
    return started;
  }

  async function vigilPinging(url: string, env: NodeJS.ProcessEnv = {}, logger = pino({ level: 'silent' })): Promise<TestVigil> {
    const vigil = await TestVigil.start({ env: { VIGIL_SELF_PING_URL: url, ...env }, logger });
    cleanups.push(() => vigil.stop());
    return vigil;
  }

  /** A Vigil of these roles alone, in a data dir it may share with another (as separate processes share one file). */
  async function vigilOfRoles(roles: RoleName[], dataDir: string, clock: TestClock, env: NodeJS.ProcessEnv = {}): Promise<RunningVigil> {
    const config = loadConfig({ VIGIL_DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', VIGIL_LOG_LEVEL: 'silent', VIGIL_PRIVATE_TARGETS: 'allow', ...env });
    const vigil = await startVigil(config, { roles, manualTimer: true, processMetrics: false, clock: clock.now, logger: pino({ level: 'silent' }) });
    cleanups.push(() => vigil.stop());
    return vigil;
  }

  async function scrape(url: string) {
    const response = await fetch(`${url}/metrics`);
    expect(response.status).to.equal(200);
    return parsePrometheusText(await response.text());
  }

  describe('while Vigil is ready', () => {
    it('sends a GET to the URL at once, then once every interval by the clock, never sooner and without a burst after a stall', async () => {
      const receiver = await target();
      const vigil = await vigilPinging(`${receiver.url}/ping/${TOKEN}`);
      const pinger = vigil.vigil.selfPing!;

      expect(await pinger.tick()).to.equal('ok');
      expect(receiver.seen).to.have.length(1);
      expect(receiver.seen[0]).to.deep.include({ method: 'GET', url: `/ping/${TOKEN}` });
      expect(receiver.seen[0]!.headers['user-agent']).to.equal('Vigil-SelfPing/0.1');

      expect(await pinger.tick()).to.equal(null);
      vigil.clock.advance(MINUTE - 1);
      expect(await pinger.tick()).to.equal(null);
      expect(receiver.seen).to.have.length(1);
      vigil.clock.advance(1);
      expect(await pinger.tick()).to.equal('ok');
      expect(receiver.seen).to.have.length(2);

      vigil.clock.advance(10 * MINUTE);
      expect(await pinger.tick()).to.equal('ok');
      expect(await pinger.tick(), 'ten missed intervals are not made up').to.equal(null);
      vigil.clock.advance(MINUTE);
      expect(await pinger.tick()).to.equal('ok');
      expect(receiver.seen).to.have.length(4);

      const metrics = await scrape(vigil.url);
      expect(metrics.types.get('vigil_self_ping_total')).to.equal('counter');
      expect(metrics.value('vigil_self_ping_total', { outcome: 'ok' })).to.equal(4);
      for (const outcome of ['failed', 'refused', 'skipped_unhealthy']) expect(metrics.value('vigil_self_ping_total', { outcome })).to.equal(0);
    });

    it('takes the interval from VIGIL_SELF_PING_INTERVAL_SECONDS', async () => {
      const receiver = await target();
      const vigil = await vigilPinging(`${receiver.url}/ping`, { VIGIL_SELF_PING_INTERVAL_SECONDS: '15' });
      expect(await vigil.vigil.selfPing!.tick()).to.equal('ok');
      vigil.clock.advance(14_999);
      expect(await vigil.vigil.selfPing!.tick()).to.equal(null);
      vigil.clock.advance(1);
      expect(await vigil.vigil.selfPing!.tick()).to.equal('ok');
      expect(receiver.seen).to.have.length(2);
    });

    it('follows a redirect to where the check moved', async () => {
      const receiver = await target((request, response) =>
        request.url === '/moved' ? response.writeHead(302, { Location: '/ping/here' }).end() : response.writeHead(200).end('OK'));
      const vigil = await vigilPinging(`${receiver.url}/moved`);
      expect(await vigil.vigil.selfPing!.tick()).to.equal('ok');
      expect(receiver.seen.map((request) => request.url)).to.deep.equal(['/moved', '/ping/here']);
    });

    it('never overlaps itself: while one heartbeat waits for its answer, a due tick sends nothing', async () => {
      const held: ServerResponse[] = [];
      const receiver = await target((_request, response) => (held.length === 0 ? held.push(response) : response.end('OK')));
      const vigil = await vigilPinging(`${receiver.url}/ping`);
      const pinger = vigil.vigil.selfPing!;

      const first = pinger.tick();
      await eventually(() => expect(held).to.have.length(1));
      vigil.clock.advance(5 * MINUTE);
      expect(await pinger.tick()).to.equal(null);
      expect(receiver.seen).to.have.length(1);

      held[0]!.end('OK');
      expect(await first).to.equal('ok');
      expect(await pinger.tick()).to.equal('ok');
      expect(receiver.seen).to.have.length(2);
    });

    it('runs in the api role only, and /metrics has no vigil_self_ping_total where it does not run', async () => {
      const receiver = await target();
      const clock = new TestClock();
      const dir = makeTempDir('vigil-self-ping');
      cleanups.push(dir.remove);
      const timer = await vigilOfRoles(['timer'], dir.path, clock, { VIGIL_SELF_PING_URL: `${receiver.url}/ping` });
      expect(timer.selfPing).to.equal(null);
      expect(timer.metrics.registry.getSingleMetric('vigil_self_ping_total')).to.equal(undefined);

      const unset = await vigilOfRoles(['api'], dir.path, clock);
      expect(unset.selfPing).to.equal(null);
      expect((await scrape(unset.url!)).find('vigil_self_ping_total')).to.deep.equal([]);
    });
  });

  describe('while Vigil is not ready', () => {
    it('sends nothing and counts each attempt skipped, logging once that it holds back, then pings again once ready', async () => {
      const receiver = await target();
      const clock = new TestClock();
      const dir = makeTempDir('vigil-self-ping');
      cleanups.push(dir.remove);
      const log = capturedLog('info');
      const config = loadConfig({
        VIGIL_DATA_DIR: dir.path, HOST: '127.0.0.1', PORT: '0', VIGIL_PRIVATE_TARGETS: 'allow', VIGIL_READY_MAX_LAG_EVENTS: '0', VIGIL_SELF_PING_URL: `${receiver.url}/ping/${TOKEN}`,
      });
      const api = await startVigil(config, { roles: ['api'], manualTimer: true, processMetrics: false, clock: clock.now, logger: log.logger });
      cleanups.push(() => api.stop());
      // No projector runs yet: the user stays unprojected, and the read models lag past the bound.
      await registerUser(api.commands, { email: 'ada@example.com', first_name: 'Ada', last_name: 'Test' }, { kind: 'system', user_id: null, api_key_id: null, request_id: null });
      expect((await fetch(`${api.url}/readyz`)).status).to.equal(503);

      expect(await api.selfPing!.tick()).to.equal('skipped_unhealthy');
      clock.advance(MINUTE);
      expect(await api.selfPing!.tick()).to.equal('skipped_unhealthy');
      expect(receiver.seen).to.deep.equal([]);
      const heldBack = log.lines.filter((line) => line['msg'] === 'self-ping held back while this process is not ready');
      expect(heldBack).to.have.length(1);
      expect(heldBack[0]).to.deep.include({ failed: ['projector'], host: new URL(receiver.url).host });

      const projector = await vigilOfRoles(['projector'], dir.path, clock);
      await projector.projector!.waitForPosition(await projector.stores.events.headPosition(), 5000);
      expect((await fetch(`${api.url}/readyz`)).status).to.equal(200);
      clock.advance(MINUTE);
      expect(await api.selfPing!.tick()).to.equal('ok');
      expect(receiver.seen).to.have.length(1);
      expect(log.lines.map((line) => line['msg'])).to.include('self-ping resumed: this process is ready again');

      const metrics = await scrape(api.url!);
      expect(metrics.value('vigil_self_ping_total', { outcome: 'skipped_unhealthy' })).to.equal(2);
      expect(metrics.value('vigil_self_ping_total', { outcome: 'ok' })).to.equal(1);
    });
  });

  describe('when the receiver fails', () => {
    it('counts an error status, no answer in time and a refused connection as failed, logs each by host alone, and goes on', async () => {
      let answer: 'error' | 'silence' = 'error';
      const receiver = await target((_request, response) => {
        if (answer === 'error') response.writeHead(500).end('down');
      });
      const host = new URL(receiver.url).host;
      const log = capturedLog('warn');
      const vigil = await vigilPinging(`${receiver.url}/ping/${TOKEN}`, { VIGIL_SELF_PING_TIMEOUT_MS: '200' }, log.logger);
      const pinger = vigil.vigil.selfPing!;

      expect(await pinger.tick()).to.equal('failed');
      answer = 'silence';
      vigil.clock.advance(MINUTE);
      expect(await pinger.tick()).to.equal('failed');
      await receiver.close();
      vigil.clock.advance(MINUTE);
      expect(await pinger.tick()).to.equal('failed');

      const failures = log.lines.filter((line) => line['msg'] === 'self-ping failed');
      expect(failures.map((line) => line['reason'])).to.deep.equal([
        `${host} answered HTTP 500`,
        `no answer from ${host} within 200 ms`,
        `could not reach ${host} (ECONNREFUSED)`,
      ]);
      expect(JSON.stringify(log.lines)).not.to.include(TOKEN);

      const metrics = await scrape(vigil.url);
      expect(metrics.value('vigil_self_ping_total', { outcome: 'failed' })).to.equal(3);
      expect(metrics.value('vigil_self_ping_total', { outcome: 'ok' })).to.equal(0);
      expect((await fetch(`${vigil.url}/readyz`)).status).to.equal(200);
      vigil.clock.advance(MINUTE);
      expect(await pinger.tick(), 'the next heartbeat is still attempted').to.equal('failed');
    });
  });

  describe('with a URL the outbound policy refuses', () => {
    it('counts a name that resolves to a private address as refused and logs it as an error, connecting to nothing', async () => {
      const receiver = await startCountingTarget(reply(200, 'OK'));
      cleanups.push(() => receiver.close());
      const registry = new Registry();
      const log = capturedLog('warn');
      const clock = new TestClock();
      const ready: ReadinessReport = {
        ready: true,
        checks: { event_store: { ok: true }, read_store: { ok: true }, projector: { ok: true } },
      };
      const pinger = new SelfPinger(
        { url: `http://heartbeat.example:${receiver.port}/ping/${TOKEN}`, intervalMs: MINUTE, timeoutMs: 1000 },
        {
          // The name resolves to 127.0.0.1, as a DNS answer might: only the connection can find it out.
          outbound: guardFor('checks', 'delivery', { resolve: async () => [{ address: '127.0.0.1', family: 4 }] }),
          readiness: async () => ready,
          clock: clock.now,
          logger: log.logger,
          counter: selfPingCounter(registry),
        },
      );
      cleanups.push(() => pinger.stop());

      expect(await pinger.tick()).to.equal('refused');
      expect(receiver.accepted()).to.equal(0);
      const refusals = log.lines.filter((line) => line['level'] === 50);
      expect(refusals).to.have.length(1);
      expect(refusals[0]).to.deep.include({
        msg: 'self-ping refused by the outbound policy; set VIGIL_PRIVATE_TARGETS=allow or another URL',
        host: `heartbeat.example:${receiver.port}`,
        reason: 'refused to deliver to a private address (127.0.0.1)',
      });
      const metrics = parsePrometheusText(await registry.metrics());
      expect(metrics.value('vigil_self_ping_total', { outcome: 'refused' })).to.equal(1);
    });
  });

  describe('on shutdown', () => {
    it('stops at once, cutting off a heartbeat still waiting for its answer, which is not counted', async () => {
      const receiver = await target(() => undefined);
      const vigil = await TestVigil.start({ env: { VIGIL_SELF_PING_URL: `${receiver.url}/ping`, VIGIL_SELF_PING_TIMEOUT_MS: '120000' } });
      const pinger = vigil.vigil.selfPing!;
      const attempt = pinger.tick();
      await eventually(() => expect(receiver.seen).to.have.length(1));

      const started = Date.now();
      await vigil.stop();
      expect(Date.now() - started).to.be.below(2000);
      expect(await attempt).to.equal(null);
      const metrics = parsePrometheusText(await vigil.vigil.metrics.registry.metrics());
      for (const outcome of ['ok', 'failed', 'refused', 'skipped_unhealthy']) expect(metrics.value('vigil_self_ping_total', { outcome })).to.equal(0);
      expect(await pinger.tick(), 'nothing is sent once stopped').to.equal(null);
      expect(receiver.seen).to.have.length(1);
    });

    it('runs on its own outside the tests: the first heartbeat goes out at start, and stop ends the loop', async () => {
      const receiver = await target();
      const clock = new TestClock();
      const dir = makeTempDir('vigil-self-ping');
      cleanups.push(dir.remove);
      const config = loadConfig({ VIGIL_DATA_DIR: dir.path, HOST: '127.0.0.1', PORT: '0', VIGIL_LOG_LEVEL: 'silent', VIGIL_PRIVATE_TARGETS: 'allow', VIGIL_SELF_PING_URL: `${receiver.url}/ping` });
      const vigil = await startVigil(config, { roles: ['api', 'projector'], processMetrics: false, clock: clock.now, logger: pino({ level: 'silent' }) });
      cleanups.push(() => vigil.stop());
      await eventually(() => expect(receiver.seen).to.have.length(1));
      await vigil.stop();
      clock.advance(MINUTE);
      expect(await vigil.selfPing!.tick()).to.equal(null);
      expect(receiver.seen).to.have.length(1);
    });
  });
});
