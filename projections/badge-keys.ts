import { hashBadgeKey } from '../src/app/badge-keys.js';
import type { Projection } from '../src/projector/projection.js';

/** A project's current badge key (see src/app/badge-keys.ts for why it is kept in clear). */
export interface BadgeKeyDocument {
  [key: string]: string;
  /** The project's id: one key per project, the newest issued. */
  id: string;
  project_id: string;
  badge_key: string;
  /** SHA-256 of the key: what a badge request is looked up by. */
  key_hash: string;
  issued_at: string;
}

export const badgeKeysProjection: Projection<BadgeKeyDocument> = {
  name: 'badge_keys',
  version: 1,
  collection: { name: 'badge_keys', indexes: [{ fields: ['key_hash'] }] },
  handles: ['ProjectBadgeKeyIssued', 'ProjectDeleted'],
  targets: (event) => ({ ids: event.type === 'ProjectBadgeKeyIssued' || event.type === 'ProjectDeleted' ? [event.data.project_id] : [] }),
  // Each key replaces the one before: the old one's URLs stop working once this is written.
  apply(_doc, event) {
    if (event.type !== 'ProjectBadgeKeyIssued') return null;
    const { project_id, badge_key, issued_at } = event.data;
    return { id: project_id, project_id, badge_key, key_hash: hashBadgeKey(badge_key), issued_at };
  },
};
