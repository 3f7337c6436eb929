import type { Router } from '@koa/router';
import type * as t from 'io-ts';
import type { ApiKeyDocument } from '../../../projections/api-keys.js';
import type { Caller } from '../../domain/access/authorize.js';
import type { ReadModelStore } from '../../readstore/read-model-store.js';
import { issueApiKey, revokeApiKey } from '../../app/identity.js';
import { dominates, refuseMint } from '../../domain/access/key-power.js';
import { addDays } from '../../domain/time.js';
import { getApiKey, listApiKeys, roleOf } from '../../queries/identity.js';
import { actorOf } from '../../web/actor.js';
import { CreateApiKeyBody } from '../../web/codecs/api-keys.js';
import { type ApiDependencies, settled } from '../../web/dependencies.js';
import { HttpError, badRequest } from '../../web/errors.js';
import { gate } from '../../app/gate.js';
import { apiKeyBody } from '../../web/representations/api-keys.js';
import type { VigilState } from '../../web/state.js';
import { decode, pathId } from '../../web/validation.js';

/**
 * A new key for the caller's user: never more power than the caller's own key (scopes, project,
 * expiry), project keys only from the project's Owners and Managers. The key itself is in the
 * answer this once.
 */
export async function mintApiKey(deps: ApiDependencies, state: VigilState, body: t.TypeOf<typeof CreateApiKeyBody>) {
  const { readModels, commands } = deps;
  const { caller } = state;
  await gate(readModels, caller, { scope: 'read' }, null);
  const projectId = body.project_id ?? null;
  if (projectId !== null && body.scopes !== undefined) {
    throw badRequest('scopes cannot be chosen for a project-scoped key: it always has read and manage_monitors');
  }
  const wanted = {
    kind: projectId === null ? ('ACCOUNT' as const) : ('PROJECT' as const),
    scopes: [...new Set(body.scopes ?? [])],
    projectId,
    expiresAt: addDays(commands.clock().toISOString(), body.expires_in_days),
  };
  const role = projectId === null ? null : await gate(readModels, caller, { scope: 'read' }, projectId);
  const refusal = refuseMint(caller, wanted, role);
  if (refusal) throw new HttpError(refusal.status, refusal.message, refusal.code);
  if (wanted.kind === 'ACCOUNT' && !(await ownsAProject(readModels, caller.userId))) {
    throw new HttpError(403, 'account-scoped keys are created by users who own at least one project');
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
    actorOf(state),
  );
  await settled(deps, issued.position, state);
  const { api_key_id: id, ...fields } = issued.event;
  return { api_key: apiKeyBody({ id, ...fields, revoked_at: null, last_used_at: null }), key: issued.key };
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
export async function revokeOwnApiKey(deps: ApiDependencies, state: VigilState, apiKeyId: string): Promise<void> {
  const { readModels, commands } = deps;
  const { caller } = state;
  await gate(readModels, caller, { scope: 'read' }, null);
  const key = await getApiKey(readModels, apiKeyId);
  if (!key || key.user_id !== caller.userId || (caller.kind === 'PROJECT' && key.project_id !== caller.projectId)) {
    throw new HttpError(404, 'API key not found');
  }
  if (!mayRevoke(caller, key)) {
    throw new HttpError(403, 'an API key cannot revoke a key with more power than itself', 'INSUFFICIENT_API_KEY_SCOPE');
  }
  const outcome = await revokeApiKey(commands, { user_id: caller.userId, api_key_id: apiKeyId, revoked_by_api_key_id: caller.apiKeyId }, actorOf(state));
  await settled(deps, outcome.position, state);
}

export function apiKeyRoutes(router: Router<VigilState>, deps: ApiDependencies): void {
  const { readModels, commands } = deps;

  /** A user's own keys; a project-scoped key sees only those bound to its project. */
  router.get('/api-keys', async (ctx) => {
    const { caller } = ctx.state;
    await gate(readModels, caller, { scope: 'read' }, null);
    const keys = await listApiKeys(readModels, caller.userId, caller.kind === 'PROJECT' ? caller.projectId : null);
    ctx.body = { api_keys: keys.map(apiKeyBody) };
  });

  router.post('/api-keys', async (ctx) => {
    const body = decode(CreateApiKeyBody, ctx.request.body);
    ctx.status = 201;
    ctx.body = await mintApiKey(deps, ctx.state, body);
  });

  /** A key may revoke itself, or any key of its user with no more power than itself (expiry aside). */
  router.delete('/api-keys/:apiKeyId', async (ctx) => {
    await revokeOwnApiKey(deps, ctx.state, pathId(ctx.params['apiKeyId'], 'API key'));
    ctx.status = 204;
  });

}
