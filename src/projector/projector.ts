import type { EventStore, RecordedEvent } from '../eventstore/event-store.js';
import type { IncidentKind } from '../domain/monitors/incidents.js';
import type { VigilMetrics } from '../metrics/vigil-metrics.js';
import {
  type CheckpointAdvance,
  type CommitFence,
  type Document,
  type ReadModelStore,
  type RetiredProjection,
  CheckpointConflictError,
} from '../readstore/read-model-store.js';
import type { ProjectedEvent, Projection } from './projection.js';
import type { ProjectorOptions } from './projector-options.js';
import { toProjectedEvent } from './projected-event.js';
import { PositionWaiters } from './position-waiters.js';
import type { ReadModelProgress } from './read-model-progress.js';
import type { ReaderDemand } from './reader-demand.js';
import { CommittedDocuments } from './committed-documents.js';
import { WrittenDocuments } from './written-documents.js';

interface PendingWrite {
  doc: Document | null;
  position: number;
}

/** Documents kept as the projector's commits left them: some 20 MB at a kilobyte each. */
const DOCUMENTS_KEPT = 20_000;
/** How long the projector waits after a failure before it starts over from its checkpoints. */
const RETRY_AFTER_MS = 1000;
const IDLE = Symbol('idle');
const UNKNOWN = Symbol('unknown');
const idle = () => new Promise<typeof IDLE>((resolve) => setImmediate(() => resolve(IDLE)));

/**
 * Runs every projection over `$all`, in order, from its checkpoint. Events are applied to an
 * in-memory overlay and committed in batches with the checkpoints, whenever the batch is full or
 * the subscription has nothing more to hand over at once; so a burst is one transaction and a
 * single event is committed at once. A document already at or past an event's position skips it,
 * which makes a replay after a crash harmless.
 */
export class Projector implements ReadModelProgress {
  private readonly batchSize: number;
  private readonly rebuildBatchSize: number;
  private readonly onError: (error: unknown) => void;
  private readonly checkpoints = new Map<string, number>();
  /** The projections that handle each event type, in their order: most handle few types. */
  private readonly routes = new Map<string, Projection<object>[]>();
  private overlay = new Map<string, Map<string, PendingWrite>>();
  private lastProcessed = 0;
  private dirty = false;
  private committed = 0;
  private readonly waiters = new PositionWaiters();
  private readonly lingerMs: number;
  private readonly readerDemand: ReaderDemand | null;
  private readonly retired: readonly RetiredProjection[];
  /** When the batch being gathered is to be committed (see `batchDue`); null with none under way. */
  private due: Promise<typeof IDLE> | null = null;
  /** Wakes the batches lingering when a reader of this thread starts waiting. */
  private readonly lingering = new Set<() => void>();
  private running: Promise<void> | null = null;
  private stopping = false;
  private stopSubscription: (() => Promise<void>) | null = null;
  private readonly metrics: Pick<VigilMetrics, 'incidentsOpened'> | null;
  /**
   * The furthest any projection had committed when this projector loaded the checkpoints: events
   * up to it were counted by whoever first committed them, so a replay (a rebuilt projection,
   * a lost checkpoint race) does not count them again.
   */
  private countedUpTo = 0;
  private uncountedIncidents: IncidentKind[] = [];
  /** During a rebuild, what it has written: any other document cannot exist yet, so is not read. */
  private written: WrittenDocuments | null = null;
  private readonly committedDocuments: CommittedDocuments;
  /** The collections whose documents are read before an event is applied: the others' are not kept (see `fromEventAlone`). */
  private readonly readCollections: ReadonlySet<string>;
  private readonly fence: CommitFence | undefined;

  constructor(
    private readonly events: EventStore,
    private readonly readModels: ReadModelStore,
    private readonly projections: readonly Projection<object>[],
    options: ProjectorOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 1000;
    this.rebuildBatchSize = options.rebuildBatchSize ?? 10_000;
    this.onError = options.onError ?? ((error) => console.error('projector error', error));
    this.metrics = options.metrics ?? null;
    this.lingerMs = options.lingerMs ?? 0;
    this.readerDemand = options.readerDemand ?? null;
    this.retired = options.retired ?? [];
    this.fence = options.fence;
    this.committedDocuments = new CommittedDocuments(options.documentsKept ?? DOCUMENTS_KEPT);
    for (const projection of projections) {
      for (const type of new Set(projection.handles)) this.routes.set(type, [...(this.routes.get(type) ?? []), projection]);
    }
    this.readCollections = new Set(projections.filter((p) => !p.fromEventAlone).map((p) => p.collection.name));
  }

  /** Everything up to this log position is in the read models. */
  get position(): number {
    return this.committed;
  }

  /** Prepares the read models, then follows the log in the background until `stop`. */
  async start(): Promise<void> {
    await this.prepare();
    this.running = this.follow();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.stopSubscription?.();
    await this.running;
    this.running = null;
  }

  /** Applies everything in the log up to its head (or `until`), then returns. For the CLI and tests. */
  async catchUp(options: { until?: number; onProgress?: (position: number, head: number) => void } = {}): Promise<void> {
    await this.catchUpInBatches(this.batchSize, options);
  }

  private async catchUpInBatches(batchSize: number, options: { until?: number; onProgress?: (position: number, head: number) => void }): Promise<void> {
    await this.prepare();
    const head = options.until ?? (await this.events.headPosition());
    while (this.lastProcessed < head) {
      const page = await this.events.readAll({ after: this.lastProcessed, maxCount: batchSize });
      const inRange = page.filter((event) => event.position <= head);
      for (const event of inRange) await this.process(event);
      if (inRange.length === 0) this.lastProcessed = head;
      this.dirty = true;
      await this.flush();
      options.onProgress?.(this.lastProcessed, head);
      if (inRange.length < page.length || page.length === 0) break;
    }
  }

  /**
   * Drops every read model and replays the whole log into it: in larger batches, inside the
   * store's bulk load, and without reading back documents the replay has not written yet. The
   * checkpoints advance with each batch as usual, so a rebuild cut short resumes where it stopped.
   */
  async rebuild(onProgress?: (position: number, head: number) => void): Promise<void> {
    for (const projection of this.projections) {
      await this.readModels.reset({ name: projection.name, version: projection.version }, [projection.collection]);
    }
    // Most events touch a document or two; an estimate off by some only costs a few more reads.
    this.written = new WrittenDocuments(2 * (await this.events.headPosition()));
    try {
      await this.readModels.bulkLoad(
        this.projections.map((p) => p.collection),
        () => this.catchUpInBatches(this.rebuildBatchSize, { ...(onProgress ? { onProgress } : {}) }),
      );
    } finally {
      this.written = null;
    }
  }

  committedPosition(): Promise<number> {
    return Promise.resolve(this.committed);
  }

  waitForPosition(position: number, timeoutMs: number): Promise<void> {
    if (this.committed >= position) return Promise.resolve();
    const reached = this.waiters.wait(position, timeoutMs, () => this.committed);
    for (const wake of this.lingering) wake();
    return reached;
  }

  /**
   * Creates collections, rebuilds projections whose version changed, drops retired ones, and loads
   * the checkpoints.
   */
  private async prepare(): Promise<void> {
    await this.readModels.ensureCollections(this.projections.map((p) => p.collection));
    const stored = new Map((await this.readModels.readCheckpoints()).map((c) => [c.name, c]));
    for (const retired of this.retired) if (stored.delete(retired.name)) await this.readModels.drop(retired);
    this.countedUpTo = Math.max(this.countedUpTo, ...[...stored.values()].map((c) => c.position));
    this.uncountedIncidents = [];
    // Another writer may have been at work since these were committed (see CommittedDocuments).
    this.committedDocuments.clear();
    this.checkpoints.clear();
    for (const projection of this.projections) {
      const checkpoint = stored.get(projection.name);
      if (!checkpoint || checkpoint.version !== projection.version) {
        await this.readModels.reset({ name: projection.name, version: projection.version }, [projection.collection]);
        this.checkpoints.set(projection.name, 0);
      } else {
        this.checkpoints.set(projection.name, checkpoint.position);
      }
    }
    this.overlay = new Map();
    this.dirty = false;
    this.lastProcessed = Math.min(...this.checkpoints.values());
    this.advanceCommitted(this.lastProcessed);
  }

  private async follow(): Promise<void> {
    while (!this.stopping) {
      const subscription = this.events.subscribeToAll({ after: this.lastProcessed });
      this.stopSubscription = () => subscription.unsubscribe();
      try {
        const iterator = subscription[Symbol.asyncIterator]();
        let next = iterator.next();
        for (;;) {
          // With work pending, commit once the subscription has nothing ready and the batch is
          // due: a burst shares one commit, and so do the events of a linger (see `batchDue`).
          const result = this.dirty ? await Promise.race([next, this.batchDue()]) : await next;
          if (result === IDLE) {
            await this.flush();
            continue;
          }
          if (result.done) break;
          next = iterator.next();
          await this.process(result.value);
          if (this.pendingWrites() >= this.batchSize) await this.flush();
        }
        if (this.dirty) await this.flush();
      } catch (error) {
        if (this.stopping) break;
        // Another projector moved a checkpoint, or the store failed (a full disk refuses every
        // commit until space is freed): start over from what is committed, so nothing is skipped.
        if (!(error instanceof CheckpointConflictError)) {
          this.onError(error);
          await new Promise((resolve) => setTimeout(resolve, RETRY_AFTER_MS));
        }
        await subscription.unsubscribe();
        await this.prepareUntilDone();
      }
    }
  }

  /** `prepare`, tried again while the store fails it: a projector that gave up here would never follow the log again. */
  private async prepareUntilDone(): Promise<void> {
    while (!this.stopping) {
      try {
        await this.prepare();
        return;
      } catch (error) {
        this.onError(error);
        await new Promise((resolve) => setTimeout(resolve, RETRY_AFTER_MS));
      }
    }
  }

  private async process(recorded: RecordedEvent): Promise<void> {
    const event = toProjectedEvent(recorded);
    for (const projection of this.routes.get(event.type) ?? []) {
      if ((this.checkpoints.get(projection.name) ?? 0) >= event.position) continue;
      const target = projection.targets(event);
      if (target.where) {
        // A filter must see every earlier write, so commit the overlay first.
        await this.flush();
        const found = await this.readModels.find(projection.collection.name, target.where);
        for (const stored of found) this.applyToDocument(projection, stored.id, stored, event);
      }
      for (const id of target.ids ?? []) {
        // Read the stored document only when neither the batch nor the rebuild can tell it apart,
        // and the projection needs it.
        const known = this.knownDocument(projection.collection.name, id);
        const read = known === UNKNOWN && !projection.fromEventAlone;
        this.applyToDocument(projection, id, read ? await this.committedDocument(projection.collection.name, id) : known, event);
      }
    }
    this.lastProcessed = event.position;
    this.dirty = true;
    if (event.type === 'IncidentOpened' && event.position > this.countedUpTo) this.uncountedIncidents.push(event.data.event);
  }

  /** The document as this batch left it, null if a rebuild has not written it yet, else UNKNOWN. */
  private knownDocument(collection: string, id: string): PendingWrite | null | typeof UNKNOWN {
    const pending = this.overlay.get(collection)?.get(id);
    if (pending) return pending;
    return this.written !== null && !this.written.mayHave(collection, id) ? null : UNKNOWN;
  }

  /** The document as the last commit left it: as this projector committed or read it, else read now. */
  private async committedDocument(collection: string, id: string): Promise<PendingWrite> {
    const kept = this.committedDocuments.get(collection, id);
    if (kept) return kept;
    const stored = await this.readModels.get(collection, id);
    const committed = stored ? { doc: stored.doc, position: stored.position } : { doc: null, position: 0 };
    this.committedDocuments.set(collection, id, committed);
    return committed;
  }

  /** `current` UNKNOWN: not read (see `fromEventAlone`); the store checks the positions instead. */
  private applyToDocument(projection: Projection<object>, id: string, current: PendingWrite | null | typeof UNKNOWN, event: ProjectedEvent): void {
    const stored = current === UNKNOWN ? null : current;
    if (stored && stored.position >= event.position) return;
    // Projections build plain JSON documents; their declared shapes are for their own code.
    const doc = projection.apply(stored?.doc ?? null, event, id) as Document | null;
    // A deletion of what is known not to be there writes nothing; an unread document may be.
    if (doc === null && current !== UNKNOWN && (current === null || current.doc === null)) return;
    let writes = this.overlay.get(projection.collection.name);
    if (!writes) this.overlay.set(projection.collection.name, (writes = new Map<string, PendingWrite>()));
    if (!writes.has(id)) this.written?.add(projection.collection.name, id);
    writes.set(id, { doc, position: event.position });
  }

  private pendingWrites(): number {
    let count = 0;
    for (const writes of this.overlay.values()) count += writes.size;
    return count;
  }

  /**
   * Settles when the batch under way is to be committed: after the linger, or as soon as a reader
   * waits, and then once the subscription has nothing more ready at once. One per batch, so that
   * the events arriving meanwhile do not each start the linger over.
   */
  private batchDue(): Promise<typeof IDLE> {
    this.due ??= this.linger().then(idle);
    return this.due;
  }

  private async linger(): Promise<void> {
    const until = Date.now() + this.lingerMs;
    for (let left = this.lingerMs; left > 0 && !this.readerWaiting(); left = until - Date.now()) {
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.lingering.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.lingering.add(wake);
        void this.readerDemand?.whenWanted(left).then(wake);
      });
    }
  }

  private readerWaiting(): boolean {
    return this.waiters.any || (this.readerDemand?.waiting() ?? false);
  }

  private async flush(): Promise<void> {
    this.due = null;
    if (!this.dirty) return;
    const position = this.lastProcessed;
    const writes = [...this.overlay.entries()].flatMap(([collection, docs]) =>
      [...docs.entries()].map(([id, write]) => ({ collection, id, doc: write.doc, position: write.position })),
    );
    const advances: CheckpointAdvance[] = this.projections
      .filter((p) => (this.checkpoints.get(p.name) ?? 0) < position)
      .map((p) => ({ name: p.name, version: p.version, position, expectedPosition: this.checkpoints.get(p.name) ?? 0 }));
    await this.readModels.commit(writes, advances, this.fence);
    for (const write of writes) {
      // One history entry per event would only push out the documents that are read again.
      if (this.readCollections.has(write.collection)) this.committedDocuments.set(write.collection, write.id, { doc: write.doc, position: write.position });
    }
    for (const kind of this.uncountedIncidents) this.metrics?.incidentsOpened.inc({ kind });
    this.uncountedIncidents = [];
    this.countedUpTo = Math.max(this.countedUpTo, position);
    for (const advance of advances) this.checkpoints.set(advance.name, position);
    this.overlay = new Map();
    this.dirty = false;
    this.advanceCommitted(position);
  }

  private advanceCommitted(position: number): void {
    if (position <= this.committed) return;
    this.committed = position;
    this.waiters.release(position);
  }
}
