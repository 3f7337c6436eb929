import * as t from 'io-ts';
import type { Context } from 'koa';
import type { SecretBox } from '../app/secret-box.js';
import type { OidcTransaction } from './oidc-client.js';

export const SSO_COOKIE = 'vigil_oidc';
/** How long a person may take at the provider before the callback is no longer taken. */
export const SSO_TRANSACTION_MS = 10 * 60_000;

/**
 * The cookie carries the transaction sealed (AES-256-GCM under the server's secret key): the
 * browser can neither read its PKCE verifier nor forge one. Only the callback's path gets it.
 *
 * SameSite=Lax, where the session cookie is Strict: the provider sends the browser back with a
 * top-level GET from its own site, and a Strict cookie is not sent on that navigation, so the
 * callback would never find its transaction. Lax is sent on a top-level GET, never on another
 * site's POST, image or frame; the state inside it still has to match the callback's.
 */
const SSO_COOKIE_PATH = '/sign-in/oidc';

const Sealed = t.type({
  v: t.literal(1),
  state: t.string,
  nonce: t.string,
  codeVerifier: t.string,
  redirectUri: t.string,
  next: t.union([t.string, t.null]),
  startedAt: t.string,
});

export function keepTransaction(ctx: Context, secrets: SecretBox, transaction: OidcTransaction): void {
  ctx.cookies.set(SSO_COOKIE, secrets.seal({ v: 1, ...transaction }), {
    httpOnly: true, sameSite: 'lax', secure: ctx.secure, path: SSO_COOKIE_PATH, maxAge: SSO_TRANSACTION_MS, overwrite: true,
  });
}

/**
 * The transaction this browser started, taken once: the cookie is cleared whatever it held, so a
 * callback replayed in the same browser finds none. Null when there is none, it was not sealed here,
 * or it is older than SSO_TRANSACTION_MS by the server's clock.
 */
export function takeTransaction(ctx: Context, secrets: SecretBox, now: Date): OidcTransaction | null {
  const sealed = ctx.cookies.get(SSO_COOKIE);
  if (sealed === undefined) return null;
  ctx.cookies.set(SSO_COOKIE, '', { httpOnly: true, sameSite: 'lax', secure: ctx.secure, path: SSO_COOKIE_PATH, maxAge: 0, overwrite: true });
  let opened: unknown;
  try {
    opened = secrets.open(sealed);
  } catch {
    return null;
  }
  const decoded = Sealed.decode(opened);
  if (decoded._tag === 'Left') return null;
  const { v: _version, ...transaction } = decoded.right;
  const age = now.getTime() - Date.parse(transaction.startedAt);
  return age >= 0 && age <= SSO_TRANSACTION_MS ? transaction : null;
}
