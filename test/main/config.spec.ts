import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../src/main/config.js';
import { capturedLog } from '../support/captured-log.js';
import { TestVigil } from '../support/test-vigil.js';

describe('loadConfig › VIGIL_PRIVATE_TARGETS', () => {
  const policyOf = (env: NodeJS.ProcessEnv) => {
    const config = loadConfig(env);
    expect(config.notify.privateTargets, 'deliveries and checks obey one setting').to.equal(config.checks.privateTargets);
    return { policy: config.checks.privateTargets, deprecations: config.deprecations };
  };

  it('is checks by default: checks may reach private addresses, deliveries may not', () => {
    expect(policyOf({})).to.deep.equal({ policy: 'checks', deprecations: [] });
  });

  it('takes deny, checks and allow, and refuses anything else naming the variable', () => {
    for (const policy of ['deny', 'checks', 'allow']) expect(policyOf({ VIGIL_PRIVATE_TARGETS: policy }).policy).to.equal(policy);
    expect(() => loadConfig({ VIGIL_PRIVATE_TARGETS: 'true' })).to.throw(ConfigError, 'VIGIL_PRIVATE_TARGETS must match /^(deny|checks|allow)$/, not true');
  });

  it('still reads the deprecated VIGIL_CHECK_DENY_PRIVATE, true as deny and false as the default, saying what to set instead', () => {
    expect(policyOf({ VIGIL_CHECK_DENY_PRIVATE: 'true' })).to.deep.equal({
      policy: 'deny', deprecations: ['VIGIL_CHECK_DENY_PRIVATE is deprecated and will be removed: set VIGIL_PRIVATE_TARGETS=deny instead'],
    });
    expect(policyOf({ VIGIL_CHECK_DENY_PRIVATE: 'false' })).to.deep.equal({
      policy: 'checks', deprecations: ['VIGIL_CHECK_DENY_PRIVATE is deprecated and will be removed: set VIGIL_PRIVATE_TARGETS=checks instead'],
    });
  });

  it('lets VIGIL_PRIVATE_TARGETS win beside the old variable, but never gives less than deny to a deployment that said true', () => {
    expect(policyOf({ VIGIL_CHECK_DENY_PRIVATE: 'false', VIGIL_PRIVATE_TARGETS: 'allow' }).policy).to.equal('allow');
    expect(policyOf({ VIGIL_CHECK_DENY_PRIVATE: 'true', VIGIL_PRIVATE_TARGETS: 'deny' }).policy).to.equal('deny');
    expect(() => loadConfig({ VIGIL_CHECK_DENY_PRIVATE: 'true', VIGIL_PRIVATE_TARGETS: 'checks' })).to.throw(
      ConfigError,
      'VIGIL_CHECK_DENY_PRIVATE=true asks for VIGIL_PRIVATE_TARGETS=deny, not checks; remove VIGIL_CHECK_DENY_PRIVATE',
    );
    expect(() => loadConfig({ VIGIL_CHECK_DENY_PRIVATE: 'yes' })).to.throw(ConfigError, /VIGIL_CHECK_DENY_PRIVATE/);
  });

  it('is warned about at start when the deprecated variable is set', async () => {
    const log = capturedLog('warn');
    const vigil = await TestVigil.start({ env: { VIGIL_CHECK_DENY_PRIVATE: 'true', VIGIL_PRIVATE_TARGETS: '' }, logger: log.logger });
    await vigil.stop();
    expect(log.lines.map((line) => line['msg'])).to.include('VIGIL_CHECK_DENY_PRIVATE is deprecated and will be removed: set VIGIL_PRIVATE_TARGETS=deny instead');
  });
});

describe('loadConfig › VIGIL_TRUST_PROXY', () => {
  it('trusts no proxy by default, one hop for true, a hop count, or the proxies listed', () => {
    expect(loadConfig({}).trustProxy).to.deep.equal({ hops: 0 });
    expect(loadConfig({ VIGIL_TRUST_PROXY: 'false' }).trustProxy).to.deep.equal({ hops: 0 });
    expect(loadConfig({ VIGIL_TRUST_PROXY: 'true' }).trustProxy).to.deep.equal({ hops: 1 });
    expect(loadConfig({ VIGIL_TRUST_PROXY: '2' }).trustProxy).to.deep.equal({ hops: 2 });
    expect(loadConfig({ VIGIL_TRUST_PROXY: '10.0.0.0/8,uniquelocal' }).trustProxy).to.deep.equal({ ranges: ['10.0.0.0/8', 'uniquelocal'] });
  });

  it('refuses at start a setting it cannot read, naming the variable and the entry', () => {
    expect(() => loadConfig({ VIGIL_TRUST_PROXY: 'yes' })).to.throw(
      ConfigError,
      'VIGIL_TRUST_PROXY must be true, false, a hop count or a list of proxy addresses: yes is not an IP address, a CIDR range, loopback, linklocal or uniquelocal',
    );
    expect(() => loadConfig({ VIGIL_TRUST_PROXY: '10.0.0.1, proxy.internal' })).to.throw(ConfigError, /proxy\.internal is not an IP address/);
  });
});

describe('loadConfig › the lag /readyz allows', () => {
  it('is 1000 events and 60 seconds by default, and takes VIGIL_READY_MAX_LAG_SECONDS from 1 to 86400', () => {
    expect(loadConfig({})).to.include({ readyMaxLagEvents: null, readyMaxLagSeconds: 60 });
    expect(loadConfig({ VIGIL_READY_MAX_LAG_SECONDS: '5' }).readyMaxLagSeconds).to.equal(5);
    expect(() => loadConfig({ VIGIL_READY_MAX_LAG_SECONDS: '0' })).to.throw(ConfigError, 'VIGIL_READY_MAX_LAG_SECONDS must be an integer from 1 to 86400, not 0');
  });

  it('warns at start that VIGIL_READY_MAX_LAG_EVENTS is not applied with EventStoreDB, which bounds the lag in seconds only', () => {
    expect(loadConfig({ VIGIL_READY_MAX_LAG_EVENTS: '50' }).deprecations).to.deep.equal([]);
    expect(loadConfig({ VIGIL_READY_MAX_LAG_EVENTS: '50', VIGIL_EVENTSTORE_URL: 'esdb://127.0.0.1:2113?tls=false' }).deprecations).to.deep.equal([
      'VIGIL_READY_MAX_LAG_EVENTS is not applied with EventStoreDB, which cannot count the events the read models lack: /readyz bounds their lag by VIGIL_READY_MAX_LAG_SECONDS there',
    ]);
  });
});
