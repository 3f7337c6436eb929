import { hash, randomUUID } from 'node:crypto';
import type { Decider, DomainEvent } from '../domain/decider.js';
import type { AppendResult, EventStore, EventToAppend, ExpectedRevision, JsonObject, MultiStreamEventStore, RecordedEvent, StreamAppend } from '../eventstore/event-store.js';
import { AppendOutcomeUnknownError, WrongExpectedRevisionError } from '../eventstore/event-store.js';
import { SCHEMA_VERSION, decodeEvent } from '../event-codecs/decode.js';
import { currentVersion } from '../event-codecs/registry.js';
import type { KeyedMutex } from './keyed-mutex.js';
import type { StreamAppender } from './stream-appender.js';

export interface CommandOutcome<S, E> {
  events: E[];
  /** The state after the new events. */
  state: S;
  /** Log position of the last new event, for read-your-writes; null when nothing was recorded. */
  position: number | null;
}

/** Who caused a change; stored in each event's metadata for the audit trail. */
export interface Actor {
  kind: 'user' | 'system' | 'cli';
  user_id: string | null;
  api_key_id: string | null;
  request_id: string | null;
  /** The console session the change was made in (its public reference), where it was; absent otherwise. */
  session_ref?: string | null;
  /** Why the system acted, where a request other than the caller's own made it (`first_ping`). */
  cause?: string;
  request_ip?: string | null;
  request_ua?: string | null;
}

const MAX_ATTEMPTS = 8;

/**
 * read → fold → decide → append with the expected revision. A conflict means another writer got
 * there first: fold again with its events and decide anew, so the decision always sees the latest state.
 */
export async function handleCommand<C, S, E extends DomainEvent>(
  context: { events: EventStore; streamLocks: KeyedMutex },
  streamName: string,
  decider: Decider<C, S, E>,
  command: C,
  actor: Actor,
): Promise<CommandOutcome<S, E>> {
  return context.streamLocks.run(streamName, () => decideAndAppend(context.events, streamName, decider, command, actor));
}

async function decideAndAppend<C, S, E extends DomainEvent>(
  store: EventStore,
  streamName: string,
  decider: Decider<C, S, E>,
  command: C,
  actor: Actor,
): Promise<CommandOutcome<S, E>> {
  const commandId = randomUUID();
  for (let attempt = 1; ; attempt += 1) {
    const { state, revision } = await loadState(store, streamName, decider);
    const events = decider.decide(command, state);
    if (events.length === 0) return { events, state, position: null };
    try {
      const toAppend = events.map((event) => toAppendable(event, actor));
      const result = await appendRetrying(store, { streamName, events: withEventIds(commandId, streamName, revision, toAppend), expectedRevision: revision });
      return { events, state: events.reduce(decider.evolve, state), position: result.position };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= MAX_ATTEMPTS) throw error;
    }
  }
}

/**
 * As handleCommand, for a decision that reads several streams and writes to one (`streams[0]`):
 * the streams' events are folded together, in log order, and the append is conditional on every
 * stream read, each at the revision it was read at. Where the store appends to several streams as
 * one (the embedded store's Appender), the streams written nothing are checked in the same append,
 * so a decision on a state another writer has changed since is refused and made again. Where it
 * cannot (EventStoreDB's), only the written stream's revision is checked: a change to another
 * stream in the moment between the read and the append goes unnoticed.
 */
export async function handleCommandOnStreams<C, S, E extends DomainEvent>(
  context: { events: EventStore; streamLocks: KeyedMutex; appender: StreamAppender },
  streams: readonly [written: string, ...read: string[]],
  decider: Decider<C, S, E>,
  command: C,
  actor: Actor,
): Promise<CommandOutcome<S, E>> {
  const [written] = streams;
  const store = context.events;
  const commandId = randomUUID();
  return context.streamLocks.run(written, async () => {
    for (let attempt = 1; ; attempt += 1) {
      const recorded = await Promise.all(streams.map((stream) => store.readStream(stream)));
      const state = recorded.flat().sort((a, b) => a.position - b.position).map((event) => toDomainEvent<E>(event)).reduce(decider.evolve, decider.initialState());
      const events = decider.decide(command, state);
      if (events.length === 0) return { events, state, position: null };
      const revisions = recorded.map((stream) => stream.at(-1)?.revision ?? ('no_stream' as const));
      const encoded = withEventIds(commandId, written, revisions[0]!, events.map((event) => toAppendable(event, actor)));
      try {
        const checks = streams.slice(1).map((streamName, i) => ({ streamName, expectedRevision: revisions[i + 1]! }));
        const position = await context.appender.append([{ streamName: written, events: encoded, expectedRevision: revisions[0]! }], checks);
        return { events, state: events.reduce(decider.evolve, state), position };
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError) || attempt >= MAX_ATTEMPTS) throw error;
      }
    }
  });
}

/**
 * Event ids derived from the command and where its events go (stream, expected revision, index):
 * the same append sent again carries the same ids, so the store records it once (its
 * idempotence), while a decision made again on a newer revision gets ids of its own.
 */
export function withEventIds(commandId: string, streamName: string, expectedRevision: ExpectedRevision, events: readonly Omit<EventToAppend, 'id'>[]): EventToAppend[] {
  // The id before the spread: V8 (Node 20) adds keys after a spread on a slow path, and every ping's event passes here.
  return events.map((event, index) => ({ id: derivedUuid(`${commandId}\n${streamName}\n${String(expectedRevision)}\n${index}`), ...event }));
}

/** A UUID (version 8, RFC 9562's custom one) made of the name's SHA-256. */
function derivedUuid(name: string): string {
  // One-shot, as the log's own hashes: every ping's event id is made here.
  const hex = hash('sha256', name);
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** How many times an append whose outcome was lost is sent again before the command fails. */
const UNKNOWN_OUTCOME_RETRIES = 3;

/** Sends an append again, ids and expectation unchanged, while the store cannot say whether it recorded it. */
export async function appendRetrying(store: EventStore, append: StreamAppend): Promise<AppendResult> {
  for (let retry = 0; ; retry += 1) {
    try {
      return await store.appendToStream(append.streamName, append.events, { expectedRevision: append.expectedRevision });
    } catch (error) {
      if (!(error instanceof AppendOutcomeUnknownError) || retry >= UNKNOWN_OUTCOME_RETRIES) throw error;
    }
  }
}

/** As appendRetrying, for a store's append to several streams at once. */
export async function appendToStreamsRetrying(store: MultiStreamEventStore, appends: readonly StreamAppend[]): Promise<AppendResult[]> {
  for (let retry = 0; ; retry += 1) {
    try {
      return await store.appendToStreams(appends);
    } catch (error) {
      if (!(error instanceof AppendOutcomeUnknownError) || retry >= UNKNOWN_OUTCOME_RETRIES) throw error;
    }
  }
}

export async function loadState<S, E extends DomainEvent>(
  store: EventStore,
  streamName: string,
  decider: Pick<Decider<never, S, E>, 'initialState' | 'evolve'>,
): Promise<{ state: S; revision: number | 'no_stream' }> {
  const recorded = await store.readStream(streamName);
  const state = recorded.map((event) => toDomainEvent<E>(event)).reduce(decider.evolve, decider.initialState());
  const last = recorded.at(-1);
  return { state, revision: last ? last.revision : 'no_stream' };
}

/**
 * The recorded event as its decider folds it: upcast and decoded (see decodeEvent), so an event
 * that does not fit its type stops the load, naming where it is, instead of reaching `evolve`.
 * The data is checked; that the type is one of `E`'s is the stream's naming's promise.
 */
export function toDomainEvent<E extends DomainEvent>(recorded: RecordedEvent): E {
  return decodeEvent(recorded) as E;
}

/** An event as appended: its data, and in its metadata who caused it and the version of its type it is. */
export function toAppendable(event: DomainEvent, actor: Actor): Omit<EventToAppend, 'id'> {
  // The version before the actor's fields, for the reason withEventIds gives.
  return { type: event.type, data: toJsonObject(event.data), metadata: { [SCHEMA_VERSION]: currentVersion(event.type), ...actor } };
}

/** Domain event data is built from JSON values only; this is where its type says so. */
export function toJsonObject(data: object): JsonObject {
  return data as JsonObject;
}
