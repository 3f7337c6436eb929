import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from './module-worker.js';
import { WriteGate } from './write-gate.js';

/** 16,384 frames of 4 KiB pages: past a 64 MB WAL, a RESTART checkpoint waits for every writer. */
const DEFAULT_RESTART_AFTER_FRAMES = 16_384;

/** Under bench:pings at peak (~100 MB of WAL a second) the WAL's high-water mark stayed ~40 MB. */
const DEFAULT_INTERVAL_MS = 200;

/**
 * Copies the embedded file's WAL back into the database on a thread of its own, for connections
 * opened with SQLite's autocheckpoint off.
 *
 * By default SQLite checkpoints inside the commit that takes the WAL past 1,000 pages: that
 * commit copies ~4 MB and fsyncs the file while it still holds the write lock. With the projector
 * writing four documents per ping, that was every few hundred milliseconds at peak, and each time
 * the log's commit, with the pings acknowledged by it, waited behind it: timed inside the server
 * at half of peak load, the projector's commits took 30–40 ms at p99 and the log's waits for them
 * 25–30 ms. Here most of the copying happens beside the writers (a PASSIVE checkpoint takes no
 * write lock), and only the rest is copied while they wait at the gate, so that the WAL is found
 * fully copied and starts over (see wal-checkpoint-thread.ts).
 */
export class WalCheckpointer {
  private constructor(private readonly thread: Worker) {}

  /** `writeGate`: the one this process's writers take turns through, held for the finishing step. */
  static start(path: string, options: { intervalMs?: number; writeGate?: WriteGate; restartAfterFrames?: number } = {}): WalCheckpointer {
    const thread = startModuleWorker(import.meta.url, 'wal-checkpoint-thread', {
      path,
      intervalMs: options.intervalMs ?? DEFAULT_INTERVAL_MS,
      restartAfterFrames: options.restartAfterFrames ?? DEFAULT_RESTART_AFTER_FRAMES,
      writeGate: (options.writeGate ?? new WriteGate()).buffer,
    });
    // A checkpoint that fails is tried again at the next interval; the thread only reports dying.
    thread.on('error', (error) => console.error('WAL checkpointer failed', error));
    thread.unref();
    return new WalCheckpointer(thread);
  }

  /** Checkpoints once more (after the writers have closed, the whole WAL) and ends the thread. */
  async stop(): Promise<void> {
    if (this.thread.threadId === -1) return;
    const exited = new Promise((resolve) => this.thread.once('exit', resolve));
    this.thread.ref();
    this.thread.postMessage('stop');
    await exited;
  }
}
