import type { ProjectDocument } from '../../projections/projects.js';
import type { StoredDocument } from '../readstore/read-model-store.js';

/** How long a project found by its ping key is taken without reading it again. */
const RECENT_MS = 1_000;
const KEPT = 10_000;

/**
 * Projects found by ping key in the last second, for a door that takes the key with every request
 * (Sentry's envelopes): reading the project's document for each was, in a CPU profile, most of
 * what a check-in cost beyond a ping by monitor id, and the main thread is what limits ping rates.
 *
 * A rotation or deletion decided in this process forgets the project at once, and its document is
 * not kept again until the read models hold that change (its log position), so the old key stops
 * working as soon as the API has answered the rotation. One decided by another process (another
 * API replica in production) is seen within the second.
 */
export class RecentPingKeys {
  private readonly recent = new Map<string, { project: ProjectDocument; until: number }>();
  /** Project id → log position of its last key change in this process. */
  private readonly changedAt = new Map<string, number>();

  project(pingKey: string, now: number): ProjectDocument | null {
    const found = this.recent.get(pingKey);
    if (found === undefined) return null;
    if (found.until > now) return found.project;
    this.recent.delete(pingKey);
    return null;
  }

  /** Keeps a project read for its key, unless the read is older than a change made here. */
  keep(pingKey: string, stored: StoredDocument<ProjectDocument>, now: number): void {
    if (stored.position < (this.changedAt.get(stored.id) ?? 0)) return;
    if (this.recent.size >= KEPT) this.recent.delete(this.recent.keys().next().value!);
    this.recent.set(pingKey, { project: stored.doc, until: now + RECENT_MS });
  }

  /** The project's key changed (rotated, or the project deleted) at `position` of the log. */
  forget(projectId: string, position: number | null): void {
    for (const [key, { project }] of this.recent) if (project.id === projectId) this.recent.delete(key);
    if (position === null) return;
    this.changedAt.delete(projectId);
    if (this.changedAt.size >= KEPT) this.changedAt.delete(this.changedAt.keys().next().value!);
    this.changedAt.set(projectId, position);
  }
}

/** One per process: the projects' commands forget what the doors keep. */
export const recentPingKeys = new RecentPingKeys();
