/**
 * Event data fields that hold a secret's hash or sealed form: the history (audit_events) shows
 * that they were set, never what to, and an export leaves them out. Add a field here whenever an
 * event carries a credential (a TOTP seed, an invitation token's hash, …).
 */
export const SECRET_FIELDS: readonly string[] = ['password_hash', 'token_hash', 'reset_token_hash'];

/** The data with each secret field replaced by `[redacted]`; the same object when it has none. */
export function withoutSecrets<T extends Record<string, unknown>>(data: T, fields: readonly string[] = SECRET_FIELDS): T {
  if (!fields.some((field) => Object.hasOwn(data, field))) return data;
  return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, fields.includes(k) ? '[redacted]' : v])) as T;
}
