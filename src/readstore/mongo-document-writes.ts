import type { AnyBulkWriteOperation } from 'mongodb';
import type { Document, DocumentWrite } from './read-model-store.js';

/** A read-model document as MongoDB stores it: the projection's fields under `doc`, so they never collide with ours. */
export interface StoredShape {
  _id: string;
  _position: number;
  doc: Document;
}

/**
 * The operations that carry one collection's writes of a commit, given the positions its documents
 * had when the commit's transaction read them (`stored`, by id; absent: no such document).
 *
 * A document is written only over an older one, and a deletion removes only what is not newer
 * than it, so a replay changes nothing. Both are decided here, not by a filter that leaves the
 * write unmatched: an upsert whose filter matches nothing inserts, and that insert collides on
 * `_id` with the newer document, a duplicate-key error that cannot be told apart from a real one
 * without parsing messages, and that aborts the whole transaction. The transaction's snapshot
 * keeps `stored` true until it commits: a document another writer changes meanwhile fails the
 * transaction with a write conflict, which runs it again.
 *
 * Deletions go first, in the order given, then the documents: a value of a unique index that a
 * deletion frees can be taken by a document of the same batch.
 */
export function documentOperations(writes: readonly DocumentWrite[], stored: ReadonlyMap<string, number>): AnyBulkWriteOperation<StoredShape>[] {
  const deletions: AnyBulkWriteOperation<StoredShape>[] = [];
  const documents: AnyBulkWriteOperation<StoredShape>[] = [];
  for (const write of writes) {
    const position = stored.get(write.id);
    if (write.doc === null) {
      if (position !== undefined && position <= write.position) deletions.push({ deleteOne: { filter: { _id: write.id, _position: { $lte: write.position } } } });
      continue;
    }
    if (position !== undefined && position >= write.position) continue;
    documents.push({ replaceOne: { filter: { _id: write.id }, replacement: { _position: write.position, doc: write.doc }, upsert: true } });
  }
  return [...deletions, ...documents];
}

/** The document an operation of `documentOperations` writes or deletes. */
export function operationId(operation: AnyBulkWriteOperation<StoredShape> | undefined): string | null {
  if (!operation) return null;
  if ('replaceOne' in operation) return idOf(operation.replaceOne.filter);
  if ('deleteOne' in operation) return idOf(operation.deleteOne.filter);
  return null;
}

function idOf(filter: object): string | null {
  return '_id' in filter && typeof filter._id === 'string' ? filter._id : null;
}

/**
 * The index a duplicate-key error names: MongoDB says `E11000 duplicate key error collection:
 * vigil.rm_users index: doc.email_1 dup key: { doc.email: "…" }`, and the driver passes on only
 * that message of a bulk write's errors (not the server's `keyPattern`).
 */
export function duplicateKeyIndex(errmsg: string | undefined): string | null {
  return /\bindex: (\S+)/.exec(errmsg ?? '')?.[1] ?? null;
}

/**
 * The projection's fields of one of our indexes, from the name MongoDB gives it by default:
 * `doc.<field>_1` for each key, joined by `_` (`doc.project_id_1_doc.name_1`).
 */
export function indexFields(index: string): string[] {
  return [...index.matchAll(/(?:^|_)doc\.(.+?)_-?1(?=_doc\.|$)/g)].map((match) => match[1]!);
}
