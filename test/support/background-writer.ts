import { parentPort, workerData } from 'node:worker_threads';
import { WriteGate } from '../../src/eventstore/write-gate.js';

/**
 * A background writer (the projector's thread, the WAL checkpointer): it tells its parent it is
 * about to take the gate, takes it after the waiting writers, and records in the shared journal
 * (cell 1) what cell 0 held once it got it.
 */
const { gate, journal } = workerData as { gate: SharedArrayBuffer; journal: SharedArrayBuffer };
const entries = new Int32Array(journal);
parentPort!.postMessage('taking');
new WriteGate(gate, { waitForWritersMs: 5_000 }).holdAfterWaiters(() => Atomics.store(entries, 1, Atomics.load(entries, 0) + 10));
parentPort!.postMessage('written');
