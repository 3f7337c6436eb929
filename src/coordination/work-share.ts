import type { Filter } from '../readstore/read-model-store.js';

/**
 * Which part of the work a role instance may do right now, as a read-model filter on `slot`.
 * null: none at the moment (it holds no partition), so the instance should not even look.
 */
export interface WorkShare {
  scope(): Promise<Filter | null>;
}

/** A role with nobody to share with: everything is its own. */
export const ALL_THE_WORK: WorkShare = { scope: async () => ({}) };
