import type { BadgeKeyDocument } from '../../projections/badge-keys.js';
import type { StatusPageDocument } from '../../projections/status-pages.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';

export async function getStatusPage(readModels: ReadModelStore, statusPageId: string): Promise<StatusPageDocument | null> {
  return (await readModels.get<StatusPageDocument>('status_pages', statusPageId))?.doc ?? null;
}

export async function listStatusPages(readModels: ReadModelStore, projectId: string): Promise<StatusPageDocument[]> {
  return (await readModels.find<StatusPageDocument>('status_pages', { project_id: projectId }, { sort: [['created_at', 1]] })).map((s) => s.doc);
}

/**
 * The published page at an address. Only a published page holds its slug, so unpublished pages of
 * other projects may share it (see src/app/status-pages.ts); at most one of them is published.
 */
export async function publishedStatusPageBySlug(readModels: ReadModelStore, slug: string): Promise<StatusPageDocument | null> {
  const found = await readModels.find<StatusPageDocument>('status_pages', { slug });
  return found.map((s) => s.doc).find((page) => page.published) ?? null;
}

export async function badgeKeyOfProject(readModels: ReadModelStore, projectId: string): Promise<BadgeKeyDocument | null> {
  return (await readModels.get<BadgeKeyDocument>('badge_keys', projectId))?.doc ?? null;
}

export async function badgeKeyByHash(readModels: ReadModelStore, keyHash: string): Promise<BadgeKeyDocument | null> {
  const [found] = await readModels.find<BadgeKeyDocument>('badge_keys', { key_hash: keyHash }, { limit: 1 });
  return found?.doc ?? null;
}
