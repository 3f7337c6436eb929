import { Refusal } from '../app/refusal.js';
import type { Requirement } from '../domain/access/authorize.js';
import type { UserActor } from '../domain/monitors/incidents.js';
import { getUser } from '../queries/identity.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';
import type { MonitorDocument } from '../../projections/monitors.js';
import { HttpError } from './errors.js';
import { gate } from '../app/gate.js';
import type { VigilState } from './state.js';
import { pathId } from './validation.js';

/**
 * The document named in the path, after the gates for its project; 404 when it does not exist or
 * is out of reach. For a missing one the scope gate still answers first, so a missing scope reads
 * the same for every id.
 */
export async function gatedDocument<D extends { project_id: string }>(
  readModels: ReadModelStore,
  state: VigilState,
  collection: string,
  rawId: unknown,
  resource: string,
  requirement: Requirement,
): Promise<D> {
  const found = (await readModels.get<D>(collection, pathId(rawId, resource)))?.doc;
  if (!found) {
    await gate(readModels, state.caller, requirement, null);
    throw new HttpError(404, `${resource} not found`);
  }
  try {
    await gate(readModels, state.caller, requirement, found.project_id);
  } catch (error) {
    // Out of reach reads exactly as missing (docs/api.md, "Errors"): "project not found" would tell an outsider the id exists.
    if (error instanceof Refusal && error.status === 404) throw new HttpError(404, `${resource} not found`);
    throw error;
  }
  return found;
}

export function gatedMonitor(readModels: ReadModelStore, state: VigilState, rawId: string | undefined, requirement: Requirement): Promise<MonitorDocument> {
  return gatedDocument<MonitorDocument>(readModels, state, 'monitors', rawId, 'monitor', requirement);
}

/** The project a list is about: `project_id` from the query, or the one a project-scoped key is bound to. */
export function targetProject(state: VigilState, given: string | undefined): string {
  if (given !== undefined) return given;
  if (state.caller.projectId) return state.caller.projectId;
  throw new HttpError(400, 'project_id is required with an account-scoped API key');
}

export async function userActor(readModels: ReadModelStore, state: VigilState): Promise<UserActor> {
  const user = await getUser(readModels, state.caller.userId);
  return { user_id: state.caller.userId, email: user?.email ?? '', api_key_id: state.caller.apiKeyId };
}
