import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../src/main/config.js';

describe('Coordination settings', () => {
  it('default to a 10 s lease ttl and 16 partitions', () => {
    expect(loadConfig({}).coordination).to.deep.equal({ leaseTtlMs: 10_000, partitions: 16 });
  });

  it('read VIGIL_LEASE_TTL_MS and VIGIL_PARTITIONS, and refuse values that cannot work', () => {
    expect(loadConfig({ VIGIL_LEASE_TTL_MS: '3000', VIGIL_PARTITIONS: '64' }).coordination).to.deep.equal({ leaseTtlMs: 3000, partitions: 64 });
    expect(() => loadConfig({ VIGIL_LEASE_TTL_MS: '100' })).to.throw(ConfigError, 'VIGIL_LEASE_TTL_MS must be an integer from 300 to 600000, not 100');
    expect(() => loadConfig({ VIGIL_PARTITIONS: '0' })).to.throw(ConfigError, 'VIGIL_PARTITIONS must be an integer from 1 to 1024, not 0');
    expect(() => loadConfig({ VIGIL_PARTITIONS: '2000' })).to.throw(ConfigError, /VIGIL_PARTITIONS/);
  });
});
