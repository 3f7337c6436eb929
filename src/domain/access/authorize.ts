import { type Role, roleAtLeast } from './roles.js';
import { type KeyKind, type Scope, effectiveScopes } from './scopes.js';

/**
 * The caller as the gates see it: who, by which key, and which projects it can reach. A person
 * signed in to the console (password, passkey, single sign-on) comes with no key: `apiKeyId` null,
 * an ACCOUNT caller with every scope, so that only their role on each project (looked up on every
 * request) limits them.
 */
export interface Caller {
  userId: string;
  /** The API key the request came with (or the console session was opened with); null for a person's console session. */
  apiKeyId: string | null;
  /** The console session the request came through (its public reference), or null (the REST API). */
  sessionRef: string | null;
  kind: KeyKind;
  scopes: readonly Scope[];
  /** Set for a project-scoped key: the one project it is bound to. */
  projectId: string | null;
  expiresAt: string;
}

export interface Requirement {
  scope: Scope;
  /** Operations a project-scoped key never reaches, whatever its role. */
  accountKeyOnly?: boolean;
  minimumRole?: Role;
}

export type Decision =
  | { allowed: true }
  | { allowed: false; status: 403; code: 'INSUFFICIENT_API_KEY_SCOPE' | null; message: string }
  | { allowed: false; status: 404; message: string };

/**
 * The two gates every request passes: the key must hold the scope, and its role on the target
 * project must be high enough. A project the key cannot reach answers 404, as if it did not exist.
 * The scope gate goes first: it depends on the key alone, so failing it reveals nothing about the project.
 */
export function authorize(caller: Caller, requirement: Requirement, target: { projectId: string; role: Role | null } | null): Decision {
  if (requirement.accountKeyOnly && caller.kind === 'PROJECT') {
    return { allowed: false, status: 403, code: 'INSUFFICIENT_API_KEY_SCOPE', message: 'this operation needs an account-scoped API key' };
  }
  if (!effectiveScopes(caller.kind, caller.scopes).has(requirement.scope)) {
    return { allowed: false, status: 403, code: 'INSUFFICIENT_API_KEY_SCOPE', message: `this API key lacks the ${requirement.scope} scope` };
  }
  if (target === null) return { allowed: true };
  if (!canReach(caller, target.projectId) || target.role === null) {
    return { allowed: false, status: 404, message: 'project not found' };
  }
  if (requirement.minimumRole && !roleAtLeast(target.role, requirement.minimumRole)) {
    return { allowed: false, status: 403, code: null, message: `this operation needs the ${requirement.minimumRole} role or higher on the project` };
  }
  return { allowed: true };
}

export function canReach(caller: Caller, projectId: string): boolean {
  return caller.kind === 'ACCOUNT' || caller.projectId === projectId;
}
