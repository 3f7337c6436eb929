import type { Router } from '@koa/router';
import { acceptInvitation, hashInvitationToken, revokeInvitation } from '../../app/invitations.js';
import { findInvitationByTokenHash, getInvitation, waitingInvitations } from '../../queries/invitations.js';
import { getUser } from '../../queries/identity.js';
import { getMember } from '../../queries/projects.js';
import { actorOf } from '../../web/actor.js';
import { AcceptInvitationBody, InviteBody } from '../../web/codecs/invitations.js';
import { type ApiDependencies, settled, requesterOf } from '../../web/dependencies.js';
import { HttpError } from '../../web/errors.js';
import { gate } from '../../app/gate.js';
import { invitationBody } from '../../web/representations/invitations.js';
import { memberBody } from '../../web/representations/projects.js';
import type { VigilState } from '../../web/state.js';
import { decode, pathId } from '../../web/validation.js';
import { MANAGE } from '../../app/project-changes.js';
import { countInvitation, invitationDependencies } from '../../web/invitations.js';
import { inviteToProject } from '../../app/project-invitations.js';

export function invitationRoutes(router: Router<VigilState>, deps: ApiDependencies): void {
  const { readModels, commands } = deps;
  const origin = (ctx: { protocol: string; host: string }) => `${ctx.protocol}://${ctx.host}`;

  router.get('/projects/:projectId/invitations', async (ctx) => {
    const projectId = pathId(ctx.params['projectId'], 'project');
    await gate(readModels, ctx.state.caller, MANAGE, projectId);
    const now = commands.clock();
    ctx.body = { invitations: (await waitingInvitations(readModels, projectId)).map((doc) => invitationBody(doc, now)) };
  });

  router.post('/projects/:projectId/invitations', async (ctx) => {
    const projectId = pathId(ctx.params['projectId'], 'project');
    await gate(readModels, ctx.state.caller, MANAGE, projectId);
    await countInvitation(deps, ctx.state.caller.userId);
    const { invitation, url, mail } = await inviteToProject(invitationDependencies(deps), requesterOf(deps, ctx.state), projectId, decode(InviteBody, ctx.request.body), origin(ctx));
    ctx.status = 201;
    ctx.body = { invitation: invitationBody(invitation, commands.clock()), url, emailed: mail.sent };
  });

  router.delete('/projects/:projectId/invitations/:invitationId', async (ctx) => {
    const projectId = pathId(ctx.params['projectId'], 'project');
    const invitationId = pathId(ctx.params['invitationId'], 'invitation');
    await gate(readModels, ctx.state.caller, MANAGE, projectId);
    const invitation = await getInvitation(readModels, invitationId);
    if (!invitation || invitation.project_id !== projectId) throw new HttpError(404, 'invitation not found');
    const outcome = await revokeInvitation(commands, { project_id: projectId, invitation_id: invitationId, revoked_by: ctx.state.caller.userId }, actorOf(ctx.state));
    await settled(deps, outcome.position, ctx.state);
    ctx.status = 204;
  });

  /** The key's own user accepts: only the account with the invited address can. */
  router.post('/invitations/accept', async (ctx) => {
    await gate(readModels, ctx.state.caller, { scope: 'read', accountKeyOnly: true }, null);
    const { token } = decode(AcceptInvitationBody, ctx.request.body);
    const tokenHash = hashInvitationToken(token);
    const invitation = await findInvitationByTokenHash(readModels, tokenHash);
    if (!invitation) throw new HttpError(404, 'invitation not found');
    const { userId } = ctx.state.caller;
    const outcome = await acceptInvitation(commands, { project_id: invitation.project_id, invitation_id: invitation.id, token_hash: tokenHash, user_id: userId }, actorOf(ctx.state));
    await settled(deps, outcome.position, ctx.state);
    const member = await getMember(readModels, invitation.project_id, userId);
    if (!member) throw new HttpError(404, 'member not found');
    ctx.body = { member: memberBody(member, (await getUser(readModels, userId)) ?? undefined) };
  });
}
