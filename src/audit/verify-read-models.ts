import type { EventStore } from '../eventstore/event-store.js';
import { openSqliteDatabase } from '../eventstore/sqlite-database.js';
import { Projector } from '../projector/projector.js';
import type { Projection } from '../projector/projection.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';
import { SqliteReadModelStore } from '../readstore/sqlite-read-model-store.js';

export interface ReadModelDifference {
  collection: string;
  id: string;
  problem: 'missing from the live read model' | 'not in the replay' | 'differs from the replay';
}

export interface ReadModelVerification {
  ok: boolean;
  position: number;
  documents_compared: number;
  differences: ReadModelDifference[];
}

/**
 * Replays every projection into a scratch store, up to where the live read models stand, and
 * compares the two document by document: what a rebuild would change, the live ones got wrong.
 */
export async function verifyReadModels(events: EventStore, live: ReadModelStore, projections: readonly Projection[], maxReported = 20): Promise<ReadModelVerification> {
  const checkpoints = await live.readCheckpoints();
  const positionOf = (p: Projection) => checkpoints.find((c) => c.name === p.name)?.position ?? 0;
  const position = Math.min(...projections.map(positionOf));
  const scratchDb = openSqliteDatabase(':memory:');
  const scratch = new SqliteReadModelStore(scratchDb);
  try {
    // Each read model as far as the live one went: they commit on their own checkpoints, so a copy
    // taken while the projector runs (a backup) may hold some a batch ahead of the others.
    for (const until of new Set(projections.map(positionOf))) {
      await new Projector(events, scratch, projections.filter((p) => positionOf(p) === until)).catchUp({ until });
    }
    const differences: ReadModelDifference[] = [];
    let compared = 0;
    for (const projection of projections) {
      const collection = projection.collection.name;
      const replayed = new Map((await scratch.find(collection)).map((s) => [s.id, JSON.stringify(s.doc)]));
      for (const stored of await live.find(collection)) {
        compared += 1;
        const expected = replayed.get(stored.id);
        if (expected === undefined) differences.push({ collection, id: stored.id, problem: 'not in the replay' });
        else if (expected !== JSON.stringify(stored.doc)) differences.push({ collection, id: stored.id, problem: 'differs from the replay' });
        replayed.delete(stored.id);
      }
      for (const id of replayed.keys()) differences.push({ collection, id, problem: 'missing from the live read model' });
    }
    return { ok: differences.length === 0, position, documents_compared: compared, differences: differences.slice(0, maxReported) };
  } finally {
    scratchDb.close();
  }
}
