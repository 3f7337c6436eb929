import {
  type AnyBulkWriteOperation,
  type ClientSession,
  type Collection,
  type Db,
  type Filter as MongoFilter,
  MongoBulkWriteError,
  MongoClient,
  MongoServerError,
  type TransactionOptions,
} from 'mongodb';
import {
  type Checkpoint,
  type CheckpointAdvance,
  type CollectionSpec,
  type CommitFence,
  type Document,
  type DocumentWrite,
  type Filter,
  type FindOptions,
  type ReadModelStore,
  type RetiredProjection,
  type StoredDocument,
  CheckpointConflictError,
  FencedOutError,
  UniqueIndexViolationError,
  assertCollectionName,
  DOCUMENT_ID,
  assertFieldPath,
  isRange,
} from './read-model-store.js';
import { type StoredShape, documentOperations, duplicateKeyIndex, indexFields, operationId } from './mongo-document-writes.js';

interface CheckpointShape {
  _id: string;
  version: number;
  position: number;
}

/** A lease as MongoLeaseStore keeps it; `fenced_commits` is ours (see `holdFence`). */
interface LeaseShape {
  _id: string;
  holder: string;
  fenced_commits?: number;
}

const DUPLICATE_KEY = 11000;
const NAMESPACE_NOT_FOUND = 26;
const NAMESPACE_EXISTS = 48;

/** MongoLeaseStore's collection, in the same database: the leases a commit's fence checks. */
const LEASES = 'coordination_leases';

/**
 * A commit reads its checkpoints, its fence and its documents' positions from one majority-committed
 * snapshot, and is acknowledged once a majority has it, so that a failover cannot roll back a
 * checkpoint a reader was already told about.
 */
const COMMIT_TRANSACTION: TransactionOptions = {
  readConcern: { level: 'snapshot' },
  writeConcern: { w: 'majority' },
  readPreference: 'primary',
};

/** An index as fields in order and uniqueness: what tells one of the spec's from another. */
function indexShape(key: Record<string, unknown>, unique: boolean): string {
  return `${Object.keys(key).join(',')}${unique ? ' unique' : ''}`;
}

/**
 * Read models in MongoDB. Documents are stored as `{ _id, _position, doc }` so the projection's
 * fields never collide with ours. A commit is one multi-document transaction: its documents, its
 * checkpoints (compare-and-set) and its fence, so a crash or a conflict leaves all or nothing of
 * it, as the embedded store does. Transactions need a replica set (a single node will do), which
 * `connect` insists on.
 */
export class MongoReadModelStore implements ReadModelStore {
  private constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
  ) {}

  static async connect(url: string, databaseName: string): Promise<MongoReadModelStore> {
    const client = new MongoClient(url);
    await client.connect();
    try {
      await assertTransactions(client);
    } catch (error) {
      await client.close();
      throw error;
    }
    return new MongoReadModelStore(client, client.db(databaseName));
  }

  private collection(name: string): Collection<StoredShape> {
    return this.db.collection<StoredShape>(`rm_${assertCollectionName(name)}`);
  }

  private get checkpoints(): Collection<CheckpointShape> {
    return this.db.collection<CheckpointShape>('rm_checkpoints');
  }

  private get leases(): Collection<LeaseShape> {
    return this.db.collection<LeaseShape>(LEASES);
  }

  /**
   * Creates the indexes a collection's spec names and drops the ones of ours it no longer names
   * (an older version made them; each costs a write per document written). Ours are those on
   * `doc.` fields only; `_id` and any made by hand on other fields stay.
   */
  async ensureCollections(specs: readonly CollectionSpec[]): Promise<void> {
    await this.createCollection(this.checkpoints.collectionName);
    for (const spec of specs) {
      const collection = this.collection(spec.name);
      await this.createCollection(collection.collectionName);
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

  /**
   * Made here rather than by a commit's first write: a transaction may create a collection, but
   * then conflicts with every other transaction that tries to at the same time.
   */
  private async createCollection(name: string): Promise<void> {
    try {
      await this.db.createCollection(name);
    } catch (error) {
      if (!(error instanceof MongoServerError && error.code === NAMESPACE_EXISTS)) throw error;
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
   * One transaction, retried whole by the driver on a transient error (a write conflict with
   * another writer, a failover): it checks the fence, then the checkpoints, reads the positions of
   * the documents it writes, writes them (a bulk write per collection, not a round trip per
   * document; see documentOperations) and moves the checkpoints. Any failure leaves nothing of it.
   */
  async commit(writes: readonly DocumentWrite[], checkpoints: readonly CheckpointAdvance[], fence?: CommitFence): Promise<void> {
    const byCollection = new Map<string, DocumentWrite[]>();
    for (const write of writes) {
      let group = byCollection.get(write.collection);
      if (!group) byCollection.set(write.collection, (group = []));
      group.push(write);
    }
    await this.client.withSession((session) =>
      session.withTransaction(async () => {
        if (fence) await this.holdFence(fence, session);
        await this.expectCheckpoints(checkpoints, session);
        for (const [collection, group] of byCollection) await this.writeDocuments(collection, group, session);
        await this.advanceCheckpoints(checkpoints, session);
      }, COMMIT_TRANSACTION),
    );
  }

  /**
   * No other holder has taken the lease (see CommitFence); one nobody holds fences nobody out, as
   * in the embedded store. The lease is written, not only read: a takeover committed after this
   * transaction's snapshot then fails it with a write conflict (retried, and refused at the second
   * try), and one that comes after the write waits for this commit to end. Either way no commit of
   * the old holder lands once the new one holds the lease.
   */
  private async holdFence(fence: CommitFence, session: ClientSession): Promise<void> {
    const held = await this.leases.updateOne({ _id: fence.lease, holder: fence.holder }, { $inc: { fenced_commits: 1 } }, { session });
    if (held.matchedCount === 1) return;
    if (await this.leases.findOne({ _id: fence.lease }, { session, projection: { _id: 1 } })) throw new FencedOutError(fence.lease);
  }

  private async expectCheckpoints(checkpoints: readonly CheckpointAdvance[], session: ClientSession): Promise<void> {
    if (checkpoints.length === 0) return;
    const stored = await this.checkpoints.find({ _id: { $in: checkpoints.map((c) => c.name) } }, { session }).toArray();
    const positions = new Map(stored.map((c) => [c._id, c.position]));
    for (const checkpoint of checkpoints) {
      if ((positions.get(checkpoint.name) ?? null) !== checkpoint.expectedPosition) throw new CheckpointConflictError(checkpoint.name);
    }
  }

  private async writeDocuments(collectionName: string, writes: readonly DocumentWrite[], session: ClientSession): Promise<void> {
    const collection = this.collection(collectionName);
    const ids = writes.map((write) => write.id);
    const found = await collection.find({ _id: { $in: ids } }, { session, projection: { _position: 1 }, batchSize: ids.length }).toArray();
    const operations = documentOperations(writes, new Map(found.map((stored) => [stored._id, stored._position])));
    if (operations.length === 0) return;
    try {
      // Ordered: the deletions first (see documentOperations). Unordered would buy nothing here:
      // in a transaction the first failed write aborts it all the same.
      await collection.bulkWrite(operations, { session, ordered: true });
    } catch (error) {
      throw uniqueViolation(error, collectionName, operations) ?? error;
    }
  }

  private async advanceCheckpoints(checkpoints: readonly CheckpointAdvance[], session: ClientSession): Promise<void> {
    for (const checkpoint of checkpoints) {
      const replacement = { version: checkpoint.version, position: checkpoint.position };
      if (checkpoint.expectedPosition === null) {
        // Absent in this snapshot (expectCheckpoints): one inserted since conflicts, and is retried.
        await this.checkpoints.insertOne({ _id: checkpoint.name, ...replacement }, { session });
        continue;
      }
      const result = await this.checkpoints.updateOne({ _id: checkpoint.name, position: checkpoint.expectedPosition }, { $set: replacement }, { session });
      if (result.matchedCount === 0) throw new CheckpointConflictError(checkpoint.name);
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

  /**
   * Not one transaction (a collection cannot be dropped in one), so in an order a crash cannot
   * spoil: the checkpoint goes first, and a projector finding none resets again. Dropping first
   * would leave a same-version rebuild's checkpoint over empty collections; setting it first would
   * leave an old version's documents, whose positions the replay would not write over.
   */
  async reset(checkpoint: { name: string; version: number }, collections: readonly CollectionSpec[]): Promise<void> {
    await this.checkpoints.deleteOne({ _id: checkpoint.name });
    for (const spec of collections) await this.dropCollection(spec.name);
    await this.ensureCollections(collections);
    await this.checkpoints.updateOne({ _id: checkpoint.name }, { $set: { version: checkpoint.version, position: 0 } }, { upsert: true });
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

/**
 * Transactions need a replica set or a sharded cluster: a standalone server refuses them, and the
 * read models would never be written. Said once at start, in the operator's words.
 */
async function assertTransactions(client: MongoClient): Promise<void> {
  const hello = await client.db('admin').command({ hello: 1 });
  if (typeof hello['setName'] === 'string' || hello['msg'] === 'isdbgrid') return;
  throw new Error(
    'VIGIL_MONGODB_URL names a standalone MongoDB server, but Vigil commits its read models in transactions, which need a replica set: ' +
      'start mongod with --replSet rs0 and run rs.initiate() once (a single node will do)',
  );
}

/**
 * A document refused for repeating a value of one of the collection's unique indexes, as the
 * port's error; null for any other failure, which goes on as it is (a write conflict, labelled
 * TransientTransactionError, must reach the driver for it to run the transaction again).
 */
function uniqueViolation(error: unknown, collection: string, operations: readonly AnyBulkWriteOperation<StoredShape>[]): UniqueIndexViolationError | null {
  if (!(error instanceof MongoBulkWriteError) || error.hasErrorLabel('TransientTransactionError')) return null;
  const duplicate = [error.writeErrors].flat().find((writeError) => writeError.code === DUPLICATE_KEY);
  const index = duplicateKeyIndex(duplicate?.errmsg);
  const id = operationId(operations[duplicate?.index ?? -1]);
  if (!duplicate || index === null || index === '_id_' || id === null) return null;
  return new UniqueIndexViolationError(collection, id, indexFields(index), { cause: error });
}
