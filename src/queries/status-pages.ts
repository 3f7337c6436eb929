import type { BadgeKeyDocument } from '../../projections/badge-keys.js';
import type { StatusPageDocument } from '../../projections/status-pages.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';

export async function getStatusPage(readModels: ReadModelStore, statusPageId: string): Promise<StatusPageDocument | null> {
  return (await readModels.get<StatusPageDocument>('status_pages', statusPageId))?.doc ?? null;
}

export async function listStatusPages(readModels: ReadModelStore, projectId: string): Promise<StatusPageDocument[]> {
  return (await readModels.find<StatusPageDocument>('status_pages', { project_id: projectId }, { sort: [['created_at', 1]] })).map((s) => s.doc);
}

export async function statusPageBySlug(readModels: ReadModelStore, slug: string): Promise<StatusPageDocument | null> {
  const [found] = await readModels.find<StatusPageDocument>('status_pages', { slug }, { limit: 1 });
  return found?.doc ?? null;
}

export async function badgeKeyOfProject(readModels: ReadModelStore, projectId: string): Promise<BadgeKeyDocument | null> {
  return (await readModels.get<BadgeKeyDocument>('badge_keys', projectId))?.doc ?? null;
}

export async function badgeKeyByHash(readModels: ReadModelStore, keyHash: string): Promise<BadgeKeyDocument | null> {
  const [found] = await readModels.find<BadgeKeyDocument>('badge_keys', { key_hash: keyHash }, { limit: 1 });
  return found?.doc ?? null;
}
