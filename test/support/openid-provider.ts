import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Adapter, type AdapterPayload, type KoaContextWithOIDC } from 'oidc-provider';

/** A person the test provider knows: the login typed on its sign-in form is `login`. */
export interface ProviderAccount {
  login: string;
  email?: string;
  emailVerified?: boolean;
  givenName?: string;
  familyName?: string;
}

/**
 * Everything the provider keeps (sessions, codes, tokens, grants, and the clients a test registers)
 * in memory, one store per provider: a test's provider never sees another's.
 */
function memoryAdapter(store: Map<string, AdapterPayload & { expiresAt?: number }>) {
  return class MemoryAdapter implements Adapter {
    constructor(private readonly model: string) {}
    private key(id: string) {
      return `${this.model}:${id}`;
    }
    async upsert(id: string, payload: AdapterPayload, expiresIn?: number) {
      store.set(this.key(id), { ...payload, ...(expiresIn ? { expiresAt: Date.now() + expiresIn * 1000 } : {}) });
      if (typeof payload['uid'] === 'string') store.set(`uid:${payload['uid']}`, { id });
      if (typeof payload['grantId'] === 'string') {
        const grant = store.get(`grant:${payload['grantId']}`) ?? { keys: [] };
        (grant['keys'] as string[]).push(this.key(id));
        store.set(`grant:${payload['grantId']}`, grant);
      }
    }
    async find(id: string) {
      const found = store.get(this.key(id));
      return found && (found.expiresAt === undefined || found.expiresAt > Date.now()) ? found : undefined;
    }
    async findByUid(uid: string) {
      const ref = store.get(`uid:${uid}`);
      return typeof ref?.['id'] === 'string' ? this.find(ref['id']) : undefined;
    }
    async findByUserCode() {
      return undefined;
    }
    async consume(id: string) {
      const found = store.get(this.key(id));
      if (found) found['consumed'] = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      store.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string) {
      for (const key of (store.get(`grant:${grantId}`)?.['keys'] as string[] | undefined) ?? []) store.delete(key);
      store.delete(`grant:${grantId}`);
    }
  };
}

/**
 * A real OpenID Provider (the certified `oidc-provider`) on 127.0.0.1 and a random port, for specs
 * of single sign-on: discovery, the authorization code flow with PKCE, signed ID tokens, UserInfo.
 * People sign in on its own development login form (any password; the login names the account)
 * and are not asked for consent. Start it before Vigil (whose config names its issuer), then
 * register Vigil's redirect URI once Vigil's port is known.
 */
export class OpenIdProvider {
  readonly clientId = 'vigil';
  readonly clientSecret = randomBytes(24).toString('base64url');

  private constructor(
    private readonly server: Server,
    readonly issuer: string,
    private readonly store: Map<string, AdapterPayload>,
    private readonly accounts: Map<string, ProviderAccount>,
  ) {}

  static async start(accounts: readonly ProviderAccount[]): Promise<OpenIdProvider> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const store = new Map<string, AdapterPayload>();
    const known = new Map(accounts.map((a) => [a.login, a]));
    const provider = new Provider(issuer, {
      adapter: memoryAdapter(store),
      // Clients are looked up in the adapter: the test registers Vigil's once it is listening.
      clients: [],
      cookies: { keys: [randomBytes(32).toString('hex')] },
      jwks: { keys: [{ ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }), kid: 'test', alg: 'RS256', use: 'sig' }] },
      ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Grant: 600, Session: 600 },
      pkce: { required: () => true },
      features: { devInteractions: { enabled: true } },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'given_name', 'family_name'] },
      findAccount: async (_ctx, id) => {
        const account = known.get(id);
        if (!account) return undefined;
        return {
          accountId: id,
          claims: () => ({
            sub: id,
            ...(account.email !== undefined ? { email: account.email, email_verified: account.emailVerified ?? false } : {}),
            ...(account.givenName ? { given_name: account.givenName, name: `${account.givenName} ${account.familyName ?? ''}`.trim() } : {}),
            ...(account.familyName ? { family_name: account.familyName } : {}),
          }),
        };
      },
      // No consent screen: the grant is made on the spot, as a company's provider does for its own apps.
      loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
        const { client, session, result, provider: op } = ctx.oidc;
        const grantId = result?.consent?.grantId ?? session.grantIdFor(client.clientId);
        if (grantId) return op.Grant.find(grantId);
        const grant = new op.Grant({ clientId: client.clientId, accountId: session.accountId });
        grant.addOIDCScope('openid email profile');
        await grant.save();
        return grant;
      },
    });
    server.on('request', provider.callback());
    return new OpenIdProvider(server, issuer, store, known);
  }

  /** Vigil's settings for this provider, to start it with. */
  env(extra: Record<string, string> = {}): Record<string, string> {
    return { VIGIL_OIDC_ISSUER: this.issuer, VIGIL_OIDC_CLIENT_ID: this.clientId, VIGIL_OIDC_CLIENT_SECRET: this.clientSecret, VIGIL_OIDC_NAME: 'Acme ID', ...extra };
  }

  /** Registers Vigil (at `vigilUrl`) as the client, with its callback as the one redirect URI. */
  async registerVigil(vigilUrl: string): Promise<void> {
    this.store.set(`Client:${this.clientId}`, {
      client_id: this.clientId,
      client_secret: this.clientSecret,
      redirect_uris: [`${vigilUrl}/sign-in/oidc/callback`],
      response_types: ['code'],
      grant_types: ['authorization_code'],
      token_endpoint_auth_method: 'client_secret_post',
    });
  }

  /** A person added (or changed: a new email at the provider) while the test runs. */
  setAccount(account: ProviderAccount): void {
    this.accounts.set(account.login, account);
  }

  /**
   * What a browser would do with `authorizationUrl`, without one: follows the provider's redirects
   * with its cookies, signs in as `login` on its form, and returns the URL the provider sends the
   * browser back to (Vigil's callback, with a code or an error); `cancel` presses Cancel instead.
   */
  async authorize(authorizationUrl: URL | string, login: string, options: { cancel?: boolean } = {}): Promise<URL> {
    const jar = new Map<string, string>();
    const send = async (url: string, init: RequestInit = {}): Promise<Response> => {
      const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
      const response = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string> | undefined), ...(cookie ? { cookie } : {}) } });
      for (const set of response.headers.getSetCookie()) {
        const [pair] = set.split(';');
        const at = pair!.indexOf('=');
        jar.set(pair!.slice(0, at), pair!.slice(at + 1));
      }
      return response;
    };
    let url = new URL(authorizationUrl).toString();
    for (let hop = 0; hop < 20; hop += 1) {
      if (!url.startsWith(this.issuer)) return new URL(url);
      const response = await send(url);
      const location = response.headers.get('location');
      if (location) {
        url = new URL(location, url).toString();
        continue;
      }
      const page = await response.text();
      if (options.cancel) {
        const abort = /href="([^"]*\/abort)"/.exec(page);
        if (!abort) throw new Error(`no Cancel on the provider's page: ${page.slice(0, 300)}`);
        url = new URL(abort[1]!, url).toString();
        continue;
      }
      const action = /action="([^"]+)"/.exec(page);
      if (!action) throw new Error(`no form on the provider's page: ${page.slice(0, 300)}`);
      const posted = await send(new URL(action[1]!, url).toString(), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ prompt: 'login', login, password: 'any' }).toString(),
      });
      const next = posted.headers.get('location');
      if (!next) throw new Error(`the provider did not sign ${login} in: ${posted.status} ${(await posted.text()).slice(0, 300)}`);
      url = new URL(next, url).toString();
    }
    throw new Error('the provider redirected too many times');
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
