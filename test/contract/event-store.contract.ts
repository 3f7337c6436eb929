import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import {
  type EventStore,
  type MultiStreamEventStore,
  type RecordedEvent,
  appendsToStreamsAtOnce,
  StreamDeletedError,
  WrongExpectedRevisionError,
} from '../../src/eventstore/event-store.js';

export interface EventStoreFixture {
  store: EventStore;
  dispose: () => Promise<void>;
}

/** The behaviour every event-store adapter must show; streams are unique per test so a shared server works. */
export function eventStoreContract(adapter: string, open: () => Promise<EventStoreFixture>): void {
  describe(`EventStore contract: ${adapter}`, () => {
    let fixture: EventStoreFixture;
    let store: EventStore;
    beforeEach(async () => {
      fixture = await open();
      store = fixture.store;
    });
    afterEach(() => fixture.dispose());

    const streamName = (prefix = 'contract') => `${prefix}-${randomUUID()}`;
    const event = (n: number) => ({ type: 'Counted', data: { n, at: '2026-11-21T00:00:00.000Z' }, metadata: { by: 'test' } });
    const numbers = (events: RecordedEvent[]) => events.map((e) => e.data['n']);
    /** The store, in the specs of a store that appends to several streams at once (the others skip them). */
    const atOnce = (): MultiStreamEventStore => {
      if (!appendsToStreamsAtOnce(store)) throw new Error(`${adapter} does not append to several streams at once`);
      return store;
    };

    it('appends to a new stream and reads it back in order with revisions from 0', async () => {
      const stream = streamName();
      const result = await store.appendToStream(stream, [event(1), event(2), event(3)], { expectedRevision: 'no_stream' });
      expect(result.nextExpectedRevision).to.equal(2);
      const events = await store.readStream(stream);
      expect(numbers(events)).to.deep.equal([1, 2, 3]);
      expect(events.map((e) => e.revision)).to.deep.equal([0, 1, 2]);
      expect(events[0]).to.include({ streamName: stream, type: 'Counted' });
      expect(events[0]!.metadata).to.deep.equal({ by: 'test' });
      expect(events[0]!.created).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(result.position).to.equal(events[2]!.position);
    });

    it('rejects no_stream when the stream exists', async () => {
      const stream = streamName();
      await store.appendToStream(stream, [event(1)], { expectedRevision: 'no_stream' });
      const error = await store.appendToStream(stream, [event(2)], { expectedRevision: 'no_stream' }).catch((e) => e);
      expect(error).to.be.instanceOf(WrongExpectedRevisionError);
      expect(numbers(await store.readStream(stream))).to.deep.equal([1]);
    });

    it('appends at the exact expected revision and rejects a stale one', async () => {
      const stream = streamName();
      await store.appendToStream(stream, [event(1), event(2)]);
      await store.appendToStream(stream, [event(3)], { expectedRevision: 1 });
      const error = await store.appendToStream(stream, [event(4)], { expectedRevision: 1 }).catch((e) => e);
      expect(error).to.be.instanceOf(WrongExpectedRevisionError);
      expect((error as WrongExpectedRevisionError).actual).to.equal(2);
      expect(numbers(await store.readStream(stream))).to.deep.equal([1, 2, 3]);
    });

    it('rejects stream_exists on an absent stream and accepts any anywhere', async () => {
      const stream = streamName();
      const error = await store.appendToStream(stream, [event(1)], { expectedRevision: 'stream_exists' }).catch((e) => e);
      expect(error).to.be.instanceOf(WrongExpectedRevisionError);
      await store.appendToStream(stream, [event(1)], { expectedRevision: 'any' });
      await store.appendToStream(stream, [event(2)], { expectedRevision: 'stream_exists' });
      expect(numbers(await store.readStream(stream))).to.deep.equal([1, 2]);
    });

    it('lets exactly one of two racing appends at the same revision win', async () => {
      const stream = streamName();
      await store.appendToStream(stream, [event(0)]);
      const outcomes = await Promise.allSettled([
        store.appendToStream(stream, [event(1)], { expectedRevision: 0 }),
        store.appendToStream(stream, [event(2)], { expectedRevision: 0 }),
      ]);
      expect(outcomes.filter((o) => o.status === 'fulfilled')).to.have.length(1);
      const rejected = outcomes.find((o) => o.status === 'rejected');
      expect(rejected && rejected.status === 'rejected' && rejected.reason).to.be.instanceOf(WrongExpectedRevisionError);
      expect(await store.readStream(stream)).to.have.length(2);
    });

    it('commits many concurrent appends to different streams, each at its own position', async () => {
      const streams = Array.from({ length: 50 }, () => streamName());
      const results = await Promise.all(streams.map((s, i) => store.appendToStream(s, [event(i)], { expectedRevision: 'no_stream' })));
      expect(new Set(results.map((r) => r.position)).size).to.equal(50);
      for (const [i, s] of streams.entries()) expect(numbers(await store.readStream(s))).to.deep.equal([i]);
    });

    describe('idempotent retried append', () => {
      const withIds = (ids: string[]) => ids.map((id, i) => ({ ...event(i + 1), id }));

      it('answers a retry of an append it recorded (same ids, same expected revision) as the first, without a second copy', async () => {
        const stream = streamName();
        await store.appendToStream(stream, [event(0)], { expectedRevision: 'no_stream' });
        const ids = [randomUUID(), randomUUID()];
        const first = await store.appendToStream(stream, withIds(ids), { expectedRevision: 0 });
        const retried = await store.appendToStream(stream, withIds(ids), { expectedRevision: 0 });
        expect(retried).to.deep.equal(first);
        const events = await store.readStream(stream);
        expect(events.map((e) => e.id).slice(1)).to.deep.equal(ids);
        expect(events).to.have.length(3);
      });

      it('answers a retry of a first append to a stream (no_stream) without a second copy', async () => {
        const stream = streamName();
        const ids = [randomUUID()];
        const first = await store.appendToStream(stream, withIds(ids), { expectedRevision: 'no_stream' });
        expect(await store.appendToStream(stream, withIds(ids), { expectedRevision: 'no_stream' })).to.deep.equal(first);
        expect(await store.readStream(stream)).to.have.length(1);
      });

      it('still refuses other events at a revision that has moved on', async () => {
        const stream = streamName();
        await store.appendToStream(stream, withIds([randomUUID()]), { expectedRevision: 'no_stream' });
        const error = await store.appendToStream(stream, withIds([randomUUID()]), { expectedRevision: 'no_stream' }).catch((e) => e);
        expect(error).to.be.instanceOf(WrongExpectedRevisionError);
        expect(await store.readStream(stream)).to.have.length(1);
      });
    });

    describe('appending to several streams at once, where the store can', () => {
      beforeEach(function () {
        if (!appendsToStreamsAtOnce(store)) this.skip();
      });

      it('records every append, in order, each at its expected revision', async () => {
        const [a, b] = [streamName(), streamName()];
        await store.appendToStream(b, [event(0)]);
        const results = await atOnce().appendToStreams([
          { streamName: a, events: [event(1), event(2)], expectedRevision: 'no_stream' },
          { streamName: b, events: [event(3)], expectedRevision: 0 },
        ]);
        expect(results.map((r) => r.nextExpectedRevision)).to.deep.equal([1, 1]);
        expect(results[1]!.position).to.be.greaterThan(results[0]!.position);
        expect(numbers(await store.readStream(a))).to.deep.equal([1, 2]);
        expect(numbers(await store.readStream(b))).to.deep.equal([0, 3]);
      });

      it('records none of them when one expectation is not met, and commits the appends queued beside it', async () => {
        const [a, b, other] = [streamName(), streamName(), streamName()];
        await store.appendToStream(b, [event(0), event(1)]);
        const [together, beside] = await Promise.allSettled([
          atOnce().appendToStreams([
            { streamName: a, events: [event(2)], expectedRevision: 'no_stream' },
            { streamName: b, events: [event(3)], expectedRevision: 0 },
          ]),
          store.appendToStream(other, [event(4)], { expectedRevision: 'no_stream' }),
        ]);
        expect(together.status === 'rejected' && together.reason).to.be.instanceOf(WrongExpectedRevisionError);
        expect(beside.status).to.equal('fulfilled');
        expect(await store.readStream(a)).to.deep.equal([]);
        expect(numbers(await store.readStream(b))).to.deep.equal([0, 1]);
        expect(numbers(await store.readStream(other))).to.deep.equal([4]);
        // The stream the rolled-back append would have created is still free.
        await store.appendToStream(a, [event(5)], { expectedRevision: 'no_stream' });
        expect(numbers(await store.readStream(a))).to.deep.equal([5]);
      });
    });

    describe('appending nothing to one of several streams, where the store can', () => {
      beforeEach(function () {
        if (!appendsToStreamsAtOnce(store)) this.skip();
      });

      it('refuses a decision when any stream it read moved, the one it writes nothing to included', async () => {
        const [monitor, pings] = [streamName('monitor'), streamName('pings')];
        await store.appendToStream(monitor, [event(0)]);
        await store.appendToStream(pings, [event(1)]);
        // A timer fire read both (monitor at 0, pings at 0); a ping lands in the pings stream first.
        await store.appendToStream(pings, [event(2)], { expectedRevision: 0 });
        const refused = await atOnce().appendToStreams([
          { streamName: pings, events: [], expectedRevision: 0 },
          { streamName: monitor, events: [event(3)], expectedRevision: 0 },
        ]).then(() => null, (error: unknown) => error);
        expect(refused).to.be.instanceOf(WrongExpectedRevisionError);
        expect(numbers(await store.readStream(monitor))).to.deep.equal([0]);
      });

      it('checks that stream\'s expected revision and records nothing in it', async () => {
        const [checked, absent, written] = [streamName(), streamName(), streamName()];
        await store.appendToStream(checked, [event(0), event(1)]);
        await atOnce().appendToStreams([
          { streamName: checked, events: [], expectedRevision: 1 },
          { streamName: absent, events: [], expectedRevision: 'no_stream' },
          { streamName: written, events: [event(2)], expectedRevision: 'no_stream' },
        ]);
        const refused = await atOnce().appendToStreams([
          { streamName: checked, events: [], expectedRevision: 0 },
          { streamName: written, events: [event(3)], expectedRevision: 0 },
        ]).then(() => null, (error: unknown) => error);
        expect(refused).to.be.instanceOf(WrongExpectedRevisionError);
        expect(numbers(await store.readStream(checked))).to.deep.equal([0, 1]);
        expect(numbers(await store.readStream(written))).to.deep.equal([2]);
        // Checking a stream that does not exist does not create it.
        await store.appendToStream(absent, [event(4)], { expectedRevision: 'no_stream' });
        expect(numbers(await store.readStream(absent))).to.deep.equal([4]);
      });

      it("answers a check with the log's head: the writes before it in the same append included, a refused append's not", async () => {
        const [checked, written] = [streamName(), streamName()];
        await store.appendToStream(checked, [event(0)]);
        const [write, check] = await atOnce().appendToStreams([
          { streamName: written, events: [event(1)], expectedRevision: 'no_stream' },
          { streamName: checked, events: [], expectedRevision: 0 },
        ]);
        expect(check!.position).to.equal(write!.position);
        // Asked for together, so a store that groups its commits commits them together.
        const refused = atOnce().appendToStreams([
          { streamName: written, events: [event(2)], expectedRevision: 0 },
          { streamName: checked, events: [], expectedRevision: 5 },
        ]).then(() => null, (error: unknown) => error);
        const alone = atOnce().appendToStreams([{ streamName: checked, events: [], expectedRevision: 0 }]);
        expect(await refused).to.be.instanceOf(WrongExpectedRevisionError);
        expect((await alone)[0]!.position).to.equal(write!.position);
      });
    });

    it('reads a stream backwards, from a revision, and with a max count', async () => {
      const stream = streamName();
      await store.appendToStream(stream, [1, 2, 3, 4, 5].map(event));
      expect(numbers(await store.readStream(stream, { direction: 'backwards', maxCount: 2 }))).to.deep.equal([5, 4]);
      expect(numbers(await store.readStream(stream, { fromRevision: 3 }))).to.deep.equal([4, 5]);
      expect(numbers(await store.readStream(stream, { direction: 'backwards', fromRevision: 1 }))).to.deep.equal([2, 1]);
    });

    it('reads an absent stream as empty', async () => {
      expect(await store.readStream(streamName())).to.deep.equal([]);
    });

    it('reads $all in global order after a position', async () => {
      const start = await store.headPosition();
      const a = streamName();
      const b = streamName();
      await store.appendToStream(a, [event(1)]);
      await store.appendToStream(b, [event(2)]);
      await store.appendToStream(a, [event(3)]);
      const all = (await store.readAll({ after: start })).filter((e) => e.streamName === a || e.streamName === b);
      expect(numbers(all)).to.deep.equal([1, 2, 3]);
      const positions = all.map((e) => e.position);
      expect([...positions].sort((x, y) => x - y)).to.deep.equal(positions);
      expect(new Set(positions).size).to.equal(3);
      const afterFirst = (await store.readAll({ after: positions[0]! })).filter((e) => e.streamName === a || e.streamName === b);
      expect(numbers(afterFirst)).to.deep.equal([2, 3]);
      expect(await store.headPosition()).to.be.at.least(positions[2]!);
    });

    it('counts the events readAll hands out after a position, no further than asked, where it counts at all', async function () {
      if ((await store.countEventsAfter(0, 1)) === null) this.skip();
      const start = await store.headPosition();
      const kept = streamName();
      const deleted = streamName();
      await store.appendToStream(kept, [event(1), event(2)]);
      await store.appendToStream(deleted, [event(3), event(4), event(5)]);
      await store.deleteStream(deleted);
      await store.setStreamMaxCount(kept, 1);
      await store.appendToStream(kept, [event(6)]);
      const handedOut = (await store.readAll({ after: start })).length;
      expect(handedOut, 'no removed event, no system record').to.equal(1);
      expect(await store.countEventsAfter(start, 100)).to.equal(handedOut);
      await store.appendToStream(streamName(), [event(7), event(8)]);
      expect(await store.countEventsAfter(start, 2)).to.equal(2);
      expect(await store.countEventsAfter(await store.headPosition(), 100)).to.equal(0);
    });

    it('catches a subscription up from a position, then delivers live events in order, filtered by prefix', async () => {
      const prefix = `sub${randomUUID().slice(0, 8)}`;
      const start = await store.headPosition();
      await store.appendToStream(`${prefix}-a`, [event(1)]);
      await store.appendToStream(streamName('other'), [event(99)]);
      await store.appendToStream(`${prefix}-b`, [event(2)]);
      const subscription = store.subscribeToAll({ after: start, streamNamePrefixes: [prefix] });
      const seen: number[] = [];
      const consumed = (async () => {
        for await (const e of subscription) {
          seen.push(Number(e.data['n']));
          if (seen.length === 4) break;
        }
      })();
      await store.appendToStream(`${prefix}-a`, [event(3)]);
      await store.appendToStream(`${prefix}-c`, [event(4)]);
      await consumed;
      await subscription.unsubscribe();
      expect(seen).to.deep.equal([1, 2, 3, 4]);
    });

    it('ends a waiting subscription when it is unsubscribed', async () => {
      const subscription = store.subscribeToAll({ after: await store.headPosition(), streamNamePrefixes: [`none${randomUUID()}`] });
      const consumed = (async () => {
        for await (const _ of subscription) return 'event';
        return 'ended';
      })();
      await subscription.unsubscribe();
      expect(await consumed).to.equal('ended');
    });

    it('leaves out of $all, and of the head position, events past their stream\'s max count and of deleted streams', async () => {
        const start = await store.headPosition();
        const [kept, windowed, deleted] = [streamName(), streamName(), streamName()];
        const last = await store.appendToStream(kept, [event(1)]);
        await store.appendToStream(windowed, [2, 3, 4].map(event));
        await store.setStreamMaxCount(windowed, 1);
        await store.appendToStream(deleted, [event(5)]);
        await store.deleteStream(deleted);
        const mine = (await store.readAll({ after: start })).filter((e) => [kept, windowed, deleted].includes(e.streamName));
        expect(numbers(mine)).to.deep.equal([1, 4]);
        expect(mine.every((e) => !e.streamName.startsWith('$') && !e.type.startsWith('$'))).to.equal(true);
        // What a reader waits for must be what a subscription reaches: not a system record, nor a removed event.
        const windowedLast = mine.at(-1)!.position;
        expect(await store.headPosition()).to.equal(Math.max(windowedLast, last.position));
      });

    it('keeps only the newest maxCount events of a stream, revisions unchanged', async () => {
      const stream = streamName();
      await store.appendToStream(stream, [1, 2, 3, 4, 5].map(event));
      await store.setStreamMaxCount(stream, 3);
      await store.appendToStream(stream, [event(6)], { expectedRevision: 4 });
      const events = await store.readStream(stream);
      expect(numbers(events)).to.deep.equal([4, 5, 6]);
      expect(events.map((e) => e.revision)).to.deep.equal([3, 4, 5]);
    });

    it('hard-deletes a stream: it reads empty and can never be written again', async () => {
      const stream = streamName();
      await store.appendToStream(stream, [event(1), event(2)]);
      await store.deleteStream(stream);
      expect(await store.readStream(stream)).to.deep.equal([]);
      const error = await store.appendToStream(stream, [event(3)]).catch((e) => e);
      expect(error).to.be.instanceOf(StreamDeletedError);
    });
  });
}
