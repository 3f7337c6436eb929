import type { Router } from '@koa/router';
import { mintApiKey, revokeOwnApiKey } from '../../app/api-key-minting.js';
import { listApiKeys } from '../../queries/identity.js';
import { CreateApiKeyBody } from '../../web/codecs/api-keys.js';
import { type ApiDependencies, requesterOf } from '../../web/dependencies.js';
import { gate } from '../../app/gate.js';
import { apiKeyBody } from '../../web/representations/api-keys.js';
import type { VigilState } from '../../web/state.js';
import { decode, pathId } from '../../web/validation.js';

export function apiKeyRoutes(router: Router<VigilState>, deps: ApiDependencies): void {
  const { readModels } = deps;

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
    const minted = await mintApiKey(deps, requesterOf(deps, ctx.state), body);
    ctx.body = { api_key: apiKeyBody(minted.api_key), key: minted.key };
  });

  /** A key may revoke itself, or any key of its user with no more power than itself (expiry aside). */
  router.delete('/api-keys/:apiKeyId', async (ctx) => {
    await revokeOwnApiKey(deps, requesterOf(deps, ctx.state), pathId(ctx.params['apiKeyId'], 'API key'));
    ctx.status = 204;
  });

}
