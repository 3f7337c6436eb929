import { expect } from 'chai';
import { OidcClient, SsoFailure } from '../../src/sso/oidc-client.js';
import { OpenIdProvider } from '../support/openid-provider.js';

const VIGIL = 'http://127.0.0.1:9';
const REDIRECT = `${VIGIL}/sign-in/oidc/callback`;

async function failureOf(promise: Promise<unknown>): Promise<SsoFailure> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(SsoFailure);
    return error as SsoFailure;
  }
  throw new Error('expected the sign-in to fail');
}

describe('OidcClient against a real OpenID Provider', function () {
  this.timeout(30_000);
  let op: OpenIdProvider;
  let client: OidcClient;

  before(async () => {
    op = await OpenIdProvider.start([
      { login: 'ada', email: 'Ada@Example.com', emailVerified: true, givenName: 'Ada', familyName: 'Lovelace' },
      { login: 'eve', email: 'eve@example.com', emailVerified: false },
    ]);
    await op.registerVigil(VIGIL);
    client = new OidcClient({ issuer: op.issuer, clientId: op.clientId, clientSecret: op.clientSecret, name: 'Acme ID', allowedDomains: null });
  });
  after(() => op.stop());

  it('sends the browser to the provider with PKCE (S256), a state and a nonce', async () => {
    const { url, transaction } = await client.begin(REDIRECT, '/projects/p1', new Date());
    expect(url.origin).to.equal(op.issuer);
    expect(url.searchParams.get('code_challenge_method')).to.equal('S256');
    expect(url.searchParams.get('code_challenge')).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('code_challenge')).to.not.equal(transaction.codeVerifier);
    expect(url.searchParams.get('state')).to.equal(transaction.state);
    expect(url.searchParams.get('nonce')).to.equal(transaction.nonce);
    expect(url.searchParams.get('redirect_uri')).to.equal(REDIRECT);
    expect(url.searchParams.get('scope')).to.equal('openid email profile');
  });

  it('brings back the verified claims of the person who signed in at the provider', async () => {
    const { url, transaction } = await client.begin(REDIRECT, null, new Date());
    const callback = await op.authorize(url, 'ada');
    expect(callback.origin + callback.pathname).to.equal(REDIRECT);
    const claims = await client.complete(callback, transaction);
    expect(claims).to.include({ sub: 'ada', iss: op.issuer, email: 'Ada@Example.com', email_verified: true, given_name: 'Ada', family_name: 'Lovelace' });
  });

  it('reports an unverified email as the provider sent it', async () => {
    const { url, transaction } = await client.begin(REDIRECT, null, new Date());
    const claims = await client.complete(await op.authorize(url, 'eve'), transaction);
    expect(claims).to.include({ sub: 'eve', email: 'eve@example.com', email_verified: false });
  });

  it('refuses a callback whose state is not the one this sign-in sent', async () => {
    const { url, transaction } = await client.begin(REDIRECT, null, new Date());
    const callback = await op.authorize(url, 'ada');
    callback.searchParams.set('state', 'forged-state');
    expect((await failureOf(client.complete(callback, transaction))).kind).to.equal('unmatched');
  });

  it('refuses an ID token whose nonce is not the one this sign-in sent', async () => {
    const { url, transaction } = await client.begin(REDIRECT, null, new Date());
    const callback = await op.authorize(url, 'ada');
    const failure = await failureOf(client.complete(callback, { ...transaction, nonce: 'another-nonce' }));
    expect(failure.kind).to.equal('invalid');
    expect(failure.message).to.match(/nonce/);
  });

  it('refuses a code sent a second time (a replayed callback)', async () => {
    const { url, transaction } = await client.begin(REDIRECT, null, new Date());
    const callback = await op.authorize(url, 'ada');
    await client.complete(callback, transaction);
    const failure = await failureOf(client.complete(callback, transaction));
    expect(failure.kind).to.equal('invalid');
    expect(failure.message).to.match(/invalid_grant/);
  });

  it('refuses a code exchanged without its PKCE verifier', async () => {
    const { url, transaction } = await client.begin(REDIRECT, null, new Date());
    const callback = await op.authorize(url, 'ada');
    const failure = await failureOf(client.complete(callback, { ...transaction, codeVerifier: 'x'.repeat(43) }));
    expect(failure.kind).to.equal('invalid');
    expect(failure.message).to.match(/invalid_grant/);
  });

  it('reports the provider\'s error when the person cancels there', async () => {
    const { url, transaction } = await client.begin(REDIRECT, null, new Date());
    const callback = await op.authorize(url, 'ada', { cancel: true });
    const failure = await failureOf(client.complete(callback, transaction));
    expect(failure.kind).to.equal('provider');
    expect(failure.providerError).to.equal('access_denied');
  });

  it('reports a provider it cannot reach as unavailable, and tries again later', async () => {
    const down = new OidcClient({ issuer: 'http://127.0.0.1:9', clientId: 'x', clientSecret: 'y', name: 'Down', allowedDomains: null });
    expect((await failureOf(down.begin(REDIRECT, null, new Date()))).kind).to.equal('unavailable');
    expect((await failureOf(down.begin(REDIRECT, null, new Date()))).kind).to.equal('unavailable');
  });
});
