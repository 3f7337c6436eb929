import { BodyOf, BoundedString, Email, OneOf } from '../validation.js';
import { ASSIGNABLE_ROLES } from './projects.js';

/** Whom to invite and with which role (no higher than the inviter's own). */
export const InviteBody = BodyOf({ email: Email, role: OneOf(ASSIGNABLE_ROLES) }, {});

/** The token of an invitation link (`/invitations/<token>`), accepted by the key's own user. */
export const AcceptInvitationBody = BodyOf({ token: BoundedString(1, 100) }, {});
