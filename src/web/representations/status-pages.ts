import type { BadgeKeyDocument } from '../../../projections/badge-keys.js';
import type { StatusPageDocument } from '../../../projections/status-pages.js';
import { withoutMilliseconds } from './timestamps.js';

export function statusPageBody(page: StatusPageDocument) {
  return {
    id: page.id,
    project_id: page.project_id,
    slug: page.slug,
    title: page.title,
    description: page.description,
    published: page.published,
    monitors: page.monitors.map((m) => ({ monitor_id: m.monitor_id, display_name: m.display_name })),
    /** Where the public reads it (relative to Vigil's address); it answers 404 until published. */
    public_path: `/status/${page.slug}`,
    created_at: withoutMilliseconds(page.created_at),
    updated_at: withoutMilliseconds(page.updated_at),
  };
}

export function badgeKeyBody(key: BadgeKeyDocument) {
  return {
    key: key.badge_key,
    issued_at: withoutMilliseconds(key.issued_at),
    project_badge_path: `/badge/${key.badge_key}.svg`,
    monitor_badge_path: `/badge/${key.badge_key}/{slug}.svg`,
    monitor_endpoint_path: `/badge/${key.badge_key}/{slug}.json`,
  };
}
