import * as t from 'io-ts';
import { oneOf } from './fields.js';

const InvitedRole = oneOf(['READONLY', 'MEMBER', 'MANAGER'] as const, 'InvitedRole');

export const invitationEventCodecs = {
  InvitationIssued: t.type({
    project_id: t.string, invitation_id: t.string, email: t.string, role: InvitedRole, token_hash: t.string, invited_by: t.string, issued_at: t.string, expires_at: t.string,
  }),
  InvitationAccepted: t.type({ project_id: t.string, invitation_id: t.string, user_id: t.string, accepted_at: t.string }),
  InvitationRevoked: t.type({ project_id: t.string, invitation_id: t.string, revoked_by: t.string, revoked_at: t.string }),
};
