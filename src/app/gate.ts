import type { Role } from '../domain/access/roles.js';
import { type Caller, type Requirement, authorize, canReach } from '../domain/access/authorize.js';
import { roleOf } from '../queries/identity.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';
import { Refusal } from './refusal.js';

/**
 * Runs the scope gate and the role gate for an operation, on a project when there is one.
 * Returns the caller's role on that project.
 */
export async function gate(readModels: ReadModelStore, caller: Caller, requirement: Requirement, projectId: string | null): Promise<Role | null> {
  const role = projectId !== null && canReach(caller, projectId) ? await roleOf(readModels, projectId, caller.userId) : null;
  const decision = authorize(caller, requirement, projectId === null ? null : { projectId, role });
  if (!decision.allowed) throw new Refusal(decision.status, decision.message, decision.status === 403 ? decision.code : null);
  return role;
}
