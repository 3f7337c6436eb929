import type { Router } from '@koa/router';
import type * as t from 'io-ts';
import { addMember, changeMemberRole, createProject, deleteProject, removeMember, rotatePingKey, updateProject } from '../../app/projects.js';
import { deleteMonitor } from '../../app/monitor-deletion.js';
import { configureAutoProvisioning } from '../../app/auto-provisioning.js';
import { getUser, roleOf } from '../../queries/identity.js';
import { listMonitors } from '../../queries/monitors.js';
import { getMember, projectDetails, projectIdsOfUser } from '../../queries/projects.js';
import { actorOf } from '../../web/actor.js';
import { AddMemberBody, ChangeMemberBody, CreateProjectBody, UpdateProjectBody } from '../../web/codecs/projects.js';
import { type ApiDependencies, deletion, settled } from '../../web/dependencies.js';
import { HttpError, badRequest } from '../../web/errors.js';
import { gate } from '../../app/gate.js';
import { invitationBody } from '../../web/representations/invitations.js';
import { memberBody, projectBody } from '../../web/representations/projects.js';
import type { VigilState } from '../../web/state.js';
import { decode, pathId } from '../../web/validation.js';
import { inviteToProject } from './invitations.js';

export const MANAGE = { scope: 'manage_projects', accountKeyOnly: true, minimumRole: 'MANAGER' } as const;

/**
 * A member leaving: any role but the owner's (the domain refuses it), with an account key that may
 * manage projects. A member named by id is added without being asked, so each one may always undo it.
 */
export const LEAVE = { scope: 'manage_projects', accountKeyOnly: true } as const;

/** Adds a user, named by id, to the project with a role; the caller has passed the MANAGE gate. */
export async function addProjectMember(deps: ApiDependencies, state: VigilState, projectId: string, body: { user_id: string; role: t.TypeOf<typeof AddMemberBody>['role'] }) {
  const { readModels, commands } = deps;
  const userId = body.user_id;
  const user = await getUser(readModels, userId);
  if (!user) throw badRequest(`no user has the id ${body.user_id}`);
  const outcome = await addMember(commands, { project_id: projectId, user_id: userId, role: body.role }, actorOf(state));
  await settled(deps, outcome.position, state);
  const member = await getMember(readModels, projectId, userId);
  if (!member) throw new HttpError(404, 'member not found');
  return { member, user };
}

/** Who may create a project (and become its owner): any user, with an account key that may manage projects. */
export const CREATE = { scope: 'manage_projects', accountKeyOnly: true } as const;

/** Creates a project owned by the caller, as `POST /v1/projects` does; the caller has passed the CREATE gate. */
export async function newProject(deps: ApiDependencies, state: VigilState, body: t.TypeOf<typeof CreateProjectBody>): Promise<string> {
  const { projectId, position } = await createProject(deps.commands, { name: body.name, description: body.description ?? '', owner_id: state.caller.userId }, actorOf(state));
  await settled(deps, position, state);
  return projectId;
}

/** Who may delete a project: its owner, with an account key that has the destroy scope. */
export const DESTROY = { scope: 'destroy', accountKeyOnly: true, minimumRole: 'OWNER' } as const;

/** Changes a project as `PATCH /v1/projects/<id>` does; the caller has passed the MANAGE gate. */
export async function changeProject(deps: ApiDependencies, state: VigilState, projectId: string, patch: t.TypeOf<typeof UpdateProjectBody>): Promise<void> {
  const { auto_provisioning, ...body } = patch;
  // The setting first: refused (defaults that could make no monitor), it leaves the rest unchanged too.
  const configured = auto_provisioning ? await configureAutoProvisioning(deps.commands, { project_id: projectId, patch: auto_provisioning }, actorOf(state)) : null;
  const outcome = await updateProject(deps.commands, { project_id: projectId, ...body }, actorOf(state));
  await settled(deps, outcome.position ?? configured?.position ?? null, state);
}

/** Deletes a project and everything in it, as `DELETE /v1/projects/<id>` does; the caller has passed the DESTROY gate. */
export async function removeProject(deps: ApiDependencies, state: VigilState, projectId: string): Promise<void> {
  // Everything in the project goes with it: its monitors, and with them their pings and incidents.
  for (const monitor of await listMonitors(deps.readModels, projectId)) {
    await settled(deps, await deleteMonitor(deletion(deps), monitor.id, null, actorOf(state)), state);
  }
  const outcome = await deleteProject(deps.commands, { project_id: projectId }, actorOf(state));
  await settled(deps, outcome.position, state);
}

export function projectRoutes(router: Router<VigilState>, deps: ApiDependencies): void {
  const { readModels, commands } = deps;

  async function projectOr404(projectId: string, embedUsers: boolean) {
    const [details] = await projectDetails(readModels, [projectId]);
    if (!details) throw new HttpError(404, 'project not found');
    return projectBody(details, { embedUsers });
  }

  router.get('/projects', async (ctx) => {
    const { caller } = ctx.state;
    await gate(readModels, caller, { scope: 'read' }, null);
    const candidates = caller.kind === 'PROJECT' && caller.projectId ? [caller.projectId] : await projectIdsOfUser(readModels, caller.userId);
    const reachable = [];
    for (const projectId of candidates) if (await roleOf(readModels, projectId, caller.userId)) reachable.push(projectId);
    const details = await projectDetails(readModels, reachable);
    ctx.body = { projects: details.map((d) => projectBody(d, { embedUsers: false })) };
  });

  router.get('/projects/:projectId', async (ctx) => {
    const projectId = pathId(ctx.params['projectId'], 'project');
    await gate(readModels, ctx.state.caller, { scope: 'read' }, projectId);
    ctx.body = { project: await projectOr404(projectId, true) };
  });

  router.post('/projects', async (ctx) => {
    await gate(readModels, ctx.state.caller, CREATE, null);
    const projectId = await newProject(deps, ctx.state, decode(CreateProjectBody, ctx.request.body));
    ctx.status = 201;
    ctx.body = { project: await projectOr404(projectId, true) };
  });

  router.patch('/projects/:projectId', async (ctx) => {
    const projectId = pathId(ctx.params['projectId'], 'project');
    await gate(readModels, ctx.state.caller, MANAGE, projectId);
    await changeProject(deps, ctx.state, projectId, decode(UpdateProjectBody, ctx.request.body));
    ctx.body = { project: await projectOr404(projectId, true) };
  });

  router.delete('/projects/:projectId', async (ctx) => {
    const projectId = pathId(ctx.params['projectId'], 'project');
    await gate(readModels, ctx.state.caller, DESTROY, projectId);
    await removeProject(deps, ctx.state, projectId);
    ctx.status = 204;
  });

  router.post('/projects/:projectId/ping-key/rotate', async (ctx) => {
    const projectId = pathId(ctx.params['projectId'], 'project');
    await gate(readModels, ctx.state.caller, MANAGE, projectId);
    const outcome = await rotatePingKey(commands, { project_id: projectId }, actorOf(ctx.state));
    await settled(deps, outcome.position, ctx.state);
    ctx.body = { project: await projectOr404(projectId, true) };
  });

  router.post('/projects/:projectId/members', async (ctx) => {
    const projectId = pathId(ctx.params['projectId'], 'project');
    await gate(readModels, ctx.state.caller, MANAGE, projectId);
    const body = decode(AddMemberBody, ctx.request.body);
    const { user_id, email } = body;
    if ((user_id === undefined) === (email === undefined)) throw badRequest('give exactly one of user_id or email');
    if (email !== undefined) {
      // An email is invited, never looked up: the answer is the same whether or not it has an
      // account, so this cannot tell which addresses do (see docs/api.md).
      const { invitation, url, mail } = await inviteToProject(deps, ctx.state, projectId, { email, role: body.role }, `${ctx.protocol}://${ctx.host}`);
      ctx.status = 201;
      ctx.body = { invitation: invitationBody(invitation, commands.clock()), url, emailed: mail.sent };
      return;
    }
    if (user_id === undefined) throw badRequest('give exactly one of user_id or email');
    const { member, user } = await addProjectMember(deps, ctx.state, projectId, { user_id, role: body.role });
    ctx.status = 201;
    ctx.body = { member: memberBody(member, user) };
  });

  router.patch('/projects/:projectId/members/:userId', async (ctx) => {
    const projectId = pathId(ctx.params['projectId'], 'project');
    const userId = pathId(ctx.params['userId'], 'member');
    await gate(readModels, ctx.state.caller, MANAGE, projectId);
    const body = decode(ChangeMemberBody, ctx.request.body);
    const outcome = await changeMemberRole(commands, { project_id: projectId, user_id: userId, role: body.role }, actorOf(ctx.state));
    await settled(deps, outcome.position, ctx.state);
    const member = await getMember(readModels, projectId, userId);
    if (!member) throw new HttpError(404, 'member not found');
    ctx.body = { member: memberBody(member, (await getUser(readModels, userId)) ?? undefined) };
  });

  router.delete('/projects/:projectId/members/:userId', async (ctx) => {
    const projectId = pathId(ctx.params['projectId'], 'project');
    const userId = pathId(ctx.params['userId'], 'member');
    await gate(readModels, ctx.state.caller, userId === ctx.state.caller.userId ? LEAVE : MANAGE, projectId);
    const outcome = await removeMember(commands, { project_id: projectId, user_id: userId }, actorOf(ctx.state));
    await settled(deps, outcome.position, ctx.state);
    ctx.status = 204;
  });

}
