import { startModuleWorker } from '../eventstore/module-worker.js';
import { type ThreadLinks, threadLinksData } from './thread-links.js';
import type { ProjectorThreadMessage } from './projector-thread.js';

export interface ProjectorWorker {
  stop: () => Promise<void>;
}

/**
 * Starts the projector role on a worker thread (projector-thread.ts) and waits until it follows
 * the log; its commits take turns with this thread's, and each side's wake the other, through
 * `threads`. `countIncidents` receives the incidents it counts opened, for this process's /metrics.
 */
export async function startProjectorWorker(countIncidents: (kind: string, count: number) => void, threads: ThreadLinks): Promise<ProjectorWorker> {
  const thread = startModuleWorker(import.meta.url, 'projector-thread', threadLinksData(threads));
  const exited = new Promise<void>((resolve) => thread.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    thread.on('message', (message: ProjectorThreadMessage) => {
      if (message.type === 'started') resolve();
      else countIncidents(message.kind, message.count);
    });
    thread.once('error', reject);
    thread.once('exit', (code) => reject(new Error(`the projector thread exited with code ${code} before it started`)));
  });
  return {
    stop: async () => {
      thread.postMessage('stop');
      await exited;
    },
  };
}
