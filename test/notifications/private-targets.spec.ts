import { expect } from 'chai';
import { type CountingTarget, startCountingTarget } from '../support/counting-target.js';
import { reply } from '../support/http-targets.js';
import { ALL_SCOPES, TestClock, TestVigil } from '../support/test-vigil.js';
import { LOOPBACK_FORMS } from '../outbound/loopback-forms.js';
import { URL_CHANNELS } from './url-channels.js';

const HOUR = 3_600_000;

describe('VIGIL_PRIVATE_TARGETS', function () {
  this.timeout(120_000);
  let target: CountingTarget;
  const vigils: TestVigil[] = [];
  beforeEach(async () => {
    target = await startCountingTarget(reply(200, 'ok'));
  });
  afterEach(async () => {
    for (const vigil of vigils.splice(0)) await vigil.stop();
    await target.close();
  });

  async function start(policy: string, clock = new TestClock(Date.now())) {
    const vigil = await TestVigil.start({ clock, env: { VIGIL_PRIVATE_TARGETS: policy, VIGIL_CHECK_RETRIES: '0' } });
    vigils.push(vigil);
    const key = await vigil.accountKey(await vigil.user('owner@example.com'), ALL_SCOPES);
    const projectId: string = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Targets' } })).body.project.id;
    return { vigil, key, projectId };
  }

  describe('channel URLs', () => {
    for (const policy of ['checks', 'deny']) {
      it(`refuses a channel whose URL names a private address in any spelling, for every URL-taking type, under ${policy}`, async () => {
        const { vigil, key, projectId } = await start(policy);
        for (const channel of URL_CHANNELS) {
          for (const { host, refused } of LOOPBACK_FORMS) {
            const created = await vigil.request('POST', '/v1/notification-channels', {
              key, body: { project_id: projectId, name: `${channel.type} ${host}`, type: channel.type, config: channel.config(`http://${host}:${target.port}`) },
            });
            expect(created.status, `${channel.type} ${host}`).to.equal(400);
            expect(created.body.error).to.equal(`config.${channel.field} must not point at a private address (${refused}): this server does not deliver to private addresses`);
          }
        }
        expect((await vigil.request('GET', `/v1/notification-channels?project_id=${projectId}`, { key })).body).to.deep.equal([]);
      });
    }

    it('refuses a private URL on PATCH too, keeping the channel as it was; a name is accepted and judged at delivery', async () => {
      const { vigil, key, projectId } = await start('checks');
      const created = await vigil.request('POST', '/v1/notification-channels', { key, body: { project_id: projectId, name: 'hook', type: 'WEBHOOK', config: { url: 'https://hooks.example.test/x' } } });
      expect(created.status, created.text).to.equal(201);
      const id = created.body.channel.id;
      const patched = await vigil.request('PATCH', `/v1/notification-channels/${id}`, { key, body: { config: { url: `http://0x7f000001:${target.port}/x` } } });
      expect(patched.status).to.equal(400);
      expect(patched.body.error).to.equal('config.url must not point at a private address (127.0.0.1): this server does not deliver to private addresses');
      expect((await vigil.request('GET', `/v1/notification-channels/${id}`, { key })).body.channel.updated_at).to.equal(created.body.channel.updated_at);
    });

    it('accepts a private URL under allow', async () => {
      const { vigil, key, projectId } = await start('allow');
      const created = await vigil.request('POST', '/v1/notification-channels', { key, body: { project_id: projectId, name: 'hook', type: 'WEBHOOK', config: { url: `http://127.1:${target.port}/x` } } });
      expect(created.status, created.text).to.equal(201);
    });
  });

  describe('deliveries', () => {
    it('under checks, sends nothing to channels made earlier for private addresses (any spelling, every URL-taking type): no connection, the refusal in last_error, no retry, a 400 for a test message', async () => {
      const clock = new TestClock(Date.now());
      const before = await start('allow', clock);
      const channels: { id: string; type: string; host: string; refused: string }[] = [];
      for (const channel of URL_CHANNELS) {
        for (const { host, refused } of LOOPBACK_FORMS) {
          const created = await before.vigil.request('POST', '/v1/notification-channels', {
            key: before.key,
            body: { project_id: before.projectId, name: `${channel.type} ${host}`, type: channel.type, is_default: true, config: channel.config(`http://${host}:${target.port}`) },
          });
          expect(created.status, created.text).to.equal(201);
          channels.push({ id: created.body.channel.id, type: channel.type, host, refused });
        }
      }
      await before.vigil.stopKeepingData();
      vigils.splice(vigils.indexOf(before.vigil), 1);
      // The same data, restarted under the policy an upgrade brings by default.
      const vigil = await TestVigil.reopen(before.vigil.dataDir, { VIGIL_PRIVATE_TARGETS: 'checks' }, before.vigil.clock);
      vigils.push(vigil);
      const { key, projectId } = before;

      const monitor = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Backup', type: 'JOB_BASIC', schedule: 'x' } })).body.monitor;
      await vigil.request('GET', `/v1/ping/${monitor.id}/fail`);
      await vigil.notify();

      expect(target.accepted(), 'connections the receiver accepted').to.equal(0);
      const listed = (await vigil.request('GET', `/v1/notification-channels?project_id=${projectId}`, { key })).body as { id: string; last_error: string | null }[];
      for (const channel of channels) {
        expect(listed.find((c) => c.id === channel.id)?.last_error, `${channel.type} ${channel.host}`).to.equal(`refused to deliver to a private address (${channel.refused})`);
      }
      const failures = (await vigil.vigil.stores.events.readAll()).filter((e) => e.type === 'PageDeliveryFailed');
      expect(failures).to.have.length(channels.length);
      expect(failures.every((e) => e.data['next_attempt_at'] === null), 'given up at once').to.equal(true);

      vigil.clock.advance(HOUR);
      await vigil.notify();
      expect((await vigil.vigil.stores.events.readAll()).filter((e) => e.type === 'PageDeliveryFailed')).to.have.length(channels.length);

      for (const channel of channels) {
        const tested = await vigil.request('POST', `/v1/notification-channels/${channel.id}/test`, { key });
        expect(tested.status, `${channel.type} ${channel.host}`).to.equal(400);
        expect(tested.body.error).to.match(/^config\.\w+ must not point at a private address \(.+\): this server does not deliver to private addresses$/);
      }
      expect(target.accepted(), 'connections the receiver accepted').to.equal(0);
    });

    it('reaches a receiver on loopback under allow', async () => {
      const { vigil, key, projectId } = await start('allow');
      const created = await vigil.request('POST', '/v1/notification-channels', { key, body: { project_id: projectId, name: 'hook', type: 'WEBHOOK', is_default: true, config: { url: `http://2130706433:${target.port}/hook` } } });
      const monitor = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Backup', type: 'JOB_BASIC', schedule: 'x' } })).body.monitor;
      await vigil.request('GET', `/v1/ping/${monitor.id}/fail`);
      await vigil.notify();
      expect(target.seen.map((r) => r.url)).to.deep.equal(['/hook']);
      expect((await vigil.request('GET', `/v1/notification-channels/${created.body.channel.id}`, { key })).body.channel.last_error).to.equal(null);
      const tested = await vigil.request('POST', `/v1/notification-channels/${created.body.channel.id}/test`, { key });
      expect(tested.body).to.include({ delivered: true });
    });
  });

  describe('checks and the check tools', () => {
    it('reach loopback under checks, the default', async () => {
      const { vigil, key, projectId } = await start('checks');
      const monitor = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Site', type: 'UPTIME_HTTP', schedule: '1m', uptime_url: `http://127.1:${target.port}/health` } })).body.monitor;
      await vigil.check();
      expect((await vigil.request('GET', `/v1/monitors/${monitor.id}/check-results/latest`, { key })).body).to.include({ is_up: true, check_status: 'ok' });
      const tool = await vigil.request('POST', '/v1/tools/check-http', { key, body: { url: `http://localhost:${target.port}/tool`, project_id: projectId } });
      expect(tool.body).to.include({ status: 'up', error: null });
      expect(target.seen.map((r) => r.url).sort()).to.deep.equal(['/health', '/tool']);
    });

    it('are refused under deny, without connecting: the uptime check as a probe error, check-http and check-ssl with the refusal', async () => {
      const { vigil, key, projectId } = await start('deny');
      const monitor = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Site', type: 'UPTIME_HTTP', schedule: '1m', uptime_url: `http://2130706433:${target.port}/health` } })).body.monitor;
      await vigil.check();
      expect((await vigil.request('GET', `/v1/monitors/${monitor.id}/check-results/latest`, { key })).body).to.include({ is_up: false, check_status: 'probe_error', error: 'refused to check a private address (127.0.0.1)' });
      for (const { host, refused } of LOOPBACK_FORMS) {
        const tool = await vigil.request('POST', '/v1/tools/check-http', { key, body: { url: `http://${host}:${target.port}/tool`, project_id: projectId } });
        expect(tool.body, host).to.include({ status: 'down', error: `refused to check a private address (${refused})` });
      }
      for (const hostname of ['127.0.0.1', 'localhost', '2130706433', '::ffff:7f00:1']) {
        const ssl = await vigil.request('POST', '/v1/tools/check-ssl', { key, body: { hostname, port: target.port, project_id: projectId } });
        expect(ssl.body, hostname).to.include({ valid: false });
        expect(ssl.body.error, hostname).to.match(/^refused to check a private address \((127\.0\.0\.1|localhost|::ffff:7f00:1)\)$/);
      }
      expect(target.accepted(), 'connections the target accepted').to.equal(0);
    });
  });
});
