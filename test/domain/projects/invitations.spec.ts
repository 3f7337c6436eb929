import { type AcceptInvitation, invitationAcceptanceDecider } from '../../../src/domain/projects/invitation-acceptance.js';
import { MAX_OPEN_INVITATIONS } from '../../../src/domain/projects/invitations.js';
import { type ProjectEvent, projectDecider } from '../../../src/domain/projects/project.js';
import type { UserEvent } from '../../../src/domain/identity/user.js';
import { deciderSpec } from '../../support/decider.js';

const project = deciderSpec(projectDecider);
const acceptance = deciderSpec(invitationAcceptanceDecider);
const now = '2026-11-21T10:00:00.000Z';
const inAWeek = '2026-11-28T10:00:00.000Z';
const project_id = 'p-1';

const created: ProjectEvent[] = [
  { type: 'ProjectCreated', data: { project_id, name: 'Billing', description: '', owner_id: 'u-owner', ping_key: 'pk1', created_at: now } },
  { type: 'ProjectMemberAdded', data: { project_id, member_id: 'm-owner', user_id: 'u-owner', role: 'OWNER', joined_at: now } },
  { type: 'ProjectMemberAdded', data: { project_id, member_id: 'm-manager', user_id: 'u-manager', role: 'MANAGER', joined_at: now } },
  { type: 'ProjectMemberAdded', data: { project_id, member_id: 'm-member', user_id: 'u-member', role: 'MEMBER', joined_at: now } },
];
const issued: ProjectEvent = {
  type: 'InvitationIssued',
  data: { project_id, invitation_id: 'i-1', email: 'new@example.com', role: 'MEMBER', token_hash: 'h-1', invited_by: 'u-manager', issued_at: now, expires_at: inAWeek },
};
const invite = (over: Partial<{ invitation_id: string; email: string; role: 'READONLY' | 'MEMBER' | 'MANAGER'; invited_by: string; now: string }> = {}) => ({
  type: 'IssueInvitation' as const, project_id, invitation_id: 'i-1', email: 'new@example.com', role: 'MEMBER' as const, token_hash: 'h-1', invited_by: 'u-manager', now, ...over,
});
const registered = (user_id: string, email: string): UserEvent => ({ type: 'UserRegistered', data: { user_id, email, first_name: 'N', last_name: 'U', registered_at: now } });
const accept = (over: Partial<AcceptInvitation> = {}): AcceptInvitation => ({
  type: 'AcceptInvitation', project_id, invitation_id: 'i-1', token_hash: 'h-1', user_id: 'u-new', member_id: 'm-new', now, ...over,
});

describe('Invitations', () => {
  describe('issuing', () => {
    it('records the address (lower-cased), the role, the token hash, who invited and an expiry 7 days on', () =>
      project.given(created).when(invite({ email: ' New@Example.COM ' })).then([issued]));

    it('lets the OWNER invite a MANAGER', () =>
      project.given(created).when(invite({ invited_by: 'u-owner', role: 'MANAGER' })).thenEmits(['InvitationIssued']));

    it('lets a MANAGER invite a MANAGER, no role above their own', () =>
      project.given(created).when(invite({ role: 'MANAGER' })).thenEmits(['InvitationIssued']));

    it('refuses a MEMBER, and anyone not a member', () => {
      project.given(created).when(invite({ invited_by: 'u-member', role: 'READONLY' })).thenRefuses('invalid', /MANAGER role or higher/);
      project.given(created).when(invite({ invited_by: 'u-stranger' })).thenRefuses('invalid', /MANAGER role or higher/);
    });

    it('refuses a MANAGER who lost the role since (the role is the command side\'s, not a page\'s)', () =>
      project.given([...created, { type: 'ProjectMemberRoleChanged', data: { project_id, user_id: 'u-manager', role: 'MEMBER', changed_at: now } }])
        .when(invite()).thenRefuses('invalid', /MANAGER role or higher/));

    it('refuses a second open invitation to the same address', () =>
      project.given([...created, issued]).when(invite({ invitation_id: 'i-2', email: 'NEW@example.com' })).thenRefuses('conflict', /already has an open invitation/));

    it('invites the same address again once the first has expired or been revoked', () => {
      project.given([...created, issued]).when(invite({ invitation_id: 'i-2', now: inAWeek })).thenEmits(['InvitationIssued']);
      project.given([...created, issued, { type: 'InvitationRevoked', data: { project_id, invitation_id: 'i-1', revoked_by: 'u-owner', revoked_at: now } }])
        .when(invite({ invitation_id: 'i-2' })).thenEmits(['InvitationIssued']);
    });

    it('records nothing for a repeated command (a retried request)', () =>
      project.given([...created, issued]).when(invite()).then([]));

    it(`keeps at most ${MAX_OPEN_INVITATIONS} open at once`, () => {
      const many: ProjectEvent[] = Array.from({ length: MAX_OPEN_INVITATIONS }, (_, i) => ({
        type: 'InvitationIssued', data: { ...issued.data, invitation_id: `i-${i + 10}`, email: `p${i}@example.com` },
      }));
      project.given([...created, ...many]).when(invite()).thenRefuses('invalid', /at most 50 open invitations/);
    });

    it('refuses on a deleted project', () =>
      project.given([...created, { type: 'ProjectDeleted', data: { project_id, deleted_at: now } }]).when(invite()).thenRefuses('not_found', /project not found/));
  });

  describe('revoking', () => {
    const revoke = (revoked_by = 'u-owner') => ({ type: 'RevokeInvitation' as const, project_id, invitation_id: 'i-1', revoked_by, now });

    it('revokes an open invitation, saying who did', () =>
      project.given([...created, issued]).when(revoke()).then([{ type: 'InvitationRevoked', data: { project_id, invitation_id: 'i-1', revoked_by: 'u-owner', revoked_at: now } }]));

    it('revokes an expired one too (it leaves the list)', () =>
      project.given([...created, issued]).when({ ...revoke(), now: inAWeek }).thenEmits(['InvitationRevoked']));

    it('records nothing the second time', () =>
      project.given([...created, issued, { type: 'InvitationRevoked', data: { project_id, invitation_id: 'i-1', revoked_by: 'u-owner', revoked_at: now } }]).when(revoke()).then([]));

    it('refuses a MEMBER, an unknown invitation, and one already accepted', () => {
      project.given([...created, issued]).when(revoke('u-member')).thenRefuses('invalid', /needs the MANAGER role/);
      project.given(created).when(revoke()).thenRefuses('not_found', /invitation not found/);
      project.given([...created, issued, { type: 'InvitationAccepted', data: { project_id, invitation_id: 'i-1', user_id: 'u-new', accepted_at: now } }])
        .when(revoke()).thenRefuses('conflict', /accepted; remove the member/);
    });
  });

  describe('accepting', () => {
    const open: (ProjectEvent | UserEvent)[] = [...created, issued, registered('u-new', 'new@example.com')];

    it('uses the invitation and adds the member with its role, in one decision', () =>
      acceptance.given(open).when(accept()).then([
        { type: 'InvitationAccepted', data: { project_id, invitation_id: 'i-1', user_id: 'u-new', accepted_at: now } },
        { type: 'ProjectMemberAdded', data: { project_id, member_id: 'm-new', user_id: 'u-new', role: 'MEMBER', joined_at: now } },
      ]));

    it('works once: another account then finds it used; the same person clicking twice changes nothing, but once removed is not let back in', () => {
      const used = [
        ...open,
        { type: 'InvitationAccepted', data: { project_id, invitation_id: 'i-1', user_id: 'u-new', accepted_at: now } } as ProjectEvent,
        { type: 'ProjectMemberAdded', data: { project_id, member_id: 'm-new', user_id: 'u-new', role: 'MEMBER', joined_at: now } } as ProjectEvent,
      ];
      acceptance.given(used).when(accept()).then([]);
      acceptance.given([...used, { type: 'ProjectMemberRemoved', data: { project_id, user_id: 'u-new', removed_at: now } }]).when(accept()).thenRefuses('conflict', /already been used/);
      acceptance.given([...used, registered('u-other', 'new@example.com')]).when(accept({ user_id: 'u-other' })).thenRefuses('conflict', /already been used/);
    });

    it('refuses it once expired, at the expiry itself', () =>
      acceptance.given(open).when(accept({ now: inAWeek })).thenRefuses('invalid', /expired/));

    it('refuses it once revoked', () =>
      acceptance.given([...open, { type: 'InvitationRevoked', data: { project_id, invitation_id: 'i-1', revoked_by: 'u-owner', revoked_at: now } }])
        .when(accept()).thenRefuses('conflict', /revoked/));

    it('refuses a token that is not the invitation\'s, and an invitation of a deleted project, as not found', () => {
      acceptance.given(open).when(accept({ token_hash: 'h-other' })).thenRefuses('not_found', /invitation not found/);
      acceptance.given([...open, { type: 'ProjectDeleted', data: { project_id, deleted_at: now } }]).when(accept()).thenRefuses('not_found', /invitation not found/);
    });

    it('lets only the account with the invited address join with it', () =>
      acceptance.given([...created, issued, registered('u-new', 'someone-else@example.com')]).when(accept()).thenRefuses('invalid', /for another email address/));

    it('refuses a user who is not registered', () =>
      acceptance.given([...created, issued]).when(accept()).thenRefuses('not_found', /user not found/));

    it('uses the invitation of someone who is a member already, leaving their role as it is', () =>
      acceptance.given([...open, { type: 'ProjectMemberAdded', data: { project_id, member_id: 'm-x', user_id: 'u-new', role: 'READONLY', joined_at: now } }])
        .when(accept()).thenEmits(['InvitationAccepted']));
  });
});
