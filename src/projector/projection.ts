import type { VigilEvent } from '../domain/events.js';
import type { CollectionSpec, Document, Filter } from '../readstore/read-model-store.js';

/** An event as a projection sees it: the domain event plus where it sits in the log. */
export type ProjectedEvent = VigilEvent & {
  id: string;
  position: number;
  streamName: string;
  revision: number;
  created: string;
  /** Who caused it: `kind`, `user_id`, `api_key_id`, `request_id`. */
  metadata: Record<string, unknown>;
};

/** The documents one event touches: named ones, every document matching a filter, or both. */
export interface Target {
  ids?: readonly string[];
  where?: Filter;
}

/**
 * A read model: one collection, written only by this projection. `apply` is pure, so replaying
 * the log rebuilds byte-identical documents. Bump `version` to rebuild it from the start.
 * The name never changes: it keys the checkpoint.
 */
export interface Projection<D extends object = Document> {
  name: string;
  version: number;
  collection: CollectionSpec;
  handles: readonly VigilEvent['type'][];
  targets(event: ProjectedEvent): Target;
  /**
   * True when `apply` never looks at the stored document: each one is made from a single event and
   * is only ever deleted after. The projector then writes without reading it first, and the store's
   * own check of positions keeps a replayed write from changing anything.
   */
  fromEventAlone?: boolean;
  /** The document `id` after the event; null deletes it. */
  apply(doc: D | null, event: ProjectedEvent, id: string): D | null;
}
