import { BackgroundLoop } from '../app/background-loop.js';
import type { Projector } from '../projector/projector.js';
import type { ReadModelProgress } from '../projector/read-model-progress.js';
import type { LeaseStore } from './leases.js';

export const PROJECTOR_LEASE = 'projector';

export interface LeadProjectorOptions {
  ttlMs: number;
  clock: () => Date;
  onError: (error: unknown) => void;
}

/**
 * One projector at a time follows the log; the others stand by on the `projector` lease and the
 * first to get it once it lapses takes over. Two projectors would be safe anyway (the checkpoint
 * compare-and-set turns the slower one's commits into conflicts and replays), only wasteful: each
 * would apply every event and throw half of the work away. While standing by, read-your-writes
 * waits follow the checkpoints the leader commits.
 */
export class LeadProjector implements ReadModelProgress {
  private current: Projector | null = null;
  private readonly loop: BackgroundLoop;

  constructor(
    private readonly leases: LeaseStore,
    private readonly holder: string,
    private readonly options: LeadProjectorOptions,
    private readonly makeProjector: () => Projector,
    private readonly standby: ReadModelProgress,
  ) {
    this.loop = new BackgroundLoop(() => this.refresh(), () => Math.max(1, Math.floor(options.ttlMs / 3)), options.onError);
  }

  /** The projector this process runs now; null while another process leads. */
  get projector(): Projector | null {
    return this.current;
  }

  async start(): Promise<void> {
    await this.refresh();
    this.loop.start();
  }

  /** Renews or takes the lease; starts following the log on winning it and stops on losing it. */
  async refresh(): Promise<void> {
    const leading = await this.leases.acquire(PROJECTOR_LEASE, this.holder, this.options.ttlMs, this.options.clock());
    if (leading && !this.current) {
      const projector = this.makeProjector();
      await projector.start();
      this.current = projector;
    } else if (!leading && this.current) {
      const projector = this.current;
      this.current = null;
      await projector.stop();
    }
  }

  waitForPosition(position: number, timeoutMs: number): Promise<void> {
    return (this.current ?? this.standby).waitForPosition(position, timeoutMs);
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    await this.current?.stop();
    this.current = null;
    await this.leases.release(PROJECTOR_LEASE, this.holder);
  }
}
