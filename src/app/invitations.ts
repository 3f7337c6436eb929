import { createHash } from 'node:crypto';
import { userStream } from '../domain/identity/user.js';
import { invitationAcceptanceDecider } from '../domain/projects/invitation-acceptance.js';
import type { InvitedRole } from '../domain/projects/invitations.js';
import { projectDecider, projectStream } from '../domain/projects/project.js';
import { type Actor, handleCommand, handleCommandOnStreams } from './command-handler.js';
import { type CommandContext, nowIso } from './context.js';
import { randomBase62 } from './random-tokens.js';

/** 43 base62 characters: about 256 random bits, the whole secret of an invitation link. */
const TOKEN_LENGTH = 43;
export const INVITATION_TOKEN_PATTERN = /^[0-9A-Za-z]{43}$/;

/** The token carries ~256 random bits, so a fast hash is safe (as for API keys): no dictionary reaches it. */
export function hashInvitationToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface IssuedInvitation {
  invitationId: string;
  /** The link's secret: in this answer only. */
  token: string;
  expiresAt: string;
  position: number | null;
}

export async function issueInvitation(
  context: CommandContext,
  input: { project_id: string; email: string; role: InvitedRole; invited_by: string },
  actor: Actor,
): Promise<IssuedInvitation> {
  const token = randomBase62(TOKEN_LENGTH);
  const invitationId = context.newId();
  const outcome = await handleCommand(
    context,
    projectStream(input.project_id),
    projectDecider,
    { ...input, type: 'IssueInvitation', invitation_id: invitationId, token_hash: hashInvitationToken(token), now: nowIso(context) },
    actor,
  );
  const issued = outcome.events.find((e) => e.type === 'InvitationIssued');
  if (!issued || issued.type !== 'InvitationIssued') throw new Error('invitation was not issued');
  return { invitationId, token, expiresAt: issued.data.expires_at, position: outcome.position };
}

export async function revokeInvitation(context: CommandContext, input: { project_id: string; invitation_id: string; revoked_by: string }, actor: Actor) {
  return handleCommand(context, projectStream(input.project_id), projectDecider, { ...input, type: 'RevokeInvitation', now: nowIso(context) }, actor);
}

/** Uses the invitation and adds `user_id` as a member, conditional on the project's and the user's streams as read. */
export async function acceptInvitation(
  context: CommandContext,
  input: { project_id: string; invitation_id: string; token_hash: string; user_id: string },
  actor: Actor,
): Promise<{ position: number | null }> {
  const outcome = await handleCommandOnStreams(
    context,
    [projectStream(input.project_id), userStream(input.user_id)],
    invitationAcceptanceDecider,
    { ...input, type: 'AcceptInvitation', member_id: context.newId(), now: nowIso(context) },
    actor,
  );
  return { position: outcome.position };
}
