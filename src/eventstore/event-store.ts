import type { WriteHealth } from './storage-fault.js';

/**
 * The event-store port, shaped after EventStoreDB so that the SQLite adapter and the
 * EventStoreDB adapter can be swapped without the rest of Vigil noticing.
 *
 * Revisions count events within one stream from 0. Positions order every event in the
 * whole log (`$all`); they only grow, but need not be contiguous.
 */
export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** `no_stream`: the stream must not exist; `stream_exists`: it must; a number: its last revision. */
export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | number;

export interface EventToAppend {
  type: string;
  data: JsonObject;
  metadata?: JsonObject;
  /** Lets a retried append be recognised; generated when absent. */
  id?: string;
}

export interface RecordedEvent {
  id: string;
  streamName: string;
  type: string;
  revision: number;
  position: number;
  data: JsonObject;
  metadata: JsonObject;
  /** ISO-8601 UTC time the store accepted the event. */
  created: string;
}

export interface AppendResult {
  /** Revision of the last event appended: pass it as the next expected revision. */
  nextExpectedRevision: number;
  /** Global position of the last event appended: what read-your-writes waits for. */
  position: number;
}

/** One stream's part of an append to several streams at once. */
export interface StreamAppend {
  streamName: string;
  events: readonly EventToAppend[];
  expectedRevision: ExpectedRevision;
}

export interface ReadStreamOptions {
  direction?: 'forwards' | 'backwards';
  /** Inclusive. Defaults to the first event (forwards) or the last (backwards). */
  fromRevision?: number;
  maxCount?: number;
}

export interface ReadAllOptions {
  /** Exclusive: only events after this position. 0 (the default) reads from the start. */
  after?: number;
  maxCount?: number;
}

export interface SubscribeOptions {
  /** Exclusive: the subscription delivers events after this position. */
  after?: number;
  /** Only events of streams whose names start with one of these. */
  streamNamePrefixes?: readonly string[];
}

/** A catch-up subscription to `$all`, consumed in order with `for await`. */
export interface Subscription extends AsyncIterable<RecordedEvent> {
  unsubscribe(): Promise<void>;
}

export interface EventStore {
  appendToStream(
    streamName: string,
    events: readonly EventToAppend[],
    options?: { expectedRevision?: ExpectedRevision },
  ): Promise<AppendResult>;
  /** Events of one stream; an absent or deleted stream reads as empty. */
  readStream(streamName: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  subscribeToAll(options?: SubscribeOptions): Subscription;
  /**
   * Position of the newest event `readAll` and `subscribeToAll` hand out (0 when none): system
   * records, and events removed by retention or deletion, do not count, for no reader ever
   * reaches them.
   */
  headPosition(): Promise<number>;
  /**
   * How many events `readAll` would hand out after `position`, counting no further than `atMost`
   * (a bound on the work, as the count is a scan); null where counting means reading the events
   * themselves (EventStoreDB: its positions are byte offsets and it keeps no count of `$all`).
   */
  countEventsAfter(position: number, atMost: number): Promise<number | null>;
  /** Keep only the newest `maxCount` events of a stream; older ones are removed. */
  setStreamMaxCount(streamName: string, maxCount: number): Promise<void>;
  /** Hard delete: the events are gone and the stream name can never be written again. */
  deleteStream(streamName: string): Promise<void>;
  /**
   * Whether the store can commit now. Where a commit failed for want of disk, the store tries a
   * small write of its own to find out (`/readyz` asks this); always able where the store cannot
   * tell (EventStoreDB answers that through its own connection's failures).
   */
  writeHealth(): Promise<WriteHealth>;
  close(): Promise<void>;
}

/**
 * A store that appends to several streams as one (the embedded store): every expectation holds and
 * every event is recorded, or nothing is (the first unmet expectation is thrown). Results in the
 * order given. EventStoreDB has no transaction across streams, so it is a plain EventStore: which
 * of the two Vigil has is known where the stores are wired (src/main/stores.ts), and the command
 * side's Appender is chosen there once.
 */
export interface MultiStreamEventStore extends EventStore {
  appendToStreams(appends: readonly StreamAppend[]): Promise<AppendResult[]>;
}

/** For a store wired by hand (tests, tools): whether it appends to several streams as one. */
export function appendsToStreamsAtOnce(store: EventStore): store is MultiStreamEventStore {
  return 'appendToStreams' in store && typeof store.appendToStreams === 'function';
}

export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly streamName: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | 'no_stream',
  ) {
    super(`stream ${streamName}: expected revision ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedRevisionError';
  }
}

export class StreamDeletedError extends Error {
  constructor(readonly streamName: string) {
    super(`stream ${streamName} has been deleted`);
    this.name = 'StreamDeletedError';
  }
}

/**
 * The store cannot say whether it recorded an append: the answer was lost (a deadline passed, the
 * connection dropped) after the request went out. Sent again with the same event ids and the
 * same expected revision, it is recorded once (see the contract's "idempotent retried append").
 */
export class AppendOutcomeUnknownError extends Error {
  constructor(readonly streamName: string, options?: { cause?: unknown }) {
    super(`stream ${streamName}: the store did not answer whether it recorded the append`, options);
    this.name = 'AppendOutcomeUnknownError';
  }
}

export function satisfiesExpectedRevision(expected: ExpectedRevision, actual: number | 'no_stream'): boolean {
  switch (expected) {
    case 'any':
      return true;
    case 'no_stream':
      return actual === 'no_stream';
    case 'stream_exists':
      return actual !== 'no_stream';
    default:
      return actual === expected;
  }
}

/**
 * Where a store records a stream's retention and deletion as events, as EventStoreDB does: in the
 * stream's metadata stream, `$$<stream>`. Being in the log, they are covered by its hashes, so an
 * audit can tell content removed by a window or a deletion from content removed by anyone else.
 */
export const metadataStreamOf = (streamName: string): string => `$$${streamName}`;
/** `$maxCount`: the window from then on; `$tb`: events before this revision were removed before the window was recorded. */
export const STREAM_METADATA = '$metadata';
export const STREAM_DELETED = '$streamDeleted';

/** System streams and events (`$`-prefixed) are the store's own: never handed to Vigil's readers. */
export function isSystemRecord(event: { streamName: string; type: string }): boolean {
  return event.streamName.startsWith('$') || event.type.startsWith('$');
}

export function matchesPrefixes(streamName: string, prefixes: readonly string[] | undefined): boolean {
  return !prefixes || prefixes.length === 0 || prefixes.some((prefix) => streamName.startsWith(prefix));
}
