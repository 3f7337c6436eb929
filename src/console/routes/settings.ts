import * as t from 'io-ts';
import type { Context } from 'koa';
import type { ProjectDocument } from '../../../projections/projects.js';
import { actorOf } from '../../api/actor.js';
import { CreateApiKeyBody } from '../../api/codecs/api-keys.js';
import { ASSIGNABLE_ROLES, AddMemberBody, ChangeMemberBody } from '../../api/codecs/projects.js';
import { settled } from '../../api/dependencies.js';
import { HttpError } from '../../api/errors.js';
import { gate } from '../../api/gate.js';
import { mayRevoke, mintApiKey, ownsAProject, revokeOwnApiKey } from '../../api/routes/api-keys.js';
import { MANAGE as MANAGE_PROJECT, addProjectMember } from '../../api/routes/projects.js';
import { decode, pathId } from '../../api/validation.js';
import { changeMemberRole, removeMember } from '../../app/projects.js';
import { effectiveScopes, SCOPES } from '../../domain/access/scopes.js';
import { KEY_LIFETIME_DAYS } from '../../domain/identity/user.js';
import { getApiKey, listApiKeys } from '../../queries/identity.js';
import { getProject, projectDetails } from '../../queries/projects.js';
import { type ConsoleKit, type ConsoleRoutes, type ConsoleState, doneNotice, render } from '../routes.js';
import { type KeyRow, keyCreatedPage, keysPage, membersPage, revokeKeyPage } from '../pages/settings.js';

const READ = { scope: 'read' } as const;

/** What each settings POST did, shown once on the page it returns to. */
const DONE = {
  'key-revoked': 'API key revoked.',
  'member-added': 'Member added.',
  'role-changed': 'Role changed.',
  'member-removed': 'Member removed.',
} as const;

/** A form field a browser sends once, or several times (checkboxes of one name). */
const Repeated = t.union([t.string, t.array(t.string)]);
const KeyForm = t.intersection([t.type({ name: t.string, expires_in_days: t.string }), t.partial({ kind: t.string, scopes: Repeated })]);
const MemberForm = t.type({ email: t.string, role: t.string });
const RoleForm = t.type({ role: t.string });

/** A number typed into a form, as a number when it is one (the API's codec then says what is wrong with it). */
const numberOr = (text: string): number | string => (/^-?\d{1,9}$/.test(text.trim()) ? Number(text.trim()) : text);

/** The form's fields as the API's body takes them; what the codec refuses it names as the API would. */
function formBody<A>(ctx: Context, codec: t.Decoder<unknown, A>): A {
  return decode(codec, ctx.request.body, 'form');
}

const asList = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

function redirectDone(ctx: Context, path: string, done: keyof typeof DONE): void {
  ctx.status = 303;
  ctx.redirect(`${path}?done=${done}`);
}

/** Settings of a project: the viewer's API keys, members and roles (channels, groups and the project have files of their own). */
export const settingsRoutes: ConsoleRoutes = (kit: ConsoleKit) => {
  const { router, deps, signedIn, may, clock } = kit;
  const { readModels, commands } = deps;

  async function readableProject(ctx: Context & { state: ConsoleState }): Promise<ProjectDocument> {
    const projectId = pathId(ctx.params['projectId'], 'project');
    await gate(readModels, ctx.state.caller, READ, projectId);
    const project = await getProject(readModels, projectId);
    if (!project) throw new HttpError(404, 'project not found');
    ctx.set('Cache-Control', 'no-store');
    return project;
  }

  const frame = (ctx: Context & { state: ConsoleState }, project: ProjectDocument) => ({ viewer: ctx.state.viewer, project, notice: doneNotice(ctx, DONE) });
  const settingsPath = (projectId: string, page: string) => `/projects/${projectId}/settings/${page}`;

  router.get('/projects/:projectId/settings', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    ctx.status = 303;
    ctx.redirect(settingsPath(project.id, 'channels'));
  });

  async function keysView(ctx: Context & { state: ConsoleState }, project: ProjectDocument) {
    const { caller } = ctx.state;
    const now = clock();
    const mine = await listApiKeys(readModels, caller.userId, caller.kind === 'PROJECT' ? caller.projectId : null);
    const keys: KeyRow[] = mine
      .filter((k) => k.kind === 'ACCOUNT' || k.project_id === project.id)
      .map((key) => ({ key, isSession: key.id === caller.apiKeyId, canRevoke: mayRevoke(caller, key) }));
    const [canMintProjectKey, owner] = await Promise.all([
      may(caller, { scope: 'read', minimumRole: 'MANAGER' }, project.id),
      caller.kind === 'ACCOUNT' ? ownsAProject(readModels, caller.userId) : Promise.resolve(false),
    ]);
    const held = effectiveScopes(caller.kind, caller.scopes);
    const maxDays = Math.max(KEY_LIFETIME_DAYS.min, Math.min(KEY_LIFETIME_DAYS.max, Math.floor((Date.parse(caller.expiresAt) - now.getTime()) / 86_400_000)));
    return { ...frame(ctx, project), keys, accountScopes: owner ? SCOPES.filter((s) => held.has(s)) : [], canMintProjectKey, maxDays, now };
  }

  router.get('/projects/:projectId/settings/keys', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    render(ctx, keysPage(await keysView(ctx, project)));
  });

  router.post('/projects/:projectId/settings/keys', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    const form = formBody(ctx, KeyForm);
    const projectKey = form.kind === 'project';
    const body = decode(CreateApiKeyBody, {
      name: form.name.trim(),
      expires_in_days: numberOr(form.expires_in_days),
      ...(projectKey ? { project_id: project.id } : { scopes: asList(form.scopes) }),
    }, 'form');
    const minted = await mintApiKey(deps, ctx.state, body);
    // Shown in this answer only: nothing keeps the key where a later page could show it again.
    render(ctx, keyCreatedPage({ ...frame(ctx, project), notice: null, name: minted.api_key.name, key: minted.key, expiresAt: minted.api_key.expires_at }), 201);
  });

  async function revocableKey(ctx: Context & { state: ConsoleState }) {
    const key = await getApiKey(readModels, pathId(ctx.params['apiKeyId'], 'API key'));
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
    await revokeOwnApiKey(deps, ctx.state, apiKeyId);
    // Revoking the session's own key ends the session: the next page's check finds the key
    // revoked and sends the browser to sign in, saying why.
    redirectDone(ctx, settingsPath(project.id, 'keys'), 'key-revoked');
  });

  router.get('/projects/:projectId/settings/members', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    const [details] = await projectDetails(readModels, [project.id]);
    const members = (details?.members ?? []).map((m) => {
      const user = details!.users.get(m.user_id);
      return { userId: m.user_id, email: user?.email ?? m.user_id, name: user ? `${user.first_name} ${user.last_name}`.trim() : '', role: m.role, joinedAt: m.joined_at };
    });
    const canManage = await may(ctx.state.caller, MANAGE_PROJECT, project.id);
    render(ctx, membersPage({ ...frame(ctx, project), members, canManage, roles: ASSIGNABLE_ROLES }));
  });

  router.post('/projects/:projectId/settings/members', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    await gate(readModels, ctx.state.caller, MANAGE_PROJECT, project.id);
    const form = formBody(ctx, MemberForm);
    await addProjectMember(deps, ctx.state, project.id, decode(AddMemberBody, { email: form.email.trim(), role: form.role }, 'form'));
    redirectDone(ctx, settingsPath(project.id, 'members'), 'member-added');
  });

  router.post('/projects/:projectId/settings/members/:userId/role', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    await gate(readModels, ctx.state.caller, MANAGE_PROJECT, project.id);
    const userId = pathId(ctx.params['userId'], 'member');
    const { role } = decode(ChangeMemberBody, formBody(ctx, RoleForm), 'form');
    const outcome = await changeMemberRole(commands, { project_id: project.id, user_id: userId, role }, actorOf(ctx.state));
    await settled(deps, outcome.position);
    redirectDone(ctx, settingsPath(project.id, 'members'), 'role-changed');
  });

  router.post('/projects/:projectId/settings/members/:userId/remove', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    await gate(readModels, ctx.state.caller, MANAGE_PROJECT, project.id);
    const userId = pathId(ctx.params['userId'], 'member');
    const outcome = await removeMember(commands, { project_id: project.id, user_id: userId }, actorOf(ctx.state));
    await settled(deps, outcome.position);
    redirectDone(ctx, settingsPath(project.id, 'members'), 'member-removed');
  });
};
