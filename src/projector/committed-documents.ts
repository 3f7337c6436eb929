import type { Document } from '../readstore/read-model-store.js';

/** A document as a commit left it: null where there is none (never written, or deleted). */
export interface CommittedDocument {
  doc: Document | null;
  position: number;
}

/**
 * The documents this projector's own commits left, or that it read since, the most recently used
 * kept: the projector is the only writer of its read models, so what it committed is what a read
 * would find, and the next event for the same monitor needs no read. At peak ping load that read
 * (the monitor's document and its deadlines', each parsed from JSON) was the projector thread's
 * largest cost after waiting for the write lock.
 *
 * Only while nothing else writes: the projector forgets them all whenever it starts over from the
 * stored checkpoints (at start, after any failed commit, when another projector moved a
 * checkpoint, and before a rebuild), which is when another writer could have been at work.
 */
export class CommittedDocuments {
  private readonly documents = new Map<string, CommittedDocument>();

  constructor(private readonly capacity: number) {}

  get(collection: string, id: string): CommittedDocument | undefined {
    const key = keyOf(collection, id);
    const found = this.documents.get(key);
    if (found === undefined) return undefined;
    // Most recently used last, so that the first in the map is the one to forget.
    this.documents.delete(key);
    this.documents.set(key, found);
    return found;
  }

  set(collection: string, id: string, committed: CommittedDocument): void {
    const key = keyOf(collection, id);
    this.documents.delete(key);
    this.documents.set(key, committed);
    if (this.documents.size > this.capacity) this.documents.delete(this.documents.keys().next().value!);
  }

  clear(): void {
    this.documents.clear();
  }
}

function keyOf(collection: string, id: string): string {
  return `${collection}\u0000${id}`;
}
