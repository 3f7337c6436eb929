import type { InvitationDocument } from '../../../projections/invitations.js';
import { standingOfDocument } from '../../queries/invitations.js';
import { withoutMilliseconds } from './timestamps.js';

const orNull = (time: string | null) => (time === null ? null : withoutMilliseconds(time));

/** Never the token or its hash: the link is in the answer that issues it, this once. */
export function invitationBody(doc: InvitationDocument, now: Date) {
  return {
    id: doc.id,
    project_id: doc.project_id,
    email: doc.email,
    role: doc.role,
    status: standingOfDocument(doc, now),
    invited_by: doc.invited_by,
    issued_at: withoutMilliseconds(doc.issued_at),
    expires_at: withoutMilliseconds(doc.expires_at),
    accepted_by: doc.accepted_by,
    accepted_at: orNull(doc.accepted_at),
    revoked_at: orNull(doc.revoked_at),
  };
}
