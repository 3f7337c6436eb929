import { AppendOutcomeUnknownError, type EventStore, type MultiStreamEventStore, appendsToStreamsAtOnce } from '../../src/eventstore/event-store.js';

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
    countEventsAfter: (...args) => store.countEventsAfter(...args),
    writeHealth: () => store.writeHealth(),
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
  const appendToStreams = appendsToStreamsAtOnce(store) ? store.appendToStreams.bind(store) : undefined;
  return {
    ...withoutMultiStreamAppend(store),
    appendToStream: async (streamName, events, options) => lose(streamName, await store.appendToStream(streamName, events, options)),
    ...(appendToStreams ? { appendToStreams: async (appends: Parameters<MultiStreamEventStore['appendToStreams']>[0]) => lose(appends[0]!.streamName, await appendToStreams(appends)) } : {}),
    lostAnswers: () => lost - toLose,
  };
}

/**
 * The store as one process sees it while another writes: `beforeNextWrite` runs (once) just before
 * this one's next append, between its read and its write. `raced()` says whether it has run.
 */
export function racedStore(events: EventStore, beforeNextWrite: () => Promise<unknown>): EventStore & { raced: () => boolean } {
  let pending: (() => Promise<unknown>) | null = beforeNextWrite;
  const interleave = async () => {
    const other = pending;
    pending = null;
    await other?.();
  };
  const appendToStreams = appendsToStreamsAtOnce(events) ? events.appendToStreams.bind(events) : undefined;
  return Object.assign(Object.create(events) as EventStore, {
    appendToStream: async (...args: Parameters<EventStore['appendToStream']>) => (await interleave(), events.appendToStream(...args)),
    ...(appendToStreams ? { appendToStreams: async (...args: Parameters<MultiStreamEventStore['appendToStreams']>) => (await interleave(), appendToStreams(...args)) } : {}),
    raced: () => pending === null,
  });
}
