import type { Router } from '@koa/router';
import type * as t from 'io-ts';
import { acceptInvitation, hashInvitationToken, issueInvitation, revokeInvitation } from '../../app/invitations.js';
import { mailInvitation } from '../../app/invitation-mail.js';
import { findInvitationByTokenHash, getInvitation, waitingInvitations } from '../../queries/invitations.js';
import { getUser } from '../../queries/identity.js';
import { getMember, getProject } from '../../queries/projects.js';
import { actorOf } from '../../web/actor.js';
import { AcceptInvitationBody, InviteBody } from '../../web/codecs/invitations.js';
import { type ApiDependencies, settled } from '../../web/dependencies.js';
import { HttpError } from '../../web/errors.js';
import { gate } from '../../app/gate.js';
import { RequestLimit } from '../../web/rate-limit.js';
import { invitationBody } from '../../web/representations/invitations.js';
import { memberBody } from '../../web/representations/projects.js';
import type { VigilState } from '../../web/state.js';
import { decode, pathId } from '../../web/validation.js';
import { MANAGE } from './projects.js';

/** Invitations each user may issue in an hour: a team's worth, not a list of addresses. */
export const INVITATION_LIMIT = { requests: 30, windowSeconds: 3600 } as const;

const limits = new WeakMap<object, RequestLimit>();

async function countInvitation(deps: ApiDependencies, userId: string): Promise<void> {
  let limit = limits.get(deps);
  if (!limit) {
    limit = new RequestLimit(INVITATION_LIMIT, (retryAfter) => `invitations can be issued ${INVITATION_LIMIT.requests} times an hour; retry after ${retryAfter} s`);
    limits.set(deps, limit);
  }
  await limit.take(`user:${userId}`);
}

/** The link an invitation is accepted at, on this server's origin. */
export const invitationUrl = (origin: string, token: string) => `${origin}/invitations/${token}`;

/**
 * Invites `body.email` to the project with `body.role`; the caller has passed the MANAGE gate (the
 * domain checks again that the role is no higher than their own). The answer is the same whether
 * or not anyone uses the address: nothing is looked up by it. Mailed where SMTP is configured.
 */
export async function inviteToProject(deps: ApiDependencies, state: VigilState, projectId: string, body: t.TypeOf<typeof InviteBody>, origin: string) {
  const { readModels, commands } = deps;
  await countInvitation(deps, state.caller.userId);
  const issued = await issueInvitation(commands, { project_id: projectId, email: body.email, role: body.role, invited_by: state.caller.userId }, actorOf(state));
  await settled(deps, issued.position, state);
  const invitation = await getInvitation(readModels, issued.invitationId);
  if (!invitation) throw new HttpError(503, 'the invitation is recorded but not yet readable; list the invitations again shortly');
  const url = invitationUrl(origin, issued.token);
  let mail: { sent: boolean; error?: string } = { sent: false };
  if (deps.config.smtp) {
    const [project, inviter] = await Promise.all([getProject(readModels, projectId), getUser(readModels, state.caller.userId)]);
    const invitedBy = inviter ? `${inviter.first_name} ${inviter.last_name}`.trim() || inviter.email : 'A Vigil user';
    mail = await mailInvitation(deps.config.smtp, { to: invitation.email, projectName: project?.name ?? 'a project', invitedBy, role: invitation.role, url, expiresAt: invitation.expires_at });
    if (!mail.sent) deps.logger.warn({ invitationId: invitation.id, err: mail.error }, 'invitation mail not sent');
  }
  return { invitation, url, mail };
}

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
    const { invitation, url, mail } = await inviteToProject(deps, ctx.state, projectId, decode(InviteBody, ctx.request.body), origin(ctx));
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
