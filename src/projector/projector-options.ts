import type { VigilMetrics } from '../metrics/vigil-metrics.js';
import type { CommitFence, RetiredProjection } from '../readstore/read-model-store.js';
import type { ReaderDemand } from './reader-demand.js';

export interface ProjectorOptions {
  /** Events applied in memory before their writes and the checkpoints are committed together. */
  batchSize?: number;
  /**
   * The same during `rebuild`: nobody waits on a rebuild's commits, and each commit rewrites the
   * hot pages of every table, so fewer, larger ones are much faster.
   */
  rebuildBatchSize?: number;
  onError?: (error: unknown) => void;
  /** Counts incidents opened as they first reach the read models. */
  metrics?: Pick<VigilMetrics, 'incidentsOpened'>;
  /**
   * How long a batch may keep gathering events once it has some, while no reader waits for them:
   * each commit rewrites the pages it touches, so at a moderate, steady load (where a batch would
   * otherwise be a ping or two) fewer, larger commits cost less CPU and WAL (at half of bench:pings'
   * peak: ~35 commits/s of ~170 documents instead of ~490 of 8–12, and the commits' share of a core
   * 17% instead of 23–26%). A reader waiting
   * on `waitForPosition`, or on `readerDemand` from another thread, has the batch committed at once.
   * 0 (the default): commit as soon as the subscription has nothing more to hand over at once.
   */
  lingerMs?: number;
  /** Readers on other threads of this process (the API's) say here that they wait. */
  readerDemand?: ReaderDemand;
  /** Projections no longer built: where their checkpoint is still stored, their collections are dropped. */
  retired?: readonly RetiredProjection[];
  /** The lease this projector follows the log under, which each of its commits checks (see CommitFence). */
  fence?: CommitFence;
  /** How many documents it keeps as its commits left them (see CommittedDocuments); 20,000 unless told. */
  documentsKept?: number;
}
