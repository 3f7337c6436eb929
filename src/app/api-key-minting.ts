import type { ApiKeyDocument } from '../../projections/api-keys.js';
import type { Caller } from '../domain/access/authorize.js';
import { dominates, refuseMint } from '../domain/access/key-power.js';
import type { Scope } from '../domain/access/scopes.js';
import { addDays } from '../domain/time.js';
import { getApiKey } from '../queries/identity.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';
import { gate } from './gate.js';
import { issueApiKey, revokeApiKey } from './identity.js';
import { Refusal, badInput } from './refusal.js';
import type { Requester, UseCaseDependencies } from './requester.js';

/** A key asked for (`POST /v1/api-keys`, the console's key forms): `project_id` makes a project-scoped key. */
export interface ApiKeyRequest {
  name: string;
  expires_in_days: number;
  scopes?: readonly Scope[];
  project_id?: string;
  env?: 'live' | 'test';
}

/** A key as it was issued: the fields of its document, then the key itself (shown this once). */
export type MintedKey = Awaited<ReturnType<typeof mintApiKey>>;

/**
 * A new key for the caller's user: never more power than the caller's own key (scopes, project,
 * expiry), project keys only from the project's Owners and Managers. The key itself is in the
 * answer this once.
 */
export async function mintApiKey(deps: UseCaseDependencies, requester: Requester, body: ApiKeyRequest) {
  const { readModels, commands } = deps;
  const { caller } = requester;
  await gate(readModels, caller, { scope: 'read' }, null);
  const projectId = body.project_id ?? null;
  if (projectId !== null && body.scopes !== undefined) {
    throw badInput('scopes cannot be chosen for a project-scoped key: it always has read and manage_monitors');
  }
  const wanted = {
    kind: projectId === null ? ('ACCOUNT' as const) : ('PROJECT' as const),
    scopes: [...new Set(body.scopes ?? [])],
    projectId,
    expiresAt: addDays(commands.clock().toISOString(), body.expires_in_days),
  };
  const role = projectId === null ? null : await gate(readModels, caller, { scope: 'read' }, projectId);
  const refusal = refuseMint(caller, wanted, role);
  if (refusal) throw new Refusal(refusal.status, refusal.message, refusal.code);
  if (wanted.kind === 'ACCOUNT' && !(await ownsAProject(readModels, caller.userId))) {
    throw new Refusal(403, 'account-scoped keys are created by users who own at least one project');
  }
  const issued = await issueApiKey(
    commands,
    {
      user_id: caller.userId,
      name: body.name,
      expires_in_days: body.expires_in_days,
      kind: wanted.kind,
      project_id: projectId,
      scopes: wanted.scopes,
      env: body.env ?? 'live',
      created_by_api_key_id: caller.apiKeyId,
    },
    requester.actor,
  );
  await requester.settled(issued.position);
  const { api_key_id: id, ...fields } = issued.event;
  return { api_key: { id, ...fields, revoked_at: null, last_used_at: null }, key: issued.key };
}

/** Whether the user owns a project: who may create account-scoped keys. */
export async function ownsAProject(readModels: ReadModelStore, userId: string): Promise<boolean> {
  return (await readModels.count('project_members', { user_id: userId, role: 'OWNER' })) > 0;
}

/** Whether the caller's key may revoke this key: itself, or any key of its user with no more power than itself (expiry aside). */
export function mayRevoke(caller: Caller, key: ApiKeyDocument): boolean {
  if (key.user_id !== caller.userId || (caller.kind === 'PROJECT' && key.project_id !== caller.projectId)) return false;
  return key.id === caller.apiKeyId || dominates(caller, { kind: key.kind, scopes: key.scopes, projectId: key.project_id });
}

/** A key may revoke itself, or any key of its user with no more power than itself (expiry aside). */
export async function revokeOwnApiKey(deps: UseCaseDependencies, requester: Requester, apiKeyId: string): Promise<void> {
  const { readModels, commands } = deps;
  const { caller } = requester;
  await gate(readModels, caller, { scope: 'read' }, null);
  const key = await getApiKey(readModels, apiKeyId);
  if (!key || key.user_id !== caller.userId || (caller.kind === 'PROJECT' && key.project_id !== caller.projectId)) {
    throw new Refusal(404, 'API key not found');
  }
  if (!mayRevoke(caller, key)) {
    throw new Refusal(403, 'an API key cannot revoke a key with more power than itself', 'INSUFFICIENT_API_KEY_SCOPE');
  }
  const outcome = await revokeApiKey(commands, { user_id: caller.userId, api_key_id: apiKeyId, revoked_by_api_key_id: caller.apiKeyId }, requester.actor);
  await requester.settled(outcome.position);
}
