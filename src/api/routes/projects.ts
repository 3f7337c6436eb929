import type { Router } from '@koa/router';
import { changeMemberRole, removeMember, rotatePingKey } from '../../app/projects.js';
import { getUser, roleOf } from '../../queries/identity.js';
import { getMember, projectDetails, projectIdsOfUser } from '../../queries/projects.js';
import { actorOf } from '../../web/actor.js';
import { AddMemberBody, ChangeMemberBody, CreateProjectBody, UpdateProjectBody } from '../../web/codecs/projects.js';
import { type ApiDependencies, settled, requesterOf } from '../../web/dependencies.js';
import { HttpError, badRequest } from '../../web/errors.js';
import { gate } from '../../app/gate.js';
import { invitationBody } from '../../web/representations/invitations.js';
import { memberBody, projectBody } from '../../web/representations/projects.js';
import type { VigilState } from '../../web/state.js';
import { decode, pathId } from '../../web/validation.js';
import { countInvitation, invitationDependencies } from '../../web/invitations.js';
import { inviteToProject } from '../../app/project-invitations.js';
import { CREATE, MANAGE, DESTROY, LEAVE, newProject, changeProject, removeProject, addProjectMember } from '../../app/project-changes.js';

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
    const projectId = await newProject(deps, requesterOf(deps, ctx.state), decode(CreateProjectBody, ctx.request.body));
    ctx.status = 201;
    ctx.body = { project: await projectOr404(projectId, true) };
  });

  router.patch('/projects/:projectId', async (ctx) => {
    const projectId = pathId(ctx.params['projectId'], 'project');
    await gate(readModels, ctx.state.caller, MANAGE, projectId);
    await changeProject(deps, requesterOf(deps, ctx.state), projectId, decode(UpdateProjectBody, ctx.request.body));
    ctx.body = { project: await projectOr404(projectId, true) };
  });

  router.delete('/projects/:projectId', async (ctx) => {
    const projectId = pathId(ctx.params['projectId'], 'project');
    await gate(readModels, ctx.state.caller, DESTROY, projectId);
    await removeProject(deps, requesterOf(deps, ctx.state), projectId);
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
      await countInvitation(deps, ctx.state.caller.userId);
      const { invitation, url, mail } = await inviteToProject(invitationDependencies(deps), requesterOf(deps, ctx.state), projectId, { email, role: body.role }, `${ctx.protocol}://${ctx.host}`);
      ctx.status = 201;
      ctx.body = { invitation: invitationBody(invitation, commands.clock()), url, emailed: mail.sent };
      return;
    }
    if (user_id === undefined) throw badRequest('give exactly one of user_id or email');
    const { member, user } = await addProjectMember(deps, requesterOf(deps, ctx.state), projectId, { user_id, role: body.role });
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
