import { ALL_THE_WORK, type WorkShare } from '../coordination/work-share.js';
import { ReadModelLagError } from '../projector/read-model-progress.js';
import type { MonitorRemovalDocument } from '../../projections/monitor-removals.js';
import { BackgroundLoop } from './background-loop.js';
import type { Actor } from './command-handler.js';
import { type DeletionDependencies, runMonitorDeletion } from './monitor-deletion.js';

const DELETER_ACTOR: Actor = { kind: 'system', user_id: null, api_key_id: null, request_id: null };

/** How many unfinished deletions one tick takes on. */
const DELETIONS_PER_TICK = 100;

/**
 * The monitor-deletion workflow's own loop, as the escalator is the escalations': it finishes the
 * deletions a crash (or a failed step) left half-way. It decides nothing: it reads the deletions
 * under way from the `monitor_removals` read model (made by the workflow's stream, and by the
 * events an older Vigil recorded a deletion with), and runs each one's workflow from its stream,
 * which says where it stands. A deletion that fails again is reported and tried on the next tick.
 *
 * Several instances split the deletions by monitor partition, as the notifiers split the pages; a
 * deletion two of them run at once still records each step once (each decides on its stream).
 */
export class MonitorDeleter {
  private readonly loop: BackgroundLoop;
  private readonly share: WorkShare;
  private readonly onError: (error: unknown) => void;

  constructor(
    private readonly deps: DeletionDependencies,
    options: { share?: WorkShare; pollMs?: number; onError?: (error: unknown) => void } = {},
  ) {
    this.share = options.share ?? ALL_THE_WORK;
    this.onError = options.onError ?? ((error: unknown) => console.error('monitor deleter error', error));
    this.loop = new BackgroundLoop(() => this.tick(), () => options.pollMs ?? 1000, this.onError);
  }

  /** Finishes the unfinished deletions of this instance's partitions; returns how many of them wrote anything. */
  async tick(): Promise<number> {
    const scope = await this.share.scope();
    if (!scope) return 0;
    const unfinished = await this.deps.readModels.find<MonitorRemovalDocument>('monitor_removals', scope, { limit: DELETIONS_PER_TICK });
    let finished = 0;
    for (const { doc } of unfinished) {
      try {
        const outcome = await runMonitorDeletion(this.deps, doc.id, doc.project_id, DELETER_ACTOR);
        // A deletion finished before the read models dropped it writes nothing again.
        if (outcome.position !== null) finished += 1;
      } catch (error) {
        this.onError(error);
        // The read models trail the log: the next deletion would wait as long. Next tick.
        if (error instanceof ReadModelLagError) break;
      }
    }
    return finished;
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }
}
