import {
  BACKWARDS,
  CancelledError,
  DeadlineExceededError,
  END,
  EventStoreDBClient,
  FORWARDS,
  START,
  StreamDeletedError as EsdbStreamDeletedError,
  StreamNotFoundError,
  UnavailableError,
  WrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
  streamNameFilter,
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  type ResolvedEvent,
} from '@eventstore/db-client';
import {
  AppendOutcomeUnknownError,
  type AppendResult,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
  type JsonObject,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
  StreamDeletedError,
  WrongExpectedRevisionError,
} from './event-store.js';

/**
 * The production event store. Positions are EventStoreDB commit positions: byte offsets in its
 * transaction log, far below 2^53 for any log a single deployment will write, so they fit a number.
 */
export class EsdbEventStore implements EventStore {
  private constructor(private readonly client: EventStoreDBClient) {}

  static connect(connectionString: string): EsdbEventStore {
    return new EsdbEventStore(EventStoreDBClient.connectionString(connectionString));
  }

  async appendToStream(
    streamName: string,
    events: readonly EventToAppend[],
    options: { expectedRevision?: ExpectedRevision } = {},
  ): Promise<AppendResult> {
    const expected = options.expectedRevision ?? 'any';
    try {
      const result = await this.client.appendToStream(
        streamName,
        events.map((event) =>
          jsonEvent({
            type: event.type,
            data: event.data,
            metadata: event.metadata ?? {},
            ...(event.id ? { id: event.id } : {}),
          }),
        ),
        { expectedRevision: toEsdbExpectedRevision(expected) },
      );
      return {
        nextExpectedRevision: Number(result.nextExpectedRevision),
        position: Number(result.position?.commit ?? 0n),
      };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        const actual = typeof error.actualVersion === 'bigint' ? Number(error.actualVersion) : 'no_stream';
        throw new WrongExpectedRevisionError(streamName, expected, actual);
      }
      if (error instanceof EsdbStreamDeletedError) throw new StreamDeletedError(streamName);
      // The request may have reached the leader and been committed: the caller sends it again,
      // ids and expected revision unchanged, and the server's idempotence records it once.
      if (error instanceof DeadlineExceededError || error instanceof UnavailableError || error instanceof CancelledError) {
        throw new AppendOutcomeUnknownError(streamName, { cause: error });
      }
      throw error;
    }
  }

  async readStream(streamName: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const backwards = options.direction === 'backwards';
    const read = this.client.readStream(streamName, {
      direction: backwards ? BACKWARDS : FORWARDS,
      fromRevision: options.fromRevision !== undefined ? BigInt(options.fromRevision) : backwards ? END : START,
      ...(options.maxCount !== undefined ? { maxCount: options.maxCount } : {}),
    });
    const events: RecordedEvent[] = [];
    try {
      for await (const resolved of read) {
        const event = toRecordedEvent(resolved);
        if (event) events.push(event);
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError || error instanceof EsdbStreamDeletedError) return [];
      throw error;
    }
    return events;
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const after = options.after ?? 0;
    const maxCount = options.maxCount ?? Number.MAX_SAFE_INTEGER;
    const read = this.client.readAll({
      direction: FORWARDS,
      fromPosition: after > 0 ? { commit: BigInt(after), prepare: BigInt(after) } : START,
    });
    const events: RecordedEvent[] = [];
    for await (const resolved of read) {
      const event = toRecordedEvent(resolved);
      // readAll's position is inclusive and $all holds system events: skip both.
      if (!event || event.position <= after || event.type.startsWith('$') || event.streamName.startsWith('$')) continue;
      events.push(event);
      if (events.length >= maxCount) break;
    }
    return events;
  }

  subscribeToAll(options: SubscribeOptions = {}): Subscription {
    const after = options.after ?? 0;
    const subscription = this.client.subscribeToAll({
      fromPosition: after > 0 ? { commit: BigInt(after), prepare: BigInt(after) } : START,
      filter:
        options.streamNamePrefixes && options.streamNamePrefixes.length > 0
          ? streamNameFilter({ prefixes: [...options.streamNamePrefixes] })
          : excludeSystemEvents(),
    });
    async function* events(): AsyncGenerator<RecordedEvent> {
      for await (const resolved of subscription) {
        const event = toRecordedEvent(resolved);
        if (event && event.position > after) yield event;
      }
    }
    const iterator = events();
    return {
      [Symbol.asyncIterator]: () => iterator,
      unsubscribe: () => subscription.unsubscribe(),
    };
  }

  async headPosition(): Promise<number> {
    for await (const resolved of this.client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 })) {
      return Number(resolved.event?.position?.commit ?? 0n);
    }
    return 0;
  }

  async setStreamMaxCount(streamName: string, maxCount: number): Promise<void> {
    await this.client.setStreamMetadata(streamName, { maxCount });
  }

  async deleteStream(streamName: string): Promise<void> {
    try {
      await this.client.tombstoneStream(streamName);
    } catch (error) {
      if (!(error instanceof EsdbStreamDeletedError)) throw error;
    }
  }

  async close(): Promise<void> {
    await this.client.dispose();
  }
}

function toEsdbExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  return typeof expected === 'number' ? BigInt(expected) : expected;
}

function toRecordedEvent(resolved: ResolvedEvent | AllStreamResolvedEvent): RecordedEvent | undefined {
  const event = resolved.event;
  if (!event || !event.isJson) return undefined;
  return {
    id: event.id,
    streamName: event.streamId,
    type: event.type,
    revision: Number(event.revision),
    position: Number(event.position?.commit ?? resolved.commitPosition ?? 0n),
    data: event.data as JsonObject,
    metadata: (event.metadata ?? {}) as JsonObject,
    created: event.created.toISOString(),
  };
}
