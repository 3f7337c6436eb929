import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../src/main/config.js';

describe('loadConfig › VIGIL_OIDC_*', () => {
  const complete = { VIGIL_OIDC_ISSUER: 'https://id.example.com/realms/ops', VIGIL_OIDC_CLIENT_ID: 'vigil', VIGIL_OIDC_CLIENT_SECRET: 's3cret', VIGIL_OIDC_NAME: 'Acme ID' };

  it('is off when no OIDC variable is set', () => {
    expect(loadConfig({}).oidc).to.equal(null);
  });

  it('reads the provider, the client and the button name, and keeps the issuer as written', () => {
    expect(loadConfig(complete).oidc).to.deep.equal({
      issuer: 'https://id.example.com/realms/ops', clientId: 'vigil', clientSecret: 's3cret', name: 'Acme ID', allowedDomains: null,
    });
  });

  it('names the button "SSO" when VIGIL_OIDC_NAME is unset', () => {
    const { VIGIL_OIDC_NAME: _name, ...rest } = complete;
    expect(loadConfig(rest).oidc?.name).to.equal('SSO');
  });

  it('refuses half a configuration, naming what is missing', () => {
    expect(() => loadConfig({ VIGIL_OIDC_ISSUER: complete.VIGIL_OIDC_ISSUER })).to.throw(ConfigError, 'VIGIL_OIDC_CLIENT_ID and VIGIL_OIDC_CLIENT_SECRET are not set');
    expect(() => loadConfig({ ...complete, VIGIL_OIDC_CLIENT_SECRET: '' })).to.throw(ConfigError, 'VIGIL_OIDC_CLIENT_SECRET is not set');
    expect(() => loadConfig({ VIGIL_OIDC_ALLOWED_DOMAINS: 'example.com' })).to.throw(ConfigError, /single sign-on needs VIGIL_OIDC_ISSUER/);
  });

  it('wants https, and takes http only on a loopback address', () => {
    expect(() => loadConfig({ ...complete, VIGIL_OIDC_ISSUER: 'http://id.example.com' })).to.throw(ConfigError, /VIGIL_OIDC_ISSUER must use https; http is accepted only on a loopback address/);
    expect(() => loadConfig({ ...complete, VIGIL_OIDC_ISSUER: 'http://10.0.0.5:8080' })).to.throw(ConfigError, /must use https/);
    expect(() => loadConfig({ ...complete, VIGIL_OIDC_ISSUER: 'http://127.0.0.1.example.com' })).to.throw(ConfigError, /must use https/);
    expect(() => loadConfig({ ...complete, VIGIL_OIDC_ISSUER: 'ftp://id.example.com' })).to.throw(ConfigError, /must be an https URL/);
    expect(() => loadConfig({ ...complete, VIGIL_OIDC_ISSUER: 'id.example.com' })).to.throw(ConfigError, /must be the provider's https URL/);
    for (const issuer of ['http://127.0.0.1:4000', 'http://localhost:4000/realms/test', 'http://[::1]:4000']) expect(loadConfig({ ...complete, VIGIL_OIDC_ISSUER: issuer }).oidc?.issuer).to.equal(issuer);
  });

  it('never puts the client secret in a refusal', () => {
    for (const env of [{ ...complete, VIGIL_OIDC_ISSUER: 'http://id.example.com' }, { ...complete, VIGIL_OIDC_CLIENT_ID: '' }]) {
      const refusal = (() => {
        try {
          loadConfig(env);
        } catch (error) {
          return String(error);
        }
        return 'accepted';
      })();
      expect(refusal).to.match(/^Error: /);
      expect(refusal).to.not.include('s3cret');
    }
  });

  it('reads the allowed email domains, lower-cased, and refuses what is not a domain', () => {
    expect(loadConfig({ ...complete, VIGIL_OIDC_ALLOWED_DOMAINS: 'Example.com, @example.org' }).oidc?.allowedDomains).to.deep.equal(['example.com', 'example.org']);
    expect(() => loadConfig({ ...complete, VIGIL_OIDC_ALLOWED_DOMAINS: 'example.com,,x' })).to.throw(ConfigError, /an empty entry is not one/);
    expect(() => loadConfig({ ...complete, VIGIL_OIDC_ALLOWED_DOMAINS: 'user@example.com' })).to.throw(ConfigError, /user@example.com is not one/);
  });
});
