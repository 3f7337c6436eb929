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
 * How far the read models trail the log, in the two units that mean something to an operator:
 * events and time. Not in positions: those are row ids with gaps (system records, events removed
 * by retention or deletion) in the embedded log and byte offsets in EventStoreDB's, where a
 * difference of a thousand is a few events.
 */
export interface ReadModelLag {
  /**
   * Events the read models have yet to take up, counted up to the bound asked for (more reads as
   * the bound); null where none was asked for, or the event store cannot count them cheaply
   * (EventStoreDB).
   */
  events: number | null;
  /** How long ago the oldest of them was recorded, in seconds; 0 with none. */
  seconds: number;
}

/** The lag behind the log of read models committed up to `committed`: at most one count (bounded by `countUpTo`) and one event read. */
export async function lagAfter(events: EventStore, committed: number, options: { clock: () => Date; countUpTo: number | null }): Promise<ReadModelLag> {
  const [count, oldest] = await Promise.all([
    options.countUpTo === null ? null : events.countEventsAfter(committed, options.countUpTo),
    events.readAll({ after: committed, maxCount: 1 }),
  ]);
  const recorded = oldest[0] ? Date.parse(oldest[0].created) : Number.NaN;
  // Behind a clock that runs slower than the store's (EventStoreDB stamps events with its own), none.
  const seconds = Number.isNaN(recorded) ? 0 : Math.max(0, options.clock().getTime() - recorded) / 1000;
  return { events: count, seconds };
}

export async function readModelLag(
  events: EventStore,
  readModels: ReadModelStore,
  projections: readonly ProjectionIdentity[],
  options: { clock: () => Date; countUpTo: number },
): Promise<ReadModelLag> {
  return lagAfter(events, await committedPosition(readModels, projections), options);
}
