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

/** A gate another thread holds (cell 0), with `waiters` writers already waiting for it (cell 1). */
function heldGate(waiters = 0): SharedArrayBuffer {
  const buffer = new SharedArrayBuffer(8);
  Atomics.store(new Int32Array(buffer), 0, 1);
  Atomics.store(new Int32Array(buffer), 1, waiters);
  return buffer;
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
    const stuck = heldGate();
    const gate = new WriteGate(stuck, { giveUpMs: 100 });
    expect(gate.holdIfFree(() => 'ran')).to.deep.equal({ ran: false });
    expect(gate.holdIfFree(() => 'ran', Date.now() - 100)).to.deep.equal({ ran: true, value: 'ran' });
    // Gone past, not taken over: it is still the stuck holder's to let go.
    expect(Atomics.load(new Int32Array(stuck), 0)).to.equal(1);
  });

  it('gives way after a while to a holder that never lets go, leaving SQLite to arbitrate', () => {
    expect(new WriteGate(heldGate(), { giveUpMs: 100 }).hold(() => 'ran')).to.equal('ran');
  });

  it('counts a writer that found it held as waiting, once however often it tries, until that writer has written', () => {
    const held = heldGate();
    const gate = new WriteGate(held);
    const seenFromAnotherThread = new WriteGate(held);
    expect(seenFromAnotherThread.writerWaiting()).to.equal(false);
    expect(gate.holdIfFree(() => 'ran')).to.deep.equal({ ran: false });
    expect(gate.holdIfFree(() => 'ran')).to.deep.equal({ ran: false });
    expect(seenFromAnotherThread.writerWaiting()).to.equal(true);
    expect(Atomics.load(new Int32Array(held), 1), 'waiters').to.equal(1);
    Atomics.store(new Int32Array(held), 0, 0); // the holder lets go
    // Counted no longer once it writes: a background writer may follow it at once.
    expect(gate.holdIfFree(() => gate.writerWaiting())).to.deep.equal({ ran: true, value: false });
  });

  it('lets a background writer take it only after the writers waiting for it have written', async () => {
    const gate = new WriteGate();
    const journal = new SharedArrayBuffer(8);
    const holder = await holdOnAnotherThread(gate, journal, 500);
    expect(gate.holdIfFree(() => 'ran')).to.deep.equal({ ran: false });
    const background = startModuleWorker(new URL('../support/background-writer.ts', import.meta.url).href, 'background-writer', { gate: gate.buffer, journal });
    const written = new Promise((resolve, reject) => {
      background.on('message', (message) => message === 'written' && resolve(message));
      background.once('error', reject);
    });
    await new Promise((resolve) => background.once('message', resolve)); // 'taking'
    // This writer waited first; the background one, blocked on the gate when the holder lets go,
    // would win the race for it if it did not wait for this one.
    while (!gate.holdIfFree(() => Atomics.store(new Int32Array(journal), 0, 2)).ran) await gate.whenFree();
    await written;
    expect(Atomics.load(new Int32Array(journal), 1), 'what the background writer found: 12 after this write').to.equal(12);
    await Promise.all([holder.terminate(), background.terminate()]);
  });

  it('lets a background writer go past a waiting writer that never writes, after a while, without counting itself', () => {
    const gone = heldGate(1);
    Atomics.store(new Int32Array(gone), 0, 0); // free, but a writer that waited for it is gone
    expect(new WriteGate(gone, { waitForWritersMs: 100 }).holdAfterWaiters(() => 'ran')).to.equal('ran');
    expect(Atomics.load(new Int32Array(gone), 1), 'waiters').to.equal(1);
  });

  it("does not keep a background writer waiting for a writer of its own thread (one instance shared), which cannot write before it returns", () => {
    const buffer = heldGate();
    const gate = new WriteGate(buffer, { waitForWritersMs: 60_000 });
    expect(gate.holdIfFree(() => 'log').ran).to.equal(false); // the log's writer, now counted as waiting
    Atomics.store(new Int32Array(buffer), 0, 0); // the other thread lets go
    expect(new WriteGate(buffer).writerWaiting(), 'seen from another thread').to.equal(true);
    expect(gate.writerWaiting(), 'seen from its own').to.equal(false);
    const started = Date.now();
    expect(gate.holdAfterWaiters(() => 'projector')).to.equal('projector');
    expect(Date.now() - started).to.be.below(10_000);
  });
});
