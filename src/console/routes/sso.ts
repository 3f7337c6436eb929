import * as t from 'io-ts';
import type { Context } from 'koa';
import { settled } from '../../web/dependencies.js';
import { decode } from '../../web/validation.js';
import type { Actor } from '../../app/command-handler.js';
import { userForSsoIdentity } from '../../app/sso-accounts.js';
import { admit } from '../../domain/identity/sso-admission.js';
import { OidcClient, SsoFailure } from '../../sso/oidc-client.js';
import { keepTransaction, takeTransaction } from '../../sso/sso-transaction.js';
import { errorPage } from '../pages/error.js';
import { type SsoRefusal, ssoRefusedPage } from '../pages/sso.js';
import type { ConsoleKit, ConsoleRoutes } from '../kit.js';
import { render } from '../signed-in.js';
import { NO_SECOND_FACTOR, completeSignIn, consolePath, recordFailedSignIn, signInThrottled } from '../sign-in-flow.js';
import { retryAdvice } from './sign-in.js';

const StartQuery = t.partial({ next: t.string });

export const SSO_CALLBACK_PATH = '/sign-in/oidc/callback';

/** Why a sign-in through the provider was refused, as the log's UserSignInFailed records it. */
type SsoRefusalReason = 'sso_unmatched' | 'sso_provider_error' | 'sso_invalid_response' | 'sso_unavailable' | 'sso_no_email' | 'sso_unverified_email' | 'sso_domain_not_allowed';

/**
 * Single sign-on through the OpenID Provider VIGIL_OIDC_* names: `/sign-in/oidc` sends the browser
 * there, `/sign-in/oidc/callback` takes it back, admits the person by verified email and opens
 * their session through sign-in-flow.ts. Every refusal is a page with a way back, never JSON.
 */
export const ssoRoutes: ConsoleRoutes = (kit: ConsoleKit) => {
  const { router, deps, clock } = kit;
  const settings = deps.config.oidc ?? null;
  const client = settings ? new OidcClient(settings) : null;
  const name = settings?.name ?? '';

  const refuse = async (ctx: Context, status: number, reason: SsoRefusalReason, refusal: SsoRefusal) => {
    const wait = await recordFailedSignIn(kit, ctx, { userId: null, method: 'oidc', reason });
    if (wait !== null) return tooMany(ctx, wait);
    render(ctx, ssoRefusedPage(refusal), status);
  };

  const tooMany = (ctx: Context, wait: number) => {
    ctx.set('Retry-After', String(wait));
    render(ctx, ssoRefusedPage({ title: 'Too many failed sign-ins', explanation: [`Too many failed sign-ins from this address. ${retryAdvice(wait)}`], retry: null }), 429);
  };

  const failed = (ctx: Context, failure: SsoFailure, retry: string) => {
    deps.logger.warn({ kind: failure.kind, reason: failure.message }, 'single sign-on failed');
    switch (failure.kind) {
      case 'unavailable':
        return refuse(ctx, 503, 'sso_unavailable', {
          title: `${name} cannot be reached`, retry,
          explanation: [`Vigil could not reach ${name} to sign you in. Try again in a minute, or sign in another way.`],
        });
      case 'provider':
        return refuse(ctx, 400, 'sso_provider_error', {
          title: `${name} did not sign you in`, retry,
          explanation: [
            failure.providerError === 'access_denied' ? `The sign-in was cancelled or refused at ${name}.` : `${name} answered with an error: ${failure.providerError ?? 'unknown'}.`,
            ...(failure.message !== failure.providerError ? [`It said: “${failure.message}”`] : []),
          ],
        });
      case 'unmatched':
        return refuse(ctx, 400, 'sso_unmatched', {
          title: 'This sign-in could not be finished', retry,
          explanation: ['It was not started in this browser, it took longer than 10 minutes, or it has already been used. Start again.'],
        });
      case 'invalid':
        return refuse(ctx, 400, 'sso_invalid_response', {
          title: `${name}’s answer did not check out`, retry,
          explanation: [`Vigil could not verify what ${name} sent back, so it did not sign you in. Try again; if it keeps happening, tell whoever runs this Vigil.`],
        });
      default: {
        const exhaustive: never = failure.kind;
        return exhaustive;
      }
    }
  };

  router.get('/sign-in/oidc', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    if (!client) return render(ctx, errorPage(404, 'single sign-on is not set up on this Vigil', null), 404);
    const next = consolePath(decode(StartQuery, ctx.query, 'query').next);
    // The callback on the origin the browser used: ctx.protocol and ctx.host follow
    // X-Forwarded-Proto and -Host only from the proxies VIGIL_TRUST_PROXY names.
    const redirectUri = `${ctx.protocol}://${ctx.host}${SSO_CALLBACK_PATH}`;
    try {
      const { url, transaction } = await client.begin(redirectUri, next, clock());
      keepTransaction(ctx, deps.secrets, transaction);
      ctx.status = 303;
      ctx.redirect(url.href);
    } catch (error) {
      if (!(error instanceof SsoFailure)) throw error;
      await failed(ctx, error, ctx.originalUrl);
    }
  });

  router.get(SSO_CALLBACK_PATH, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    if (!client) return render(ctx, errorPage(404, 'single sign-on is not set up on this Vigil', null), 404);
    const transaction = takeTransaction(ctx, deps.secrets, clock());
    const retry = transaction?.next ? `/sign-in/oidc?${new URLSearchParams({ next: transaction.next }).toString()}` : '/sign-in/oidc';
    const wait = signInThrottled(kit, ctx, null);
    if (wait !== null) return tooMany(ctx, wait);
    if (!transaction) return failed(ctx, new SsoFailure('unmatched', 'no sign-in started in this browser, or it expired'), retry);
    // The URL the provider sent the browser to, on the redirect URI the sign-in started with.
    const callbackUrl = new URL(transaction.redirectUri);
    callbackUrl.search = ctx.querystring;
    let claims: Awaited<ReturnType<OidcClient['complete']>>;
    try {
      claims = await client.complete(callbackUrl, transaction);
    } catch (error) {
      if (!(error instanceof SsoFailure)) throw error;
      return failed(ctx, error, retry);
    }
    const admission = admit(claims, client.allowedDomains);
    if (!admission.admitted) {
      switch (admission.reason) {
        case 'no_email':
          return refuse(ctx, 403, 'sso_no_email', {
            title: `${name} did not share your email`, retry: null,
            explanation: [`Vigil knows people by their verified email, and ${name} did not send one. Ask whoever runs ${name} to release the email to Vigil.`],
          });
        case 'unverified':
          return refuse(ctx, 403, 'sso_unverified_email', {
            title: 'Your email is not verified', retry,
            explanation: [`${name} has not verified ${admission.email ?? 'your email'}. Vigil signs people in by a verified email only: verify it at ${name}, then try again.`],
          });
        case 'domain':
          return refuse(ctx, 403, 'sso_domain_not_allowed', {
            title: 'This email cannot sign in here', retry: null,
            explanation: [`${admission.email ?? 'Your email'} is not in a domain this Vigil accepts for single sign-on. Sign in with an account in an allowed domain, or ask whoever runs this Vigil.`],
          });
        default: {
          const exhaustive: never = admission.reason;
          return exhaustive;
        }
      }
    }
    const actor: Actor = { kind: 'system', user_id: null, api_key_id: null, request_id: requestIdOf(ctx), cause: 'sign_in', request_ip: ctx.ip, request_ua: ctx.get('User-Agent') || null };
    const user = await userForSsoIdentity(deps.commands, { issuer: claims.iss, subject: claims.sub, email: admission.email, firstName: admission.firstName, lastName: admission.lastName }, actor);
    await settled(deps, user.position);
    // The provider is trusted for the second factor: whoever runs it decides how people prove who
    // they are there (its MFA policy). Vigil's own passkey or TOTP is asked on the other doors only.
    await completeSignIn({ ...kit, secondFactors: NO_SECOND_FACTOR }, ctx, { userId: user.userId, method: 'oidc', next: transaction.next });
  });
};

function requestIdOf(ctx: Context): string | null {
  const id: unknown = ctx.state['requestId'];
  return typeof id === 'string' ? id : null;
}
