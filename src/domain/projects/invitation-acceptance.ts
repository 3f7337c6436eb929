import type { Decider } from '../decider.js';
import { conflict, invalid, notFound } from '../errors.js';
import { normalizeEmail } from '../identity/email-claim.js';
import type { UserEvent } from '../identity/user.js';
import { standingOf } from './invitations.js';
import { type ProjectEvent, type ProjectState, projectDecider } from './project.js';

export interface AcceptInvitation {
  type: 'AcceptInvitation';
  project_id: string;
  invitation_id: string;
  /** SHA-256 of the token the link carried: it must be the invitation's. */
  token_hash: string;
  user_id: string;
  member_id: string;
  now: string;
}

export interface AcceptanceState {
  project: ProjectState;
  /** The accepting user, as their own stream says: the invited address must be theirs. */
  user: { registered: boolean; email: string | null };
}

/**
 * Accepting reads two streams, the project's and the accepting user's, and writes to the
 * project's: the invitation is used and the member added in one append, conditional on both
 * streams as read. An invitation names an address, and only the account with that address joins
 * with it: a link passed on, or opened in a browser signed in as someone else, lets no other
 * account in.
 */
export const invitationAcceptanceDecider: Decider<AcceptInvitation, AcceptanceState, ProjectEvent | UserEvent> = {
  initialState: () => ({ project: projectDecider.initialState(), user: { registered: false, email: null } }),

  evolve(state, event) {
    switch (event.type) {
      case 'UserRegistered':
        return { ...state, user: { registered: true, email: normalizeEmail(event.data.email) } };
      case 'ApiKeyCreated':
      case 'ApiKeyRevoked':
        return state;
      default:
        // Everything else on these two streams is the project's (a user's stream may hold events
        // this decision does not read: they change nothing here).
        return isProjectEvent(event) ? { ...state, project: projectDecider.evolve(state.project, event) } : state;
    }
  },

  decide(command, { project, user }) {
    const invitation = project.status === 'active' ? project.invitations.get(command.invitation_id) : undefined;
    if (!invitation || invitation.tokenHash !== command.token_hash) throw notFound('invitation not found');
    const standing = standingOf(invitation, command.now);
    if (standing === 'accepted') {
      // The same person's second click, while still a member: nothing more to do. Removed since,
      // they are not let back in by the same link.
      if (invitation.acceptedBy === command.user_id && project.members.has(command.user_id)) return [];
      throw conflict('this invitation has already been used');
    }
    if (standing === 'revoked') throw conflict('this invitation has been revoked');
    if (standing === 'expired') throw invalid('this invitation has expired');
    if (!user.registered) throw notFound('user not found');
    if (user.email !== invitation.email) throw invalid('this invitation is for another email address');
    const { project_id, invitation_id, user_id, member_id, now } = command;
    const accepted: ProjectEvent = { type: 'InvitationAccepted', data: { project_id, invitation_id, user_id, accepted_at: now } };
    // A member already (added another way since): the invitation is used, their role stays as it is.
    if (project.members.has(user_id)) return [accepted];
    return [accepted, { type: 'ProjectMemberAdded', data: { project_id, member_id, user_id, role: invitation.role, joined_at: now } }];
  },
};

/** The project's event types, checked by the compiler to name each once. */
const PROJECT_EVENT_TYPES: Readonly<Record<ProjectEvent['type'], true>> = {
  ProjectCreated: true, ProjectUpdated: true, ProjectMemberAdded: true, ProjectMemberRoleChanged: true, ProjectMemberRemoved: true, ProjectPingKeyRotated: true,
  ProjectBadgeKeyIssued: true, ProjectDeleted: true, ProjectAutoProvisioningConfigured: true, MonitorAutoProvisioned: true, ProjectMonitorRemoved: true,
  ProjectMonitorStreamsDeleted: true, InvitationIssued: true, InvitationAccepted: true, InvitationRevoked: true,
};

function isProjectEvent(event: ProjectEvent | UserEvent): event is ProjectEvent {
  return Object.hasOwn(PROJECT_EVENT_TYPES, event.type);
}
