import type { Decider, DomainEvent } from '../domain/decider.js';
import type { EventStore, JsonObject, RecordedEvent } from '../eventstore/event-store.js';
import { WrongExpectedRevisionError } from '../eventstore/event-store.js';
import type { KeyedMutex } from './keyed-mutex.js';

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
  for (let attempt = 1; ; attempt += 1) {
    const { state, revision } = await loadState(store, streamName, decider);
    const events = decider.decide(command, state);
    if (events.length === 0) return { events, state, position: null };
    try {
      const result = await store.appendToStream(
        streamName,
        events.map((event) => ({ type: event.type, data: toJsonObject(event.data), metadata: { ...actor } })),
        { expectedRevision: revision },
      );
      return { events, state: events.reduce(decider.evolve, state), position: result.position };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= MAX_ATTEMPTS) throw error;
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

/** Events in the log were written by Vigil's own deciders, so their shape is trusted. */
export function toDomainEvent<E extends DomainEvent>(recorded: RecordedEvent): E {
  return { type: recorded.type, data: recorded.data } as E;
}

/** Domain event data is built from JSON values only; this is where its type says so. */
export function toJsonObject(data: object): JsonObject {
  return data as JsonObject;
}
