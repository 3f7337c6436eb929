import type { DomainEvent } from '../decider.js';
import { conflict, invalid, notFound } from '../errors.js';
import { type Role, roleAtLeast } from '../access/roles.js';
import { normalizeEmail } from '../identity/email-claim.js';
import { addDays, isBefore } from '../time.js';

/** How long an invitation link works. */
export const INVITATION_LIFETIME_DAYS = 7;
/** Open invitations a project may have at once: enough for a team, too few to fill its stream. */
export const MAX_OPEN_INVITATIONS = 50;

/** The role an invitation gives: any but OWNER (a project has one owner, its creator). */
export type InvitedRole = Exclude<Role, 'OWNER'>;

/**
 * Invitations are recorded on the project's own stream: accepting one and adding the member are
 * one append there, so an invitation works once however many browsers open it at the same moment,
 * and the roles it is checked against (the inviter's, the revoker's) are the command side's own.
 * The link carries a random token; only its SHA-256 is recorded.
 */
export type InvitationEvent =
  | DomainEvent<'InvitationIssued', {
      project_id: string; invitation_id: string; email: string; role: InvitedRole; token_hash: string; invited_by: string; issued_at: string; expires_at: string;
    }>
  | DomainEvent<'InvitationAccepted', { project_id: string; invitation_id: string; user_id: string; accepted_at: string }>
  | DomainEvent<'InvitationRevoked', { project_id: string; invitation_id: string; revoked_by: string; revoked_at: string }>;

export type InvitationCommand =
  | { type: 'IssueInvitation'; project_id: string; invitation_id: string; email: string; role: InvitedRole; token_hash: string; invited_by: string; now: string }
  | { type: 'RevokeInvitation'; project_id: string; invitation_id: string; revoked_by: string; now: string };

export interface Invitation {
  email: string;
  role: InvitedRole;
  tokenHash: string;
  invitedBy: string;
  expiresAt: string;
  status: 'open' | 'accepted' | 'revoked';
  /** Who accepted it, once it is. */
  acceptedBy: string | null;
}

/** What a person sees of an invitation: open, or why it no longer works. Expired is computed, never recorded. */
export type InvitationStanding = 'open' | 'expired' | 'accepted' | 'revoked';

export function standingOf(invitation: Pick<Invitation, 'status' | 'expiresAt'>, now: string): InvitationStanding {
  if (invitation.status !== 'open') return invitation.status;
  return isBefore(now, invitation.expiresAt) ? 'open' : 'expired';
}

export function evolveInvitations(invitations: ReadonlyMap<string, Invitation>, event: InvitationEvent): ReadonlyMap<string, Invitation> {
  const next = new Map(invitations);
  switch (event.type) {
    case 'InvitationIssued': {
      const d = event.data;
      return next.set(d.invitation_id, { email: d.email, role: d.role, tokenHash: d.token_hash, invitedBy: d.invited_by, expiresAt: d.expires_at, status: 'open', acceptedBy: null });
    }
    case 'InvitationAccepted': {
      const found = next.get(event.data.invitation_id);
      return found ? next.set(event.data.invitation_id, { ...found, status: 'accepted', acceptedBy: event.data.user_id }) : invitations;
    }
    case 'InvitationRevoked': {
      const found = next.get(event.data.invitation_id);
      return found ? next.set(event.data.invitation_id, { ...found, status: 'revoked' }) : invitations;
    }
    default: {
      const exhaustive: never = event;
      return exhaustive;
    }
  }
}

/** The parts of the project's state an invitation is decided on. */
export interface InvitingProject {
  members: ReadonlyMap<string, Role>;
  invitations: ReadonlyMap<string, Invitation>;
}

/**
 * The inviter needs the MANAGER role or higher and gives no role above their own; one open
 * invitation per address at a time. Nothing here depends on whether the address has an account,
 * so issuing one tells the inviter nothing about who uses Vigil.
 */
export function decideInvitation(command: InvitationCommand, project: InvitingProject): InvitationEvent[] {
  switch (command.type) {
    case 'IssueInvitation': {
      if (project.invitations.has(command.invitation_id)) return [];
      const inviterRole = project.members.get(command.invited_by);
      if (!inviterRole || !roleAtLeast(inviterRole, 'MANAGER')) throw invalid('inviting needs the MANAGER role or higher on the project');
      if (!roleAtLeast(inviterRole, command.role)) throw invalid(`a ${inviterRole} cannot invite with the ${command.role} role: no role above their own`);
      const email = normalizeEmail(command.email);
      const open = [...project.invitations.values()].filter((i) => standingOf(i, command.now) === 'open');
      if (open.some((i) => i.email === email)) throw conflict(`${email} already has an open invitation to this project; revoke it to send another`);
      if (open.length >= MAX_OPEN_INVITATIONS) throw invalid(`a project can have at most ${MAX_OPEN_INVITATIONS} open invitations; revoke some first`);
      const { project_id, invitation_id, role, token_hash, invited_by, now } = command;
      return [{
        type: 'InvitationIssued',
        data: { project_id, invitation_id, email, role, token_hash, invited_by, issued_at: now, expires_at: addDays(now, INVITATION_LIFETIME_DAYS) },
      }];
    }
    case 'RevokeInvitation': {
      const invitation = project.invitations.get(command.invitation_id);
      if (!invitation) throw notFound('invitation not found');
      if (invitation.status === 'revoked') return [];
      if (invitation.status === 'accepted') throw conflict('this invitation has been accepted; remove the member instead');
      const revokerRole = project.members.get(command.revoked_by);
      if (!revokerRole || !roleAtLeast(revokerRole, 'MANAGER') || !roleAtLeast(revokerRole, invitation.role)) {
        throw invalid(`revoking an invitation with the ${invitation.role} role needs the ${roleAtLeast(invitation.role, 'MANAGER') ? invitation.role : 'MANAGER'} role or higher`);
      }
      const { project_id, invitation_id, revoked_by, now } = command;
      return [{ type: 'InvitationRevoked', data: { project_id, invitation_id, revoked_by, revoked_at: now } }];
    }
    default: {
      const exhaustive: never = command;
      return exhaustive;
    }
  }
}
