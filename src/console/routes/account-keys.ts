import { Refusal } from '../../app/refusal.js';
import type { Context } from 'koa';
import { HttpError } from '../../web/errors.js';
import { mayRevoke, mintApiKey, revokeOwnApiKey } from '../../app/api-key-minting.js';
import { pathId } from '../../web/validation.js';
import { getApiKey, listApiKeys } from '../../queries/identity.js';
import { projectDetails, projectIdsOfUser } from '../../queries/projects.js';
import { type KeyFormProblem, keyProblem } from '../pages/key-parts.js';
import { ACCOUNT_KEYS_PATH, accountKeyCreatedPage, accountKeysPage, accountRevokeKeyPage } from '../pages/account-keys.js';
import type { ConsoleKit, ConsoleRoutes, ConsoleState } from '../kit.js';
import { doneNotice } from '../done-notice.js';
import { render } from '../signed-in.js';
import { KeyForm, keptKeyForm, keyLimits, keyRequest } from './keys.js';
import { formBody, redirectDone } from './settings-common.js';
import { requesterOf } from '../../web/dependencies.js';

const DONE = { 'key-revoked': 'API key revoked.' } as const;

/** The person's own API keys, all of them, from the account: listed, made (shown once) and revoked, within what the REST API allows. */
export const accountKeyRoutes: ConsoleRoutes = (kit: ConsoleKit) => {
  const { router, deps, signedIn, may, clock } = kit;
  const { readModels } = deps;

  /** The projects the caller may bind a new key to: those they manage or own (a project key's session: its project, if so). */
  async function bindable(ctx: Context & { state: ConsoleState }) {
    const { caller } = ctx.state;
    const ids = caller.kind === 'PROJECT' && caller.projectId !== null ? [caller.projectId] : await projectIdsOfUser(readModels, caller.userId);
    const details = await projectDetails(readModels, ids);
    const allowed = await Promise.all(details.map((d) => may(caller, { scope: 'read', minimumRole: 'MANAGER' }, d.project.id)));
    return details.filter((_, i) => allowed[i]).map((d) => ({ id: d.project.id, name: d.project.name }));
  }

  async function showKeys(ctx: Context & { state: ConsoleState }, problem: KeyFormProblem | null = null, status = 200) {
    ctx.set('Cache-Control', 'no-store');
    const { caller } = ctx.state;
    const now = clock();
    const [mine, projects, limits] = await Promise.all([
      listApiKeys(readModels, caller.userId, caller.kind === 'PROJECT' ? caller.projectId : null),
      bindable(ctx),
      keyLimits(readModels, caller, now),
    ]);
    const names = new Map((await projectDetails(readModels, [...new Set(mine.flatMap((k) => (k.project_id ? [k.project_id] : [])))])).map((d) => [d.project.id, d.project.name]));
    const keys = mine.map((key) => ({ key, isSession: key.id === caller.apiKeyId, canRevoke: mayRevoke(caller, key), projectName: key.project_id ? (names.get(key.project_id) ?? null) : null }));
    render(ctx, accountKeysPage({ viewer: ctx.state.viewer, notice: problem ? null : doneNotice(ctx, DONE), keys, projects, ...limits, keySession: caller.apiKeyId !== null, now, problem }), status);
  }

  router.get(ACCOUNT_KEYS_PATH, signedIn, async (ctx) => showKeys(ctx));

  router.post(ACCOUNT_KEYS_PATH, signedIn, async (ctx) => {
    const form = formBody(ctx, KeyForm);
    let minted: Awaited<ReturnType<typeof mintApiKey>>;
    try {
      const projectId = form.kind === 'project' ? (form.project_id ?? '') : null;
      if (projectId === '') throw new HttpError(400, 'Choose the project the key is for');
      minted = await mintApiKey(deps, requesterOf(deps, ctx.state), keyRequest(form, projectId === null ? null : pathId(projectId, 'project')));
    } catch (error) {
      // Refused by the REST API's own checks: the form again, saying why beside the field, with what was typed.
      if (!(error instanceof Refusal) || (error.status !== 400 && error.status !== 403 && error.status !== 404)) throw error;
      return showKeys(ctx, { ...keyProblem(error.message), ...keptKeyForm(form) }, error.status);
    }
    ctx.set('Cache-Control', 'no-store');
    // Shown in this answer only: nothing keeps the key where a later page could show it again.
    render(ctx, accountKeyCreatedPage({ viewer: ctx.state.viewer, name: minted.api_key.name, key: minted.key, expiresAt: minted.api_key.expires_at }), 201);
  });

  async function revocableKey(ctx: Context & { state: ConsoleState; params?: Record<string, string> }) {
    const key = await getApiKey(readModels, pathId(ctx.params?.['apiKeyId'], 'API key'));
    if (!key || !mayRevoke(ctx.state.caller, key)) throw new HttpError(404, 'API key not found');
    return key;
  }

  router.get(`${ACCOUNT_KEYS_PATH}/:apiKeyId/revoke`, signedIn, async (ctx) => {
    const key = await revocableKey(ctx);
    render(ctx, accountRevokeKeyPage({ viewer: ctx.state.viewer, key, isSession: key.id === ctx.state.caller.apiKeyId }));
  });

  router.post(`${ACCOUNT_KEYS_PATH}/:apiKeyId/revoke`, signedIn, async (ctx) => {
    await revokeOwnApiKey(deps, requesterOf(deps, ctx.state), pathId(ctx.params['apiKeyId'], 'API key'));
    // Revoking the session's own key ends the session: the next page sends the browser to sign in, saying why.
    redirectDone(ctx, ACCOUNT_KEYS_PATH, 'key-revoked');
  });
};
