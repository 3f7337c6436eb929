import { type Role, roleAtLeast } from './roles.js';
import { type KeyKind, type Scope, effectiveScopes } from './scopes.js';
import type { Caller } from './authorize.js';

export interface KeyShape {
  kind: KeyKind;
  scopes: readonly Scope[];
  projectId: string | null;
}

/** Whether `holder` can do everything `other` can: the rule for minting and for revoking keys. */
export function dominates(holder: KeyShape, other: KeyShape): boolean {
  const held = effectiveScopes(holder.kind, holder.scopes);
  const wanted = effectiveScopes(other.kind, other.scopes);
  if (![...wanted].every((scope) => held.has(scope))) return false;
  if (other.kind === 'ACCOUNT') return holder.kind === 'ACCOUNT';
  return holder.kind === 'ACCOUNT' || holder.projectId === other.projectId;
}

export type MintRefusal = { status: 403; code: 'INSUFFICIENT_API_KEY_SCOPE' | null; message: string };

/**
 * A key can never mint a key with more power than itself: no scope it lacks, no project it
 * cannot reach, and no life beyond its own expiry. A person signed in to the console (no key:
 * `apiKeyId` null) is bounded by the key lifetime alone, not by their session's end, which is
 * hours away. Project keys are minted by the project's Owners and Managers only.
 */
export function refuseMint(
  caller: Caller,
  wanted: KeyShape & { expiresAt: string },
  callerRoleOnProject: Role | null,
): MintRefusal | null {
  if (!dominates(caller, wanted)) {
    return { status: 403, code: 'INSUFFICIENT_API_KEY_SCOPE', message: 'an API key cannot create a key with more power than itself' };
  }
  if (wanted.kind === 'PROJECT' && (callerRoleOnProject === null || !roleAtLeast(callerRoleOnProject, 'MANAGER'))) {
    return { status: 403, code: null, message: 'project-scoped keys are created by the Owners and Managers of the project' };
  }
  if (caller.apiKeyId !== null && Date.parse(wanted.expiresAt) > Date.parse(caller.expiresAt)) {
    return { status: 403, code: null, message: 'a new API key cannot outlive the key that creates it' };
  }
  return null;
}
