import { AppendOutcomeUnknownError, type EventStore } from '../../src/eventstore/event-store.js';

/**
 * The embedded store as EventStoreDB presents itself to Vigil: no append to several streams at
 * once, so every caller takes the path it takes in production.
 */
export function withoutMultiStreamAppend(store: EventStore): EventStore {
  return {
    appendToStream: (...args) => store.appendToStream(...args),
    readStream: (...args) => store.readStream(...args),
    readAll: (...args) => store.readAll(...args),
    subscribeToAll: (...args) => store.subscribeToAll(...args),
    headPosition: () => store.headPosition(),
    setStreamMaxCount: (...args) => store.setStreamMaxCount(...args),
    deleteStream: (...args) => store.deleteStream(...args),
    close: () => store.close(),
  };
}

/**
 * A store whose next `lost` appends are recorded but answered with AppendOutcomeUnknownError, as
 * a gRPC deadline passing after the server committed would be. `lostAnswers()` says how many were.
 */
export function losingAnswers(store: EventStore, lost: number): EventStore & { lostAnswers: () => number } {
  let toLose = lost;
  const lose = <T>(streamName: string, result: T): T => {
    if (toLose <= 0) return result;
    toLose -= 1;
    throw new AppendOutcomeUnknownError(streamName);
  };
  const appendToStreams = store.appendToStreams?.bind(store);
  return {
    ...withoutMultiStreamAppend(store),
    appendToStream: async (streamName, events, options) => lose(streamName, await store.appendToStream(streamName, events, options)),
    ...(appendToStreams ? { appendToStreams: async (appends) => lose(appends[0]!.streamName, await appendToStreams(appends)) } : {}),
    lostAnswers: () => lost - toLose,
  };
}
