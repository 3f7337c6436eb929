import type { EventStore } from '../eventstore/event-store.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';

/** A projection as its checkpoint knows it. */
export interface ProjectionIdentity {
  name: string;
  version: number;
}

/**
 * The log position every projection has committed, read from the stored checkpoints, so it is
 * right in any process, whether or not it runs the projector. A checkpoint of another version
 * counts as the start of the log: the projector will rebuild that projection from there.
 */
export async function committedPosition(readModels: ReadModelStore, projections: readonly ProjectionIdentity[]): Promise<number> {
  const checkpoints = await readModels.readCheckpoints();
  const positions = projections.map((projection) => {
    const checkpoint = checkpoints.find((c) => c.name === projection.name);
    return checkpoint && checkpoint.version === projection.version ? checkpoint.position : 0;
  });
  return positions.length === 0 ? 0 : Math.min(...positions);
}

/**
 * How far the read models trail the log: head position minus committed position. The embedded
 * store numbers events one by one, so this counts events; EventStoreDB's positions are commit
 * offsets, so there it is in those units.
 */
export function lagBehind(head: number, committed: number): number {
  return Math.max(0, head - committed);
}

export async function readModelLag(events: EventStore, readModels: ReadModelStore, projections: readonly ProjectionIdentity[]): Promise<number> {
  const [head, committed] = await Promise.all([events.headPosition(), committedPosition(readModels, projections)]);
  return lagBehind(head, committed);
}
