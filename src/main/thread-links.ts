import { CommitSignal } from '../eventstore/commit-signal.js';
import { WriteGate } from '../eventstore/write-gate.js';
import { ReaderDemand } from '../projector/reader-demand.js';

/**
 * What the threads of one Vigil process (the server's, the projector's) share in memory to work on
 * the embedded file together. Each is a SharedArrayBuffer underneath, so it crosses to a worker
 * thread through workerData (`threadLinksData`, `threadLinksFrom`).
 */
export interface ThreadLinks {
  /** The log's and the read models' writers take turns through it. */
  writeGate: WriteGate;
  /** Signalled by each commit of the log: the projector's subscription wakes on it. */
  logCommits: CommitSignal;
  /** Signalled by each commit of the read models: read-your-writes waits wake on it. */
  readModelCommits: CommitSignal;
  /** Raised by read-your-writes waits: a lingering projector commits at once. */
  readerDemand: ReaderDemand;
}

export function newThreadLinks(): ThreadLinks {
  return { writeGate: new WriteGate(), logCommits: new CommitSignal(), readModelCommits: new CommitSignal(), readerDemand: new ReaderDemand() };
}

export function threadLinksData(links: ThreadLinks): Record<string, SharedArrayBuffer> {
  return {
    writeGate: links.writeGate.buffer,
    logCommits: links.logCommits.buffer,
    readModelCommits: links.readModelCommits.buffer,
    readerDemand: links.readerDemand.buffer,
  };
}

/** The links a parent thread passed in workerData, or null if it passed none. */
export function threadLinksFrom(data: unknown): ThreadLinks | null {
  if (typeof data !== 'object' || data === null) return null;
  const { writeGate, logCommits, readModelCommits, readerDemand } = data as Record<string, unknown>;
  const shared = (buffer: unknown): buffer is SharedArrayBuffer => buffer instanceof SharedArrayBuffer;
  if (!(shared(writeGate) && shared(logCommits) && shared(readModelCommits) && shared(readerDemand))) return null;
  return {
    writeGate: new WriteGate(writeGate),
    logCommits: new CommitSignal(logCommits),
    readModelCommits: new CommitSignal(readModelCommits),
    readerDemand: new ReaderDemand(readerDemand),
  };
}
