import * as oidc from 'openid-client';
import type { OidcConfig } from '../main/oidc-config.js';
import type { SsoClaims } from '../domain/identity/sso-admission.js';

/**
 * What a sign-in through the provider must bring back to be accepted, kept from its start to its
 * callback (sealed in a short-lived cookie, see sso-transaction.ts): the state that ties the callback
 * to this browser, the nonce the ID token must carry, PKCE's code verifier, and where to go after.
 */
export interface OidcTransaction {
  state: string;
  nonce: string;
  codeVerifier: string;
  redirectUri: string;
  /** A console path, checked when the sign-in started. */
  next: string | null;
  startedAt: string;
}

/** Why a sign-in through the provider went no further, as the page that says so needs it. */
export type SsoFailureKind =
  /** The provider could not be reached, or its discovery document was not one. */
  | 'unavailable'
  /** The provider answered with an error (the person cancelled: access_denied, …). */
  | 'provider'
  /** The callback does not belong to a sign-in this browser started: no transaction, or another state. */
  | 'unmatched'
  /** The provider's answer failed a check: the code, the ID token (issuer, audience, expiry, nonce, signature). */
  | 'invalid';

export class SsoFailure extends Error {
  constructor(
    readonly kind: SsoFailureKind,
    message: string,
    /** For `provider`: the OAuth error code it sent (access_denied, …), shown as it is (escaped). */
    readonly providerError: string | null = null,
  ) {
    super(message);
    this.name = 'SsoFailure';
  }
}

const SCOPE = 'openid email profile';
const TIMEOUT_SECONDS = 10;

/**
 * The relying party: discovery (once, on first use, again after a failure), the authorization code
 * flow with PKCE (S256), state and nonce, and the checks of the provider's answer, all by
 * openid-client: nothing here reads a JWT itself.
 */
export class OidcClient {
  private discovered: Promise<oidc.Configuration> | null = null;

  constructor(private readonly settings: OidcConfig) {}

  get name(): string {
    return this.settings.name;
  }

  get issuer(): string {
    return this.settings.issuer;
  }

  get allowedDomains(): readonly string[] | null {
    return this.settings.allowedDomains;
  }

  private configuration(): Promise<oidc.Configuration> {
    if (!this.discovered) {
      const insecure = new URL(this.settings.issuer).protocol === 'http:';
      this.discovered = oidc
        .discovery(new URL(this.settings.issuer), this.settings.clientId, this.settings.clientSecret, undefined, {
          timeout: TIMEOUT_SECONDS,
          // Config refuses http but on a loopback address.
          ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
        })
        .catch((error: unknown) => {
          this.discovered = null;
          throw new SsoFailure('unavailable', `the provider's discovery failed: ${describe(error)}`);
        });
    }
    return this.discovered;
  }

  /** Where to send the browser, and what its callback must match. */
  async begin(redirectUri: string, next: string | null, now: Date): Promise<{ url: URL; transaction: OidcTransaction }> {
    const config = await this.configuration();
    const transaction: OidcTransaction = {
      state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier(), redirectUri, next, startedAt: now.toISOString(),
    };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: SCOPE,
      response_type: 'code',
      state: transaction.state,
      nonce: transaction.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(transaction.codeVerifier),
      code_challenge_method: 'S256',
    });
    return { url, transaction };
  }

  /**
   * The callback: the provider's answer checked against the transaction (state, then the code
   * exchanged with the verifier, then the ID token: signature, issuer, audience, expiry, nonce), and
   * the person's claims, from UserInfo where the ID token leaves the email out.
   */
  async complete(callbackUrl: URL, transaction: OidcTransaction): Promise<SsoClaims & { iss: string }> {
    const config = await this.configuration();
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        expectedState: transaction.state,
        expectedNonce: transaction.nonce,
        pkceCodeVerifier: transaction.codeVerifier,
        idTokenExpected: true,
      });
    } catch (error) {
      throw failureOf(error);
    }
    const idToken = tokens.claims();
    if (!idToken) throw new SsoFailure('invalid', 'the provider sent no ID token');
    if (idToken['email'] !== undefined && idToken['email_verified'] !== undefined) return { ...idToken };
    // Many providers (oidc-provider among them) put the email in UserInfo only: the email and whether
    // it is verified are then both taken from there, never one from each.
    let userInfo: oidc.UserInfoResponse;
    try {
      // The library checks that UserInfo's subject is the ID token's.
      userInfo = await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub);
    } catch (error) {
      throw failureOf(error);
    }
    const claims: SsoClaims = { ...userInfo, ...idToken, email: userInfo.email, email_verified: userInfo.email_verified };
    return { ...claims, sub: idToken.sub, iss: idToken.iss };
  }
}

function failureOf(error: unknown): SsoFailure {
  if (error instanceof SsoFailure) return error;
  if (error instanceof oidc.AuthorizationResponseError) return new SsoFailure('provider', error.error_description ?? error.error, error.error);
  if (error instanceof oidc.ResponseBodyError) return new SsoFailure('invalid', `the provider refused the code: ${error.error}`);
  // The state is checked first, before any error the provider sent is believed.
  if (/"state"/.test(describe(error))) return new SsoFailure('unmatched', describe(error));
  if (error instanceof TypeError || (error instanceof Error && error.name === 'TimeoutError')) return new SsoFailure('unavailable', describe(error));
  return new SsoFailure('invalid', describe(error));
}

/** The error's message with those of its causes (openid-client wraps what oauth4webapi found). */
function describe(error: unknown): string {
  const messages: string[] = [];
  for (let e: unknown = error; e instanceof Error && messages.length < 4; e = e.cause) messages.push(e.message);
  return messages.length > 0 ? messages.join(': ') : String(error);
}
