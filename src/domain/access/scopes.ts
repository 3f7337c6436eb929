export const SCOPES = ['read', 'manage_monitors', 'manage_projects', 'manage_notifications', 'destroy'] as const;
export type Scope = (typeof SCOPES)[number];

/** A project-scoped key has these, fixed: it can never reach project, notification or destructive operations. */
export const PROJECT_KEY_SCOPES: readonly Scope[] = ['read', 'manage_monitors'];

export type KeyKind = 'ACCOUNT' | 'PROJECT';

/** What a key may do regardless of role: its own scopes, plus read, which every key has. */
export function effectiveScopes(kind: KeyKind, scopes: readonly Scope[]): ReadonlySet<Scope> {
  return new Set<Scope>(['read', ...(kind === 'PROJECT' ? PROJECT_KEY_SCOPES : scopes)]);
}
