import type { SmtpSettings } from '../notifications/senders.js';
import { getUser } from '../queries/identity.js';
import { getInvitation } from '../queries/invitations.js';
import { getProject } from '../queries/projects.js';
import { mailInvitation } from './invitation-mail.js';
import { issueInvitation } from './invitations.js';
import { Refusal } from './refusal.js';
import type { Requester, UseCaseDependencies } from './requester.js';

/** What inviting reads, appends and mails through; a mail not sent is logged. */
export interface InvitationDependencies extends UseCaseDependencies {
  smtp: SmtpSettings | null;
  logger: { warn(fields: object, message: string): void };
}

/** A role an invitation can offer. */
export type InvitedRole = Parameters<typeof issueInvitation>[1]['role'];

/** The link an invitation is accepted at, on this server's origin. */
export const invitationUrl = (origin: string, token: string) => `${origin}/invitations/${token}`;

/**
 * Invites `body.email` to the project with `body.role`; the caller has passed the MANAGE gate (the
 * domain checks again that the role is no higher than their own). The answer is the same whether
 * or not anyone uses the address: nothing is looked up by it. Mailed where SMTP is configured.
 * The edge counts it first against the inviter's hourly limit (src/web/invitations.ts).
 */
export async function inviteToProject(deps: InvitationDependencies, requester: Requester, projectId: string, body: { email: string; role: InvitedRole }, origin: string) {
  const { readModels, commands } = deps;
  const issued = await issueInvitation(commands, { project_id: projectId, email: body.email, role: body.role, invited_by: requester.caller.userId }, requester.actor);
  await requester.settled(issued.position);
  const invitation = await getInvitation(readModels, issued.invitationId);
  if (!invitation) throw new Refusal(503, 'the invitation is recorded but not yet readable; list the invitations again shortly');
  const url = invitationUrl(origin, issued.token);
  let mail: { sent: boolean; error?: string } = { sent: false };
  if (deps.smtp) {
    const [project, inviter] = await Promise.all([getProject(readModels, projectId), getUser(readModels, requester.caller.userId)]);
    const invitedBy = inviter ? `${inviter.first_name} ${inviter.last_name}`.trim() || inviter.email : 'A Vigil user';
    mail = await mailInvitation(deps.smtp, { to: invitation.email, projectName: project?.name ?? 'a project', invitedBy, role: invitation.role, url, expiresAt: invitation.expires_at });
    if (!mail.sent) deps.logger.warn({ invitationId: invitation.id, err: mail.error }, 'invitation mail not sent');
  }
  return { invitation, url, mail };
}
