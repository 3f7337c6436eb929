import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../src/main/config.js';
import { runCliCaptured } from '../support/cli-run.js';

const TOKEN = '5c2a9e4e-0d7e-4c55-9b1a-6f0a3d1e2b7c';

describe('loadConfig › VIGIL_SELF_PING_URL', () => {
  it('is off when unset, and every 60 s with a 10 s timeout when set', () => {
    expect(loadConfig({}).selfPing).to.equal(null);
    expect(loadConfig({ VIGIL_SELF_PING_URL: `https://hc-ping.com/${TOKEN}` }).selfPing).to.deep.equal({
      url: `https://hc-ping.com/${TOKEN}`, intervalMs: 60_000, timeoutMs: 10_000,
    });
  });

  it('takes VIGIL_SELF_PING_INTERVAL_SECONDS from 1 to 86400 and VIGIL_SELF_PING_TIMEOUT_MS from 100 to 120000', () => {
    const env = { VIGIL_SELF_PING_URL: 'https://hc-ping.com/x', VIGIL_SELF_PING_INTERVAL_SECONDS: '300', VIGIL_SELF_PING_TIMEOUT_MS: '2500' };
    expect(loadConfig(env).selfPing).to.include({ intervalMs: 300_000, timeoutMs: 2500 });
    expect(() => loadConfig({ ...env, VIGIL_SELF_PING_INTERVAL_SECONDS: '0' })).to.throw(ConfigError, 'VIGIL_SELF_PING_INTERVAL_SECONDS must be an integer from 1 to 86400, not 0');
    expect(() => loadConfig({ ...env, VIGIL_SELF_PING_TIMEOUT_MS: '50' })).to.throw(ConfigError, 'VIGIL_SELF_PING_TIMEOUT_MS must be an integer from 100 to 120000, not 50');
  });

  it('refuses anything but an http or https URL, without repeating the URL (it may hold a token)', () => {
    expect(() => loadConfig({ VIGIL_SELF_PING_URL: `hc-ping.com/${TOKEN}` })).to.throw(ConfigError, /^VIGIL_SELF_PING_URL must be an http or https URL$/);
    expect(() => loadConfig({ VIGIL_SELF_PING_URL: `ftp://hc-ping.com/${TOKEN}` })).to.throw(ConfigError, 'VIGIL_SELF_PING_URL must be an http or https URL, not ftp:');
  });

  it('refuses at start a URL the outbound guard refuses without DNS (a private address, a localhost name) unless VIGIL_PRIVATE_TARGETS=allow', () => {
    for (const url of [`http://127.0.0.1:8000/ping/${TOKEN}`, `http://10.1.2.3/ping/${TOKEN}`, `http://0x7f000001/${TOKEN}`, `http://status.localhost/${TOKEN}`]) {
      for (const policy of ['deny', 'checks']) {
        const attempt = () => loadConfig({ VIGIL_SELF_PING_URL: url, VIGIL_PRIVATE_TARGETS: policy });
        expect(attempt, `${url} under ${policy}`).to.throw(ConfigError, /^VIGIL_SELF_PING_URL: refused to deliver to a private address \(.+\); VIGIL_PRIVATE_TARGETS=allow lets it through$/);
        expect(attempt).to.throw(ConfigError).that.satisfies((error: Error) => !error.message.includes(TOKEN));
      }
      expect(loadConfig({ VIGIL_SELF_PING_URL: url, VIGIL_PRIVATE_TARGETS: 'allow' }).selfPing).to.include({ url });
    }
  });

  it('stops `vigil serve` before it opens anything, naming the variable', async () => {
    const run = await runCliCaptured(['serve', '--roles', 'api'], { VIGIL_SELF_PING_URL: `http://127.0.0.1:9/ping/${TOKEN}`, VIGIL_DATA_DIR: '/nonexistent/vigil-self-ping' });
    expect(run.code).to.equal(1);
    expect(run.stderr).to.equal('vigil: VIGIL_SELF_PING_URL: refused to deliver to a private address (127.0.0.1); VIGIL_PRIVATE_TARGETS=allow lets it through\n');
  });
});
