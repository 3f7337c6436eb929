import { parentPort, workerData } from 'node:worker_threads';
import { WriteGate } from '../../src/eventstore/write-gate.js';

/**
 * A thread that takes a WriteGate and keeps it for `holdMs`, as the projector's thread does during
 * a commit. It tells its parent once it holds the gate and records its exit in the shared journal.
 */
const { gate, journal, holdMs } = workerData as { gate: SharedArrayBuffer; journal: SharedArrayBuffer; holdMs: number };
const entries = new Int32Array(journal);
new WriteGate(gate).hold(() => {
  parentPort!.postMessage('holding');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, holdMs);
  Atomics.store(entries, 0, 1);
});
