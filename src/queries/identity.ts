import type { Role } from '../domain/access/roles.js';
import type { Filter, ReadModelStore } from '../readstore/read-model-store.js';
import type { ApiKeyDocument } from '../../projections/api-keys.js';
import { type MemberDocument, membershipId } from '../../projections/project-members.js';
import type { UserDocument } from '../../projections/users.js';

export async function findApiKeyByHash(readModels: ReadModelStore, keyHash: string): Promise<ApiKeyDocument | null> {
  const [found] = await readModels.find<ApiKeyDocument>('api_keys', { key_hash: keyHash }, { limit: 1 });
  return found?.doc ?? null;
}

export async function getApiKey(readModels: ReadModelStore, apiKeyId: string): Promise<ApiKeyDocument | null> {
  return (await readModels.get<ApiKeyDocument>('api_keys', apiKeyId))?.doc ?? null;
}

export async function listApiKeys(readModels: ReadModelStore, userId: string, projectId: string | null): Promise<ApiKeyDocument[]> {
  const filter: Filter = projectId ? { user_id: userId, project_id: projectId } : { user_id: userId };
  return (await readModels.find<ApiKeyDocument>('api_keys', filter, { sort: [['created_at', 1]] })).map((s) => s.doc);
}

export async function roleOf(readModels: ReadModelStore, projectId: string, userId: string): Promise<Role | null> {
  return (await readModels.get<MemberDocument>('project_members', membershipId(projectId, userId)))?.doc.role ?? null;
}

export async function getUser(readModels: ReadModelStore, userId: string): Promise<UserDocument | null> {
  return (await readModels.get<UserDocument>('users', userId))?.doc ?? null;
}

export async function findUserByEmail(readModels: ReadModelStore, email: string): Promise<UserDocument | null> {
  const [found] = await readModels.find<UserDocument>('users', { email: email.trim().toLowerCase() }, { limit: 1 });
  return found?.doc ?? null;
}

export async function getUsers(readModels: ReadModelStore, userIds: readonly string[]): Promise<Map<string, UserDocument>> {
  const found = await readModels.find<UserDocument>('users', { id: { $in: [...new Set(userIds)] } });
  return new Map(found.map((s) => [s.doc.id, s.doc]));
}
