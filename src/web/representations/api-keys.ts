import type { ApiKeyDocument } from '../../../projections/api-keys.js';

export interface ApiKeyFields {
  id: string;
  name: string;
  kind: 'ACCOUNT' | 'PROJECT';
  scopes: readonly string[];
  project_id: string | null;
  env: 'live' | 'test';
  key_preview: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

/** Never the key or its hash: the value is shown once, at creation, beside this body. */
export function apiKeyBody(key: ApiKeyFields) {
  return {
    id: key.id,
    name: key.name,
    kind: key.kind === 'ACCOUNT' ? 'account' : 'project',
    scopes: key.scopes,
    project_id: key.project_id,
    env: key.env,
    key_preview: key.key_preview,
    created_at: key.created_at,
    expires_at: key.expires_at,
    revoked_at: key.revoked_at,
    last_used_at: key.last_used_at,
  };
}

export const apiKeyFromDocument = (doc: ApiKeyDocument): ApiKeyFields => doc;
