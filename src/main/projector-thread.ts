import { parentPort, workerData } from 'node:worker_threads';
import { threadLinksFrom } from './thread-links.js';
import { loadConfig } from './config.js';
import { startVigil } from './vigil.js';

/** From the projector thread to the server thread. */
export type ProjectorThreadMessage = { type: 'started' } | { type: 'incidentsOpened'; kind: string; count: number };

const REPORT_INTERVAL_MS = 1000;

/**
 * The projector role on a worker thread of the server process, run as a process of its own would
 * run it: its own connections, its own lease on the projector, its own logger. The thread that
 * answers HTTP waits for read-your-writes on the checkpoints, as an api-only process does. The
 * incidents this projector counts are reported to the server thread, whose /metrics serves them.
 */
async function run(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('projector-thread runs as a worker thread');
  const threads = threadLinksFrom(workerData);
  // The server thread's WalCheckpointer checkpoints the file for both.
  const vigil = await startVigil(loadConfig(), { roles: ['projector'], processMetrics: false, walCheckpoints: 'by-another-thread', ...(threads ? { threads } : {}) });
  const reported = new Map<string, number>();
  const report = async () => {
    for (const { labels, value } of (await vigil.metrics.incidentsOpened.get()).values) {
      const kind = String(labels.kind);
      const count = value - (reported.get(kind) ?? 0);
      if (count <= 0) continue;
      reported.set(kind, value);
      port.postMessage({ type: 'incidentsOpened', kind, count } satisfies ProjectorThreadMessage);
    }
  };
  const reporting = setInterval(() => void report().catch(() => {}), REPORT_INTERVAL_MS);
  port.once('message', () => {
    clearInterval(reporting);
    vigil
      .stop()
      .then(report)
      .catch((error: unknown) => vigil.logger.error({ err: error }, 'projector thread failed to stop'))
      .finally(() => port.close());
  });
  port.postMessage({ type: 'started' } satisfies ProjectorThreadMessage);
}

await run();
