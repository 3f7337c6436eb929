import type { StreamAppend } from '../eventstore/event-store.js';

/** A stream a decision read and writes nothing to, at the revision it was read at. */
export type StreamCheck = Omit<StreamAppend, 'events'>;

/** The part of the Appender (appender.ts) every command uses. */
export interface StreamAppender {
  /**
   * Appends `writes` conditional on `checks`: atomic, the checks first (their checks then never
   * need undoing) and a write with no events a check too; sequential, each write that has events
   * in turn, the checks left unmade (docs/guarantees.md). A stream changed since it was read is
   * refused as WrongExpectedRevisionError, for the caller to decide again. Returns the log
   * position of the last event written, null if none was.
   */
  append(writes: readonly StreamAppend[], checks: readonly StreamCheck[]): Promise<number | null>;
}
