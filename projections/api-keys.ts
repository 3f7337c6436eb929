import type { KeyKind, Scope } from '../src/domain/access/scopes.js';
import type { Projection } from '../src/projector/projection.js';

export interface ApiKeyDocument {
  [key: string]: string | null | Scope[];
  id: string;
  user_id: string;
  name: string;
  key_hash: string;
  key_preview: string;
  env: 'live' | 'test';
  kind: KeyKind;
  project_id: string | null;
  scopes: Scope[];
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  /** When the key last authenticated, to the hour (ApiKeyUsed); null: never. */
  last_used_at: string | null;
}

export const apiKeysProjection: Projection<ApiKeyDocument> = {
  name: 'api_keys',
  version: 2,
  collection: {
    name: 'api_keys',
    indexes: [{ fields: ['key_hash'], unique: true }, { fields: ['user_id'] }, { fields: ['project_id'] }],
  },
  handles: ['ApiKeyCreated', 'ApiKeyRevoked', 'ApiKeyUsed', 'ProjectDeleted'],
  targets(event) {
    // Deleting a project takes the keys bound to it along.
    switch (event.type) {
      case 'ProjectDeleted':
        return { where: { project_id: event.data.project_id } };
      case 'ApiKeyCreated':
      case 'ApiKeyRevoked':
      case 'ApiKeyUsed':
        return { ids: [event.data.api_key_id] };
      default:
        return { ids: [] };
    }
  },
  apply(doc, event) {
    switch (event.type) {
      case 'ApiKeyCreated': {
        const d = event.data;
        return {
          id: d.api_key_id, user_id: d.user_id, name: d.name, key_hash: d.key_hash, key_preview: d.key_preview, env: d.env,
          kind: d.kind, project_id: d.project_id, scopes: d.scopes, created_at: d.created_at, expires_at: d.expires_at, revoked_at: null, last_used_at: null,
        };
      }
      case 'ApiKeyRevoked':
        return doc && { ...doc, revoked_at: event.data.revoked_at };
      case 'ApiKeyUsed': {
        // The later use wins, whatever order a replay brings them in.
        const at = event.data.at;
        return doc && { ...doc, last_used_at: doc.last_used_at !== null && doc.last_used_at > at ? doc.last_used_at : at };
      }
      case 'ProjectDeleted':
        return null;
      default:
        return doc;
    }
  },
};
