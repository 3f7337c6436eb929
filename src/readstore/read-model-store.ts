import type { JsonObject } from '../eventstore/event-store.js';

/**
 * The read-model port: collections of JSON documents written only by projectors and queried by
 * the API. Every document remembers the log position of the last event written into it, so a
 * write carrying an older position (a replay, a second projector) changes nothing.
 */
export type Scalar = string | number | boolean | null;

export interface Range {
  $in?: readonly Scalar[];
  $ne?: Scalar;
  $gt?: string | number;
  $gte?: string | number;
  $lt?: string | number;
  $lte?: string | number;
}

/**
 * Field paths may be dotted (`owner.id`); conditions on several fields all have to hold. The key
 * `$id` conditions the document's id (what `get` looks up) instead of a field: a range of ids is
 * read through the key itself, with no index of its own to keep.
 */
export type Filter = Readonly<Record<string, Scalar | Range>>;

/** The filter key that names the document's id rather than one of its fields. */
export const DOCUMENT_ID = '$id';
export type Sort = ReadonlyArray<readonly [field: string, direction: 1 | -1]>;

export interface FindOptions {
  sort?: Sort;
  skip?: number;
  limit?: number;
}

export interface IndexSpec {
  fields: readonly string[];
  unique?: boolean;
  /**
   * Leaves out the documents whose first field is null or missing: a field most documents lack
   * (an audit entry's incident) then costs no index entry for them, on each write and when a
   * rebuild builds the index. A filter on the field with a value (equal, `$in`, a range) still
   * reads through it; one for null reads the table. Where the store cannot leave them out
   * (MongoDB here), the index holds every document, with the same answers.
   */
  sparse?: boolean;
}

export interface CollectionSpec {
  name: string;
  indexes: readonly IndexSpec[];
}

export type Document = JsonObject;

export interface StoredDocument<D = Document> {
  id: string;
  /** Log position of the last event written into this document. */
  position: number;
  doc: D;
}

/** `doc: null` deletes. */
export interface DocumentWrite {
  collection: string;
  id: string;
  doc: Document | null;
  position: number;
}

export interface Checkpoint {
  name: string;
  version: number;
  position: number;
}

/** Moves a projection's checkpoint only if nobody else moved it since `expectedPosition`. */
export interface CheckpointAdvance extends Checkpoint {
  expectedPosition: number | null;
}

/** A projection Vigil no longer builds, named as its checkpoint and collections were. */
export interface RetiredProjection {
  name: string;
  collections: readonly string[];
}

/**
 * The lease a projector commits under. Two projectors can overlap while a lease passes from one
 * that stalled past it to another, and the checkpoint's compare-and-set alone does not keep them
 * apart once a commit is cut into several transactions (sqlite-document-writer.ts): the stalled
 * one's first transaction could write a document back that the other had deleted in one of its
 * own, before its checkpoint moved. Each transaction checks the lease too, so it commits only
 * while no other holder has taken it: before the other took it over and started.
 */
export interface CommitFence {
  lease: string;
  holder: string;
}

export class FencedOutError extends Error {
  constructor(readonly lease: string) {
    super(`the ${lease} lease has passed to another holder: this commit is refused`);
    this.name = 'FencedOutError';
  }
}

/**
 * A document would repeat the values another document holds in a unique index (an email, a key
 * hash): the commit is refused whole, checkpoints included. Never a replay: a write at or below
 * the stored document's position is skipped before any index sees it. `fields` are the index's,
 * as its spec names them (empty where the store does not say).
 */
export class UniqueIndexViolationError extends Error {
  constructor(
    readonly collection: string,
    readonly id: string,
    readonly fields: readonly string[],
    options?: { cause?: unknown },
  ) {
    super(`UNIQUE constraint failed: document ${id} of ${collection} repeats another's ${fields.length > 0 ? fields.join(', ') : 'unique index'}`, options);
    this.name = 'UniqueIndexViolationError';
  }
}

export interface ReadModelStore {
  ensureCollections(specs: readonly CollectionSpec[]): Promise<void>;
  get<D = Document>(collection: string, id: string): Promise<StoredDocument<D> | null>;
  find<D = Document>(collection: string, filter?: Filter, options?: FindOptions): Promise<StoredDocument<D>[]>;
  count(collection: string, filter?: Filter): Promise<number>;
  /**
   * Writes the documents and advances the checkpoints, the checkpoints with the last of the
   * documents: a commit that fails (a moved checkpoint, a fence, a unique index) advances none and
   * leaves none of its documents. (The embedded store may commit a long batch in several
   * transactions, letting pings in between: a crash then leaves documents ahead of their
   * checkpoint, which the replay skips.) With a fence, only while the store shows its holder
   * holding its lease (see CommitFence).
   */
  commit(writes: readonly DocumentWrite[], checkpoints: readonly CheckpointAdvance[], fence?: CommitFence): Promise<void>;
  readCheckpoints(): Promise<Checkpoint[]>;
  /**
   * Runs `load`, which fills the collections from the start of the log (a rebuild), with the store
   * tuned for bulk writes; every index is in place again when it returns or throws. Reads inside
   * see every write made before them, but a commit that fails may report it at a later call on the
   * store, or from `bulkLoad` itself; no write made after it is committed.
   */
  bulkLoad<T>(collections: readonly CollectionSpec[], load: () => Promise<T>): Promise<T>;
  /** Empties the collections and sets the checkpoint to the start of the log at `version`. */
  reset(checkpoint: { name: string; version: number }, collections: readonly CollectionSpec[]): Promise<void>;
  /** Removes a projection no longer built: its collections (their documents and indexes) and its checkpoint. */
  drop(retired: RetiredProjection): Promise<void>;
  close(): Promise<void>;
}

export class CheckpointConflictError extends Error {
  constructor(readonly projection: string) {
    super(`checkpoint of projection ${projection} was moved by another projector`);
    this.name = 'CheckpointConflictError';
  }
}

const FIELD_PATH = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;
const COLLECTION_NAME = /^[a-z][a-z0-9_]*$/;

export function assertFieldPath(path: string): string {
  if (!FIELD_PATH.test(path)) throw new Error(`invalid field path: ${path}`);
  return path;
}

export function assertCollectionName(name: string): string {
  if (!COLLECTION_NAME.test(name)) throw new Error(`invalid collection name: ${name}`);
  return name;
}

export function isRange(condition: Scalar | Range): condition is Range {
  return typeof condition === 'object' && condition !== null;
}
