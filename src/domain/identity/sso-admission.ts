/**
 * Who may come in through single sign-on: the claims the provider vouched for (its ID token and
 * UserInfo, checked by the OIDC library), judged against the settings. Pure: no I/O, no clock.
 */
export interface SsoClaims {
  sub: string;
  email?: unknown;
  email_verified?: unknown;
  given_name?: unknown;
  family_name?: unknown;
  name?: unknown;
}

export type SsoAdmission =
  | { admitted: true; email: string; firstName: string; lastName: string }
  | { admitted: false; reason: 'no_email' | 'unverified' | 'domain'; email: string | null };

const NAME_LIMIT = 100;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,253}$/;

const text = (value: unknown): string => (typeof value === 'string' ? value.trim().slice(0, NAME_LIMIT) : '');

export function admit(claims: SsoClaims, allowedDomains: readonly string[] | null): SsoAdmission {
  const raw = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
  if (!EMAIL.test(raw)) return { admitted: false, reason: 'no_email', email: null };
  // Only an address the provider says it verified names a Vigil user: anyone can type any address
  // into a provider that lets people sign up, and a match by email opens that person's account.
  if (claims.email_verified !== true) return { admitted: false, reason: 'unverified', email: raw };
  const domain = raw.slice(raw.lastIndexOf('@') + 1);
  if (allowedDomains !== null && !allowedDomains.includes(domain)) return { admitted: false, reason: 'domain', email: raw };
  const given = text(claims.given_name);
  const family = text(claims.family_name);
  return { admitted: true, email: raw, firstName: given || family ? given : text(claims.name), lastName: family };
}
