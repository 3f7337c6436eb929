import { isIP } from 'node:net';

/** Single sign-on through one OpenID Provider (VIGIL_OIDC_*); docs/configuration.md describes it. */
export interface OidcConfig {
  /** The provider's issuer identifier, as its discovery document states it. */
  issuer: string;
  clientId: string;
  /** A secret: never logged, never in an event or a page. */
  clientSecret: string;
  /** What the sign-in button names: "Sign in with <name>". */
  name: string;
  /** Lower-case email domains a person's verified email must be in; null: any. */
  allowedDomains: readonly string[] | null;
}

const REQUIRED = ['VIGIL_OIDC_ISSUER', 'VIGIL_OIDC_CLIENT_ID', 'VIGIL_OIDC_CLIENT_SECRET'] as const;
const OPTIONAL = ['VIGIL_OIDC_NAME', 'VIGIL_OIDC_ALLOWED_DOMAINS'] as const;
const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/**
 * The OIDC settings, or null when none is set; `refuse` is how a bad setting stops the start (the
 * config's ConfigError). Half a configuration is refused rather than ignored: an operator who set
 * the issuer meant single sign-on to work.
 */
export function oidcConfig(env: NodeJS.ProcessEnv, refuse: (message: string) => Error): OidcConfig | null {
  const set = (name: string) => (env[name] ?? '').trim() !== '';
  if (![...REQUIRED, ...OPTIONAL].some(set)) return null;
  const missing = REQUIRED.filter((name) => !set(name));
  if (missing.length > 0) throw refuse(`single sign-on needs ${REQUIRED.join(', ')}; ${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} not set`);
  return {
    issuer: issuerOf(env['VIGIL_OIDC_ISSUER']!.trim(), refuse),
    clientId: env['VIGIL_OIDC_CLIENT_ID']!.trim(),
    clientSecret: env['VIGIL_OIDC_CLIENT_SECRET']!.trim(),
    name: nameOf(env['VIGIL_OIDC_NAME'], refuse),
    allowedDomains: domainsOf(env['VIGIL_OIDC_ALLOWED_DOMAINS'], refuse),
  };
}

/** https, or http on a loopback address only (a provider started beside Vigil, as in the tests). */
function issuerOf(raw: string, refuse: (message: string) => Error): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse(`VIGIL_OIDC_ISSUER must be the provider's https URL, not ${raw}`);
  }
  if (url.username || url.password) throw refuse('VIGIL_OIDC_ISSUER must not carry a user name or password');
  if (url.search || url.hash) throw refuse('VIGIL_OIDC_ISSUER must not carry a query or fragment');
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    throw refuse(`VIGIL_OIDC_ISSUER must use https; http is accepted only on a loopback address (127.0.0.1, ::1, localhost), not ${url.hostname}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse(`VIGIL_OIDC_ISSUER must be an https URL, not ${url.protocol}`);
  // The issuer is compared character for character with the discovery document's: kept as written.
  return raw;
}

export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return isIP(host) === 6 && host === '::1';
}

function nameOf(raw: string | undefined, refuse: (message: string) => Error): string {
  const name = (raw ?? '').trim();
  if (name === '') return 'SSO';
  if (name.length > 40) throw refuse(`VIGIL_OIDC_NAME must be at most 40 characters, not ${name.length}`);
  return name;
}

function domainsOf(raw: string | undefined, refuse: (message: string) => Error): readonly string[] | null {
  if (raw === undefined || raw.trim() === '') return null;
  const domains = raw.split(',').map((d) => d.trim().toLowerCase().replace(/^@/, ''));
  const bad = domains.find((d) => !DOMAIN.test(d));
  if (bad !== undefined) throw refuse(`VIGIL_OIDC_ALLOWED_DOMAINS must be a comma-separated list of email domains (example.com,example.org): ${bad === '' ? 'an empty entry' : bad} is not one`);
  return [...new Set(domains)];
}
