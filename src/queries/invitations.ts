import type { InvitationDocument } from '../../projections/invitations.js';
import { type InvitationStanding, standingOf } from '../domain/projects/invitations.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';

export async function findInvitationByTokenHash(readModels: ReadModelStore, tokenHash: string): Promise<InvitationDocument | null> {
  const [found] = await readModels.find<InvitationDocument>('invitations', { token_hash: tokenHash }, { limit: 1 });
  return found?.doc ?? null;
}

export async function getInvitation(readModels: ReadModelStore, invitationId: string): Promise<InvitationDocument | null> {
  return (await readModels.get<InvitationDocument>('invitations', invitationId))?.doc ?? null;
}

/** A project's invitations still waiting for an answer: open, and expired ones until someone revokes them. Oldest first. */
export async function waitingInvitations(readModels: ReadModelStore, projectId: string): Promise<InvitationDocument[]> {
  return (await readModels.find<InvitationDocument>('invitations', { project_id: projectId, status: 'open' }, { sort: [['issued_at', 1]] })).map((s) => s.doc);
}

export const standingOfDocument = (doc: InvitationDocument, now: Date): InvitationStanding =>
  standingOf({ status: doc.status, expiresAt: doc.expires_at }, now.toISOString());
