import { expect } from 'chai';
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../../src/eventstore/module-worker.js';
import { WriteGate } from '../../src/eventstore/write-gate.js';

function holdOnAnotherThread(gate: WriteGate, journal: SharedArrayBuffer, holdMs: number): Promise<Worker> {
  const worker = startModuleWorker(new URL('../support/gate-holder.ts', import.meta.url).href, 'gate-holder', { gate: gate.buffer, journal, holdMs });
  return new Promise((resolve, reject) => {
    worker.once('message', () => resolve(worker));
    worker.once('error', reject);
  });
}

describe('WriteGate', () => {
  it('runs work at once when nobody holds it, and returns what the work returns', () => {
    expect(new WriteGate().hold(() => 42)).to.equal(42);
  });

  it('lets a thread write only after the thread holding it has finished', async () => {
    const gate = new WriteGate();
    const journal = new SharedArrayBuffer(4);
    const holder = await holdOnAnotherThread(gate, journal, 300);
    // The other thread is inside its transaction: ours must not start until it has left.
    const otherHadFinished = gate.hold(() => Atomics.load(new Int32Array(journal), 0) === 1);
    expect(otherHadFinished).to.equal(true);
    await holder.terminate();
  });

  it('is free again after work that throws', () => {
    const gate = new WriteGate();
    expect(() => gate.hold(() => { throw new Error('disk full'); })).to.throw('disk full');
    expect(gate.hold(() => 'next')).to.equal('next');
  });

  it('tells a caller that will not block that another thread holds it, and wakes that caller when it is let go', async () => {
    const gate = new WriteGate();
    const journal = new SharedArrayBuffer(4);
    const holder = await holdOnAnotherThread(gate, journal, 300);
    expect(gate.holdIfFree(() => 'ran')).to.deep.equal({ ran: false });
    // Each wait lasts until the holder lets go or a 50 ms slice ends: a handful over its 300 ms,
    // where a wait that did not wait would spin thousands of times.
    let waits = 0;
    for (; gate.holdIfFree(() => 'ran').ran === false; waits++) await gate.whenFree();
    expect(Atomics.load(new Int32Array(journal), 0), 'the holder had finished').to.equal(1);
    expect(waits).to.be.within(1, 20);
    await holder.terminate();
  });

  it('lets a caller that will not block go past a holder that never lets go once it has waited long enough', () => {
    const stuck = new SharedArrayBuffer(4);
    Atomics.store(new Int32Array(stuck), 0, 1);
    const gate = new WriteGate(stuck, { giveUpMs: 100 });
    expect(gate.holdIfFree(() => 'ran')).to.deep.equal({ ran: false });
    expect(gate.holdIfFree(() => 'ran', Date.now() - 100)).to.deep.equal({ ran: true, value: 'ran' });
    // Gone past, not taken over: it is still the stuck holder's to let go.
    expect(Atomics.load(new Int32Array(stuck), 0)).to.equal(1);
  });

  it('gives way after a while to a holder that never lets go, leaving SQLite to arbitrate', () => {
    const stuck = new SharedArrayBuffer(4);
    Atomics.store(new Int32Array(stuck), 0, 1);
    expect(new WriteGate(stuck, { giveUpMs: 100 }).hold(() => 'ran')).to.equal('ran');
  });
});
