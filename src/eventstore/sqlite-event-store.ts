import type { Worker } from 'node:worker_threads';
import type { SqliteDatabase } from './sqlite-database.js';
import {
  type AppendResult,
  type EventToAppend,
  type ExpectedRevision,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type MultiStreamEventStore,
  type StreamAppend,
  type SubscribeOptions,
  type Subscription,
  matchesPrefixes,
} from './event-store.js';
import { type EventRow, prepareEventReads, toRecordedEvent } from './sqlite-event-rows.js';
import { type LogWrite, type LogWriteOutcome, SqliteLogWriter, ensureLogSchema, rejectionError } from './sqlite-log-writer.js';
import type { WriterRequest } from './sqlite-writer-thread.js';
import { commitOnWriterThread, startWriterThread } from './sqlite-writer-link.js';
import type { CompactionPlan } from './log-compaction.js';
import type { CommitSignal } from './commit-signal.js';
import { WriteGate } from './write-gate.js';
import { type StorageFault, StoreCannotWriteError, type WriteHealth, storageFault } from './storage-fault.js';

interface PendingWrite {
  write: LogWrite;
  resolve: (outcome: Extract<LogWriteOutcome, { ok: true }>) => void;
  reject: (error: unknown) => void;
}

export interface SqliteEventStoreOptions {
  /** How often an idle subscription looks for events written by other processes. */
  pollIntervalMs?: number;
  clock?: () => Date;
  /**
   * `thread`: commits (and the fsync each one waits for) run on a writer thread with its own
   * connection, so the thread that appends stays free while a group is made durable, and the
   * next group gathers meanwhile. `inline` (the default): on the caller's thread. A file
   * database only.
   */
  writer?: 'inline' | 'thread';
  /** Shared with this process's other writing connections (see WriteGate). */
  writeGate?: WriteGate;
  /** Signalled after each commit, and waited on by subscriptions: shared with this process's other threads. */
  commitSignal?: CommitSignal;
}

const SUBSCRIPTION_PAGE = 512;

/**
 * The embedded event store. Appends queued before the next commit starts are committed together in
 * one transaction (group commit): one fsync acknowledges them all, which is what makes concurrent
 * ping ingestion cheap while every acknowledged event is durable. A commit starts on the next turn
 * of the event loop, or with a writer thread as soon as the previous one is durable. Truncations
 * and deletions queue with the appends, so they land in the order they were asked for.
 */
export class SqliteEventStore implements MultiStreamEventStore {
  private pending: PendingWrite[] = [];
  private flushScheduled = false;
  private inFlight: Promise<void> | null = null;
  /** Since when the inline writer has waited for another thread of this process to stop writing. */
  private gateWaitSince: number | null = null;
  private readonly newEventListeners = new Set<() => void>();
  private closed = false;
  private commits = 0;
  /** Why the last commit failed, while the disk refuses them; cleared by the next that succeeds. */
  private writeFailure: { fault: StorageFault; since: string } | null = null;
  private readonly pollIntervalMs: number;
  private readonly commitSignal: CommitSignal | null;
  private readonly clock: () => Date;
  private readonly statements;
  private readonly inlineWriter: SqliteLogWriter | null;
  private readonly writerThread: Worker | null;

  constructor(
    private readonly db: SqliteDatabase,
    options: SqliteEventStoreOptions = {},
  ) {
    this.pollIntervalMs = options.pollIntervalMs ?? 100;
    this.commitSignal = options.commitSignal ?? null;
    this.clock = options.clock ?? (() => new Date());
    ensureLogSchema(db);
    if (options.writer === 'thread') {
      if (db.memory) throw new Error('a writer thread needs a database file, not :memory:');
      this.inlineWriter = null;
      // Its connection checkpoints as this one was told to (off where a WalCheckpointer does it).
      const autocheckpointPages = Number(db.pragma('wal_autocheckpoint', { simple: true }));
      this.writerThread = startWriterThread(db.name, options.writeGate ?? new WriteGate(), autocheckpointPages);
    } else {
      this.inlineWriter = new SqliteLogWriter(db, options.writeGate);
      this.writerThread = null;
    }
    this.statements = prepareEventReads(db);
  }

  async appendToStream(
    streamName: string,
    events: readonly EventToAppend[],
    options: { expectedRevision?: ExpectedRevision } = {},
  ): Promise<AppendResult> {
    const result = await this.enqueue({ kind: 'append', streamName, events, expectedRevision: options.expectedRevision ?? 'any' });
    if (!result) throw new Error('an append recorded no result');
    return result;
  }

  /** Atomic: the group commit applies them inside one savepoint (see SqliteLogWriter). */
  async appendToStreams(appends: readonly StreamAppend[]): Promise<AppendResult[]> {
    const outcome = await this.enqueueForOutcome({ kind: 'appendAll', appends });
    if (!outcome.each) throw new Error('an append to several streams recorded no results');
    return outcome.each;
  }

  private async enqueue(write: LogWrite): Promise<AppendResult | null> {
    return (await this.enqueueForOutcome(write)).result;
  }

  private enqueueForOutcome(write: LogWrite): Promise<Extract<LogWriteOutcome, { ok: true }>> {
    if (this.closed) return Promise.reject(new Error('event store is closed'));
    return new Promise((resolve, reject) => {
      this.pending.push({ write, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Commits what has queued up; with a writer thread, only once the previous group is durable. */
  private flush(): void {
    this.flushScheduled = false;
    if (this.inFlight || this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    const writes = batch.map((pending) => pending.write);
    const created = this.clock().toISOString();
    if (this.inlineWriter) {
      const writer = this.inlineWriter;
      let outcomes: LogWriteOutcome[] | null;
      try {
        outcomes = writer.commitIfFree(writes, created, this.gateWaitSince ?? undefined);
      } catch (error) {
        this.gateWaitSince = null;
        this.fail(batch, error);
        return;
      }
      if (outcomes === null) {
        // Another thread (the projector, the WAL checkpointer) is writing. Blocking here for it
        // would stop this thread answering anything; waiting lets requests go on arriving, and
        // their appends join this group.
        this.gateWaitSince ??= Date.now();
        this.pending = batch.concat(this.pending);
        this.inFlight = writer.whenFree().then(() => {
          this.inFlight = null;
          this.flush();
        });
        return;
      }
      this.gateWaitSince = null;
      this.settle(batch, outcomes);
      return;
    }
    this.inFlight = commitOnWriterThread(this.writerThread!, { writes, created }).then(
      (outcomes) => this.settle(batch, outcomes),
      (error: unknown) => this.fail(batch, error),
    ).finally(() => {
      this.inFlight = null;
      this.flush();
    });
  }

  /**
   * A group's commit failed: nothing of it was recorded, so each write is refused. Where the disk
   * refused it (full, or failing), the error says so, and the store remembers it for `writeHealth`
   * until a commit succeeds again. Every later write still tries: the first that commits is the
   * recovery, with no restart.
   */
  private fail(batch: PendingWrite[], error: unknown): void {
    const fault = storageFault(error);
    if (fault) this.writeFailure = { fault, since: this.writeFailure?.since ?? this.clock().toISOString() };
    const refused = fault ? new StoreCannotWriteError('event store', fault, { cause: error }) : error;
    for (const pending of batch) pending.reject(refused);
  }

  private settle(batch: PendingWrite[], outcomes: LogWriteOutcome[]): void {
    this.writeFailure = null;
    this.commits += 1;
    outcomes.forEach((outcome, index) => {
      const pending = batch[index]!;
      if (outcome.ok) pending.resolve(outcome);
      else pending.reject(rejectionError(outcome.error));
    });
    this.notifyNewEvents();
    this.commitSignal?.committed();
  }

  async readStream(streamName: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const { maxCount } = options;
    let rows: EventRow[];
    if (options.direction === 'backwards') {
      const from = options.fromRevision ?? Number.MAX_SAFE_INTEGER;
      rows = maxCount === undefined ? this.statements.backwards.all(streamName, from) : this.statements.backwardsLimited.all(streamName, from, maxCount);
    } else {
      const from = options.fromRevision ?? 0;
      rows = maxCount === undefined ? this.statements.forwards.all(streamName, from) : this.statements.forwardsLimited.all(streamName, from, maxCount);
    }
    return rows.map(toRecordedEvent);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    return this.statements.all.all(options.after ?? 0, options.maxCount ?? Number.MAX_SAFE_INTEGER).map(toRecordedEvent);
  }

  async headPosition(): Promise<number> {
    return this.statements.head.get()?.head ?? 0;
  }

  async countEventsAfter(position: number, atMost: number): Promise<number | null> {
    return this.statements.count.get(position, atMost)?.count ?? 0;
  }

  subscribeToAll(options: SubscribeOptions = {}): Subscription {
    let position = options.after ?? 0;
    let active = true;
    let wake: (() => void) | undefined;
    const signal = this.commitSignal;
    // Woken by a commit of this store, of another thread's (the signal), or the poll for other processes'.
    const waitForNewEvents = (seen: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(done, this.pollIntervalMs);
        function done() {
          clearTimeout(timer);
          resolve();
        }
        wake = done;
        this.newEventListeners.add(done);
        signal?.waitPast(seen, this.pollIntervalMs).then(done, done);
      }).finally(() => {
        if (wake) this.newEventListeners.delete(wake);
        wake = undefined;
      });
    const readPage = () => this.statements.all.all(position, SUBSCRIPTION_PAGE);
    const isActive = () => active && !this.closed;

    async function* events(): AsyncGenerator<RecordedEvent> {
      while (isActive()) {
        const seen = signal?.current() ?? 0;
        const rows = readPage();
        for (const row of rows) {
          if (!isActive()) return;
          position = row.position;
          if (matchesPrefixes(row.stream, options.streamNamePrefixes)) yield toRecordedEvent(row);
        }
        if (rows.length < SUBSCRIPTION_PAGE) await waitForNewEvents(seen);
      }
    }

    const iterator = events();
    return {
      [Symbol.asyncIterator]: () => iterator,
      unsubscribe: async () => {
        active = false;
        wake?.();
      },
    };
  }

  async setStreamMaxCount(streamName: string, maxCount: number): Promise<void> {
    if (!Number.isInteger(maxCount) || maxCount < 1) throw new RangeError('maxCount must be a positive integer');
    await this.enqueue({ kind: 'setMaxCount', streamName, maxCount });
  }

  /** Applies a compaction planned on any connection (planCompaction), in the order of the other writes. */
  async compact(plan: CompactionPlan): Promise<void> {
    await this.enqueue({ kind: 'compact', plan });
  }

  async deleteStream(streamName: string): Promise<void> {
    await this.enqueue({ kind: 'delete', streamName });
  }

  /**
   * Able to commit unless the last commit failed for want of disk. Then this commits a one-row
   * write through the same writer as the appends (their thread included), so that the answer
   * follows the disk: space freed, the probe commits and the store is writable again, even where
   * no append has come since (a load balancer sends none to an instance it took out).
   */
  async writeHealth(): Promise<WriteHealth> {
    if (!this.writeFailure || this.closed) return { ok: true };
    try {
      await this.enqueue({ kind: 'probe' });
      return { ok: true };
    } catch (error) {
      const fault = storageFault(error);
      if (!fault) throw error;
      return { ok: false, error: `cannot write: ${fault.reason} (${fault.code})`, since: this.writeFailure?.since ?? this.clock().toISOString() };
    }
  }

  /** Commits whatever was asked for before the close, then stops writing. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    while (this.inFlight || this.pending.length > 0) {
      this.flush();
      await this.inFlight;
    }
    if (this.writerThread && this.writerThread.threadId !== -1) {
      const exited = new Promise((resolve) => this.writerThread!.once('exit', resolve));
      this.writerThread.ref();
      this.writerThread.postMessage('close' satisfies WriterRequest);
      await exited;
    }
    this.notifyNewEvents();
  }

  /** Transactions committed so far: with group commit, fewer than the appends acknowledged. */
  get commitCount(): number {
    return this.commits;
  }

  private notifyNewEvents(): void {
    for (const listener of [...this.newEventListeners]) listener();
  }
}
