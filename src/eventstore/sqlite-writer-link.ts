import { Worker } from 'node:worker_threads';
import { startModuleWorker } from './module-worker.js';
import type { LogWriteOutcome } from './sqlite-log-writer.js';
import type { WriterReply, WriterRequest } from './sqlite-writer-thread.js';
import type { WriteGate } from './write-gate.js';

/** The embedded store's writer thread: sqlite-writer-thread, beside this module. */
export function startWriterThread(path: string, gate: WriteGate, autocheckpointPages: number): Worker {
  const thread = startModuleWorker(import.meta.url, 'sqlite-writer-thread', { path, writeGate: gate.buffer, autocheckpointPages });
  // A commit under way sees the failure; later ones find the thread gone.
  thread.on('error', () => {});
  thread.unref();
  return thread;
}

/** Hands one group of writes to the writer thread and waits for its commit's outcomes. */
export function commitOnWriterThread(thread: Worker, request: WriterRequest): Promise<LogWriteOutcome[]> {
  return new Promise<LogWriteOutcome[]>((resolve, reject) => {
    if (thread.threadId === -1) {
      reject(new Error('the event store writer thread has stopped'));
      return;
    }
    const onMessage = (reply: WriterReply) => {
      cleanUp();
      if (reply.ok) resolve(reply.outcomes);
      else reject(Object.assign(new Error(reply.message), reply.code ? { code: reply.code } : {}));
    };
    const onError = (error: unknown) => {
      cleanUp();
      reject(error);
    };
    const onExit = () => onError(new Error('the event store writer thread stopped during a commit'));
    const cleanUp = () => {
      thread.off('message', onMessage);
      thread.off('error', onError);
      thread.off('exit', onExit);
      // An idle writer thread does not keep the process alive; one with a commit under way does.
      thread.unref();
    };
    thread.on('message', onMessage);
    thread.on('error', onError);
    thread.on('exit', onExit);
    thread.ref();
    thread.postMessage(request);
  });
}
