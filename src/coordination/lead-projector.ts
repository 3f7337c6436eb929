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
 * first to get it once it lapses takes over. One that stalled past its lease and goes on for a
 * while beside the new leader is kept from writing: each of its commits checks the lease in the
 * same transaction (CommitFence), in either store, and the checkpoint compare-and-set turns what
 * is left into conflicts and replays. While standing by, read-your-writes
 * waits follow the checkpoints the leader commits.
 */
export class LeadProjector implements ReadModelProgress {
  private current: Projector | null = null;
  /** The current projector's start, so that it is never stopped half-started. */
  private starting: Promise<void> = Promise.resolve();
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

  /**
   * Takes the lease if it is free and, leading, prepares the read models (a rebuild after a version
   * bump included) before returning, as a lone projector would; the lease is renewed meanwhile.
   */
  async start(): Promise<void> {
    const first = (await this.acquire()) ? this.launch() : Promise.resolve();
    this.loop.start();
    try {
      await first;
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  /** Renews or takes the lease; starts following the log on winning it and stops on losing it. */
  async refresh(): Promise<void> {
    const leading = await this.acquire();
    if (leading && !this.current) {
      // Not awaited: a long catch-up must not keep the lease from being renewed.
      this.launch().catch(this.options.onError);
    } else if (!leading && this.current) {
      const projector = this.current;
      this.current = null;
      await this.starting;
      await projector.stop();
    }
  }

  private acquire(): Promise<boolean> {
    return this.leases.acquire(PROJECTOR_LEASE, this.holder, this.options.ttlMs, this.options.clock());
  }

  private launch(): Promise<void> {
    const projector = this.makeProjector();
    this.current = projector;
    const started = projector.start().catch((error: unknown) => {
      if (this.current === projector) this.current = null;
      throw error;
    });
    this.starting = started.catch(() => undefined);
    return started;
  }

  /** Resolves once the projector this process leads with (if any) has prepared the read models. */
  started(): Promise<void> {
    return this.starting;
  }

  waitForPosition(position: number, timeoutMs: number): Promise<void> {
    return (this.current ?? this.standby).waitForPosition(position, timeoutMs);
  }

  committedPosition(): Promise<number> {
    return (this.current ?? this.standby).committedPosition();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    await this.starting;
    await this.current?.stop();
    this.current = null;
    await this.leases.release(PROJECTOR_LEASE, this.holder);
  }
}
