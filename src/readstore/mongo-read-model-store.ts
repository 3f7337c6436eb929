import { type Collection, type Db, type Filter as MongoFilter, MongoClient, MongoServerError } from 'mongodb';
import {
  type Checkpoint,
  type CheckpointAdvance,
  type CollectionSpec,
  type Document,
  type DocumentWrite,
  type Filter,
  type FindOptions,
  type ReadModelStore,
  type RetiredProjection,
  type StoredDocument,
  CheckpointConflictError,
  assertCollectionName,
  DOCUMENT_ID,
  assertFieldPath,
  isRange,
} from './read-model-store.js';

interface StoredShape {
  _id: string;
  _position: number;
  doc: Document;
}

interface CheckpointShape {
  _id: string;
  version: number;
  position: number;
}

const DUPLICATE_KEY = 11000;
const NAMESPACE_NOT_FOUND = 26;

/** An index as fields in order and uniqueness: what tells one of the spec's from another. */
function indexShape(key: Record<string, unknown>, unique: boolean): string {
  return `${Object.keys(key).join(',')}${unique ? ' unique' : ''}`;
}

/**
 * Read models in MongoDB. Documents are stored as `{ _id, _position, doc }` so the projection's
 * fields never collide with ours. Without multi-document transactions the checkpoint is written
 * after the documents; a crash in between replays those events, and the `_position` guard makes
 * the replay change nothing.
 */
export class MongoReadModelStore implements ReadModelStore {
  private constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
  ) {}

  static async connect(url: string, databaseName: string): Promise<MongoReadModelStore> {
    const client = new MongoClient(url);
    await client.connect();
    return new MongoReadModelStore(client, client.db(databaseName));
  }

  private collection(name: string): Collection<StoredShape> {
    return this.db.collection<StoredShape>(`rm_${assertCollectionName(name)}`);
  }

  private get checkpoints(): Collection<CheckpointShape> {
    return this.db.collection<CheckpointShape>('rm_checkpoints');
  }

  /**
   * Creates the indexes a collection's spec names and drops the ones of ours it no longer names
   * (an older version made them; each costs a write per document written). Ours are those on
   * `doc.` fields only; `_id` and any made by hand on other fields stay.
   */
  async ensureCollections(specs: readonly CollectionSpec[]): Promise<void> {
    for (const spec of specs) {
      const collection = this.collection(spec.name);
      const wanted = new Set<string>();
      for (const index of spec.indexes) {
        const keys = Object.fromEntries(index.fields.map((field) => [`doc.${assertFieldPath(field)}`, 1 as const]));
        await collection.createIndex(keys, { unique: index.unique ?? false });
        wanted.add(indexShape(keys, index.unique ?? false));
      }
      for (const present of await this.indexesOf(collection)) {
        const fields = Object.keys(present.key);
        const ours = fields.length > 0 && fields.every((field) => field.startsWith('doc.'));
        if (ours && present.name && !wanted.has(indexShape(present.key, present.unique ?? false))) await collection.dropIndex(present.name);
      }
    }
  }

  private async indexesOf(collection: Collection<StoredShape>): Promise<{ name?: string; key: Record<string, unknown>; unique?: boolean }[]> {
    try {
      return await collection.indexes();
    } catch (error) {
      // A collection with no index asked for may not exist yet.
      if (error instanceof MongoServerError && error.code === NAMESPACE_NOT_FOUND) return [];
      throw error;
    }
  }

  async get<D = Document>(collection: string, id: string): Promise<StoredDocument<D> | null> {
    const found = await this.collection(collection).findOne({ _id: id });
    return found ? toStored<D>(found) : null;
  }

  async find<D = Document>(collection: string, filter: Filter = {}, options: FindOptions = {}): Promise<StoredDocument<D>[]> {
    const sort: [string, 1 | -1][] = [...(options.sort ?? []).map(([f, d]): [string, 1 | -1] => [`doc.${assertFieldPath(f)}`, d]), ['_id', 1]];
    let cursor = this.collection(collection).find(toMongoFilter(filter)).sort(sort);
    if (options.skip) cursor = cursor.skip(options.skip);
    if (options.limit !== undefined) cursor = cursor.limit(options.limit);
    return (await cursor.toArray()).map((found) => toStored<D>(found));
  }

  async count(collection: string, filter: Filter = {}): Promise<number> {
    return this.collection(collection).countDocuments(toMongoFilter(filter));
  }

  /**
   * Not one transaction: each write is guarded by its position alone. The fence is not checked, as
   * it would have to be in one transaction with the writes; so two projectors overlapping while
   * the lease passes could still leave a document here that one of them deleted (see CommitFence).
   */
  async commit(writes: readonly DocumentWrite[], checkpoints: readonly CheckpointAdvance[]): Promise<void> {
    for (const checkpoint of checkpoints) {
      const stored = await this.checkpoints.findOne({ _id: checkpoint.name });
      if ((stored?.position ?? null) !== checkpoint.expectedPosition) throw new CheckpointConflictError(checkpoint.name);
    }
    for (const write of writes) {
      const collection = this.collection(write.collection);
      if (write.doc === null) {
        await collection.deleteOne({ _id: write.id, _position: { $lte: write.position } });
        continue;
      }
      try {
        await collection.updateOne(
          { _id: write.id, _position: { $lt: write.position } },
          { $set: { _position: write.position, doc: write.doc } },
          { upsert: true },
        );
      } catch (error) {
        // The guard did not match because a newer write is already there: nothing to do.
        if (!(error instanceof MongoServerError && error.code === DUPLICATE_KEY)) throw error;
      }
    }
    for (const checkpoint of checkpoints) {
      const replacement = { version: checkpoint.version, position: checkpoint.position };
      if (checkpoint.expectedPosition === null) {
        try {
          await this.checkpoints.insertOne({ _id: checkpoint.name, ...replacement });
        } catch (error) {
          if (error instanceof MongoServerError && error.code === DUPLICATE_KEY) throw new CheckpointConflictError(checkpoint.name);
          throw error;
        }
      } else {
        const result = await this.checkpoints.updateOne(
          { _id: checkpoint.name, position: checkpoint.expectedPosition },
          { $set: replacement },
        );
        if (result.matchedCount === 0) throw new CheckpointConflictError(checkpoint.name);
      }
    }
  }

  /** MongoDB builds its indexes as it goes; a rebuild gains nothing from holding them back here. */
  async bulkLoad<T>(_collections: readonly CollectionSpec[], load: () => Promise<T>): Promise<T> {
    return load();
  }

  async readCheckpoints(): Promise<Checkpoint[]> {
    const stored = await this.checkpoints.find({}).sort({ _id: 1 }).toArray();
    return stored.map((c) => ({ name: c._id, version: c.version, position: c.position }));
  }

  async reset(checkpoint: { name: string; version: number }, collections: readonly CollectionSpec[]): Promise<void> {
    for (const spec of collections) await this.dropCollection(spec.name);
    await this.ensureCollections(collections);
    await this.checkpoints.updateOne(
      { _id: checkpoint.name },
      { $set: { version: checkpoint.version, position: 0 } },
      { upsert: true },
    );
  }

  async drop(retired: RetiredProjection): Promise<void> {
    for (const collection of retired.collections) await this.dropCollection(collection);
    await this.checkpoints.deleteOne({ _id: retired.name });
  }

  /**
   * A collection already gone is what was wanted (servers before 7.0 say so with an error); any
   * other failure is passed on, so that a checkpoint is never removed with its collection still there.
   */
  private async dropCollection(name: string): Promise<void> {
    try {
      await this.collection(name).drop();
    } catch (error) {
      if (!(error instanceof MongoServerError && error.code === NAMESPACE_NOT_FOUND)) throw error;
    }
  }

  /** For the contract suite: drops the whole database. */
  async dropDatabase(): Promise<void> {
    await this.db.dropDatabase();
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

function toMongoFilter(filter: Filter): MongoFilter<StoredShape> {
  const query: Record<string, unknown> = {};
  for (const [field, condition] of Object.entries(filter)) {
    const path = field === DOCUMENT_ID ? '_id' : `doc.${assertFieldPath(field)}`;
    if (!isRange(condition)) {
      query[path] = condition;
      continue;
    }
    const operators: Record<string, unknown> = {};
    for (const [operator, value] of Object.entries(condition)) {
      if (value !== undefined) operators[operator] = value;
    }
    query[path] = operators;
  }
  return query;
}

function toStored<D>(found: StoredShape): StoredDocument<D> {
  return { id: found._id, position: found._position, doc: found.doc as D };
}
