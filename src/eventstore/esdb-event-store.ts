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
  isSystemRecord,
} from './event-store.js';
import type { WriteHealth } from './storage-fault.js';

/** Whether an event of $all is still to be read: its stream's retention ($maxCount, $tb) and deletion honoured. */
type Visible = (event: RecordedEvent) => Promise<boolean>;

/** How many streams' retention a reader remembers before it asks the server again. */
const VISIBILITY_CACHE = 1000;

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

  /**
   * `$all` holds what stream reads no longer give: events past a stream's `$maxCount` or `$tb`, and
   * those of a tombstoned stream, until a scavenge removes them from disk. Every reader of `$all`
   * here leaves them out, as the embedded store does, so retention and deletion mean the same in
   * both modes (export, as_of, a rebuild). Asked of the server once per stream and reader.
   */
  private visibility(): Visible {
    const firstKept = new Map<string, Promise<number>>();
    return async (event) => {
      if (firstKept.size >= VISIBILITY_CACHE) firstKept.clear();
      let kept = firstKept.get(event.streamName);
      if (!kept) firstKept.set(event.streamName, (kept = this.firstKeptRevision(event.streamName)));
      return event.revision >= (await kept);
    };
  }

  /** The first revision of the stream still to be read; Infinity for a deleted stream. */
  private async firstKeptRevision(streamName: string): Promise<number> {
    let last: number;
    try {
      const newest = await this.readStream(streamName, { direction: 'backwards', maxCount: 1 });
      if (newest.length === 0) return Number.POSITIVE_INFINITY;
      last = newest[0]!.revision;
    } catch (error) {
      if (error instanceof StreamDeletedError) return Number.POSITIVE_INFINITY;
      throw error;
    }
    const { metadata } = await this.client.getStreamMetadata(streamName);
    const truncateBefore = metadata?.truncateBefore;
    if (truncateBefore === END) return Number.POSITIVE_INFINITY;
    const byTruncation = typeof truncateBefore === 'number' ? truncateBefore : 0;
    const byCount = metadata?.maxCount !== undefined ? last - metadata.maxCount + 1 : 0;
    return Math.max(byTruncation, byCount);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const after = options.after ?? 0;
    const maxCount = options.maxCount ?? Number.MAX_SAFE_INTEGER;
    const read = this.client.readAll({
      direction: FORWARDS,
      fromPosition: after > 0 ? { commit: BigInt(after), prepare: BigInt(after) } : START,
    });
    const visible = this.visibility();
    const events: RecordedEvent[] = [];
    for await (const resolved of read) {
      const event = toRecordedEvent(resolved);
      // readAll's position is inclusive and $all holds system events: skip both.
      if (!event || event.position <= after || isSystemRecord(event) || !(await visible(event))) continue;
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
    const visible = this.visibility();
    async function* events(): AsyncGenerator<RecordedEvent> {
      for await (const resolved of subscription) {
        const event = toRecordedEvent(resolved);
        if (event && event.position > after && !isSystemRecord(event) && (await visible(event))) yield event;
      }
    }
    const iterator = events();
    return {
      [Symbol.asyncIterator]: () => iterator,
      unsubscribe: () => subscription.unsubscribe(),
    };
  }

  /**
   * The newest event a subscription delivers. The last record of `$all` is often the server's own
   * (stream metadata, statistics, a scavenge's), which the filtered subscription never hands over:
   * waiting for it would keep every read waiting out its whole catch-up bound, and the lag would
   * never reach 0. So read back past system records and what retention or deletion hides.
   */
  async headPosition(): Promise<number> {
    const visible = this.visibility();
    for await (const resolved of this.client.readAll({ direction: BACKWARDS, fromPosition: END })) {
      const event = toRecordedEvent(resolved);
      if (event && !isSystemRecord(event) && (await visible(event))) return event.position;
    }
    return 0;
  }

  /** Its positions are byte offsets and it keeps no count of `$all`: counting would read the events. */
  async countEventsAfter(): Promise<number | null> {
    return null;
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

  /** The client cannot tell ahead of a write: an append the server refuses fails on its own. */
  async writeHealth(): Promise<WriteHealth> {
    return { ok: true };
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
