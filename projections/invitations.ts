import type { InvitedRole } from '../src/domain/projects/invitations.js';
import type { Projection } from '../src/projector/projection.js';

/**
 * One document per invitation. Whether an open one has expired is computed when it is read
 * (standingOf), never stored: nothing happens at the expiry for a projector to see.
 */
export interface InvitationDocument {
  [key: string]: string | null;
  id: string;
  project_id: string;
  email: string;
  role: InvitedRole;
  /** SHA-256 of the link's token: how a link finds its invitation. The token itself is nowhere. */
  token_hash: string;
  invited_by: string;
  issued_at: string;
  expires_at: string;
  status: 'open' | 'accepted' | 'revoked';
  accepted_by: string | null;
  accepted_at: string | null;
  revoked_by: string | null;
  revoked_at: string | null;
}

export const invitationsProjection: Projection<InvitationDocument> = {
  name: 'invitations',
  version: 1,
  collection: { name: 'invitations', indexes: [{ fields: ['token_hash'], unique: true }, { fields: ['project_id'] }] },
  handles: ['InvitationIssued', 'InvitationAccepted', 'InvitationRevoked', 'ProjectDeleted'],
  targets(event) {
    switch (event.type) {
      case 'ProjectDeleted':
        return { where: { project_id: event.data.project_id } };
      case 'InvitationIssued':
      case 'InvitationAccepted':
      case 'InvitationRevoked':
        return { ids: [event.data.invitation_id] };
      default:
        return { ids: [] };
    }
  },
  apply(doc, event) {
    switch (event.type) {
      case 'InvitationIssued': {
        const d = event.data;
        return {
          id: d.invitation_id, project_id: d.project_id, email: d.email, role: d.role, token_hash: d.token_hash, invited_by: d.invited_by, issued_at: d.issued_at,
          expires_at: d.expires_at, status: 'open', accepted_by: null, accepted_at: null, revoked_by: null, revoked_at: null,
        };
      }
      case 'InvitationAccepted':
        return doc && { ...doc, status: 'accepted', accepted_by: event.data.user_id, accepted_at: event.data.accepted_at };
      case 'InvitationRevoked':
        return doc && { ...doc, status: 'revoked', revoked_by: event.data.revoked_by, revoked_at: event.data.revoked_at };
      case 'ProjectDeleted':
        return null;
      default:
        return doc;
    }
  },
};
