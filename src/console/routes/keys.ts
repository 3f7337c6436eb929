import { Refusal } from '../../app/refusal.js';
import * as t from 'io-ts';
import type { Context } from 'koa';
import type { ProjectDocument } from '../../../projections/projects.js';
import { CreateApiKeyBody } from '../../web/codecs/api-keys.js';
import { HttpError } from '../../web/errors.js';
import { mayRevoke, mintApiKey, ownsAProject, revokeOwnApiKey } from '../../app/api-key-minting.js';
import { decode, pathId } from '../../web/validation.js';
import type { Caller } from '../../domain/access/authorize.js';
import { SCOPES, type Scope, effectiveScopes } from '../../domain/access/scopes.js';
import type { ReadModelStore } from '../../readstore/read-model-store.js';
import { KEY_LIFETIME_DAYS } from '../../domain/identity/user.js';
import { getApiKey, listApiKeys } from '../../queries/identity.js';
import type { ConsoleKit, ConsoleRoutes, ConsoleState } from '../kit.js';
import { render } from '../signed-in.js';
import { type KeyRow, keyCreatedPage, keysPage, revokeKeyPage } from '../pages/keys.js';
import { keyProblem } from '../pages/key-parts.js';
import { asList, formBody, numberOr, readableProject as readableProjectOf, redirectDone, settingsFrame, settingsPath } from './settings-common.js';
import { requesterOf } from '../../web/dependencies.js';

/** What each keys POST did, shown once on the page it returns to. */
const DONE = {
  'key-revoked': 'API key revoked.',
} as const;

/** A form field a browser sends once, or several times (checkboxes of one name). */
const Repeated = t.union([t.string, t.array(t.string)]);
export const KeyForm = t.intersection([t.type({ name: t.string, expires_in_days: t.string }), t.partial({ kind: t.string, scopes: Repeated, project_id: t.string })]);

/** The form's answer as the REST API's request: a project key for `projectId`, else an account key with the scopes ticked. */
export function keyRequest(form: t.TypeOf<typeof KeyForm>, projectId: string | null) {
  return decode(CreateApiKeyBody, {
    name: form.name.trim(),
    expires_in_days: numberOr(form.expires_in_days),
    ...(form.kind === 'project' && projectId !== null ? { project_id: projectId } : { scopes: asList(form.scopes) }),
  }, 'form');
}

/** What was typed and ticked in the key form, to show it again with a problem. */
export function keptKeyForm(form: t.TypeOf<typeof KeyForm>) {
  return { name: form.name, days: form.expires_in_days, kind: form.kind === 'project' ? 'project' as const : 'account' as const, scopes: asList(form.scopes), projectId: form.project_id ?? null };
}

/**
 * What a new key made by this caller may be, as mintApiKey will check it: the account scopes it
 * may have (none unless the user owns a project; only those the caller holds) and its longest
 * lifetime (a person's session: any allowed; a key's: none that outlives the key).
 */
export async function keyLimits(readModels: ReadModelStore, caller: Caller, now: Date): Promise<{ accountScopes: Scope[]; maxDays: number }> {
  const owner = caller.kind === 'ACCOUNT' ? await ownsAProject(readModels, caller.userId) : false;
  const held = effectiveScopes(caller.kind, caller.scopes);
  const maxDays = caller.apiKeyId === null ? KEY_LIFETIME_DAYS.max : Math.max(KEY_LIFETIME_DAYS.min, Math.min(KEY_LIFETIME_DAYS.max, Math.floor((Date.parse(caller.expiresAt) - now.getTime()) / 86_400_000)));
  return { accountScopes: owner ? SCOPES.filter((s) => held.has(s)) : [], maxDays };
}

/** The viewer's own API keys, from a project's settings: listed, made (shown once) and revoked. */
export const keyRoutes: ConsoleRoutes = (kit: ConsoleKit) => {
  const { router, deps, signedIn, may, clock } = kit;
  const { readModels } = deps;
  const readableProject = (ctx: Context & { state: ConsoleState }) => readableProjectOf(deps, ctx);
  const frame = (ctx: Context & { state: ConsoleState }, project: ProjectDocument) => settingsFrame(ctx, project, DONE);

  async function keysView(ctx: Context & { state: ConsoleState }, project: ProjectDocument) {
    const { caller } = ctx.state;
    const now = clock();
    const mine = await listApiKeys(readModels, caller.userId, caller.kind === 'PROJECT' ? caller.projectId : null);
    const keys: KeyRow[] = mine
      .filter((k) => k.kind === 'ACCOUNT' || k.project_id === project.id)
      .map((key) => ({ key, isSession: key.id === caller.apiKeyId, canRevoke: mayRevoke(caller, key) }));
    const [canMintProjectKey, limits] = await Promise.all([may(caller, { scope: 'read', minimumRole: 'MANAGER' }, project.id), keyLimits(readModels, caller, now)]);
    return { ...frame(ctx, project), keys, ...limits, canMintProjectKey, now };
  }

  router.get('/projects/:projectId/settings/keys', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    render(ctx, keysPage(await keysView(ctx, project)));
  });

  router.post('/projects/:projectId/settings/keys', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    const form = formBody(ctx, KeyForm);
    let minted: Awaited<ReturnType<typeof mintApiKey>>;
    try {
      minted = await mintApiKey(deps, requesterOf(deps, ctx.state), keyRequest(form, project.id));
    } catch (error) {
      // Refused by the REST API's own checks: the form again, saying why beside the field, with what was typed.
      if (!(error instanceof Refusal) || (error.status !== 400 && error.status !== 403)) throw error;
      const problem = { ...keyProblem(error.message), ...keptKeyForm(form) };
      render(ctx, keysPage({ ...(await keysView(ctx, project)), notice: null, keyProblem: problem }), error.status);
      return;
    }
    // Shown in this answer only: nothing keeps the key where a later page could show it again.
    render(ctx, keyCreatedPage({ ...frame(ctx, project), notice: null, name: minted.api_key.name, key: minted.key, expiresAt: minted.api_key.expires_at }), 201);
  });

  async function revocableKey(ctx: Context & { state: ConsoleState; params?: Record<string, string> }) {
    const key = await getApiKey(readModels, pathId(ctx.params?.['apiKeyId'], 'API key'));
    if (!key || !mayRevoke(ctx.state.caller, key)) throw new HttpError(404, 'API key not found');
    return key;
  }

  router.get('/projects/:projectId/settings/keys/:apiKeyId/revoke', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    const key = await revocableKey(ctx);
    render(ctx, revokeKeyPage({ ...frame(ctx, project), key, isSession: key.id === ctx.state.caller.apiKeyId }));
  });

  router.post('/projects/:projectId/settings/keys/:apiKeyId/revoke', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    const apiKeyId = pathId(ctx.params['apiKeyId'], 'API key');
    await revokeOwnApiKey(deps, requesterOf(deps, ctx.state), apiKeyId);
    // Revoking the session's own key ends the session: the next page's check finds the key
    // revoked and sends the browser to sign in, saying why.
    redirectDone(ctx, settingsPath(project.id, 'keys'), 'key-revoked');
  });
};
