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
      const stored = await live.find(collection);
      const replayed = new Map((await scratch.find(collection)).map((s) => [s.id, JSON.stringify(s.doc)]));
      // A document may be ahead of its projection's checkpoint, as after a crash between the two
      // (the projector skips what a document already holds): it is compared with a replay as far
      // as it went, the others with the replay at the checkpoint.
      const ahead = Math.max(positionOf(projection), ...stored.map((s) => s.position));
      let further: Map<string, string> | null = null;
      if (ahead > positionOf(projection)) {
        await new Projector(events, scratch, [projection]).catchUp({ until: ahead });
        further = new Map((await scratch.find(collection)).map((s) => [s.id, JSON.stringify(s.doc)]));
      }
      for (const document of stored) {
        compared += 1;
        const expected = (document.position > positionOf(projection) ? further : replayed)?.get(document.id);
        if (expected === undefined) differences.push({ collection, id: document.id, problem: 'not in the replay' });
        else if (expected !== JSON.stringify(document.doc)) differences.push({ collection, id: document.id, problem: 'differs from the replay' });
        replayed.delete(document.id);
      }
      // Gone from the live read model by a change past the checkpoint: not missing.
      for (const id of replayed.keys()) if (!further || further.has(id)) differences.push({ collection, id, problem: 'missing from the live read model' });
    }
    return { ok: differences.length === 0, position, documents_compared: compared, differences: differences.slice(0, maxReported) };
  } finally {
    scratchDb.close();
  }
}
