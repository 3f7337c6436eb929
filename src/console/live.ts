import type { Server } from 'node:net';
import type { Context } from 'koa';
import type { ApiDependencies } from '../api/dependencies.js';
import { listMonitors } from '../queries/monitors.js';
import { STATUS_TEXT } from './layout.js';
import type { RecentRuns } from '../queries/recent-runs.js';
import { monitorOverviews } from './overview.js';
import { monitorRow, statusCounts } from './pages/dashboard.js';

/** How often a stream looks for a change in the log. */
const POLL_MS = 1000;
/** Rows are sent again this often even when nothing was written: their relative times move on. */
const REFRESH_MS = 30_000;
/** A comment this often keeps proxies from closing a quiet stream. */
const KEEP_ALIVE_MS = 15_000;

/**
 * The dashboard's live rows, as Server-Sent Events. Each stream looks at the log's head once a
 * second; when it moved, it waits for the read models to catch up with it and renders the project's
 * rows again, sending only the rows that changed (as the same HTML the page was rendered with).
 * That is one position read a second for an idle stream, and the page's own queries when
 * something was written. The stream ends when the session does, or when the server stops.
 */
export function liveProjectStream(ctx: Context, deps: ApiDependencies, projectId: string, options: { recentRuns: RecentRuns; stillSignedIn: () => Promise<boolean> }): void {
  const { readModels, commands, progress } = deps;
  ctx.req.socket.setTimeout(0);
  ctx.req.socket.setNoDelay(true);
  ctx.status = 200;
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Accel-Buffering', 'no');
  ctx.type = 'text/event-stream; charset=utf-8';
  // Written straight to the socket's response, not through Koa's body: a stream that ends when the
  // browser leaves is the normal case here, not an error to report.
  ctx.respond = false;
  const response = ctx.res;
  response.flushHeaders();
  const stream = { write: (text: string) => (response.writableEnded ? false : response.write(text)) };

  let open = true;
  deps.metrics?.consoleLiveStreams.inc();
  const close = () => {
    if (!open) return;
    open = false;
    deps.metrics?.consoleLiveStreams.dec();
    if (!response.writableEnded) response.end();
  };
  ctx.req.on('close', close);
  const server = (ctx.req.socket as unknown as { server?: Server }).server;
  const send = (event: string, data: unknown) => stream.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);

  const sentRows = new Map<string, string>();
  let sentCounts = '';
  let seenHead = -1;
  let refreshedAt = 0;
  let aliveAt = Date.now();

  const poll = async () => {
    const head = await commands.events.headPosition();
    if (head === seenHead && Date.now() - refreshedAt < REFRESH_MS) return;
    await progress.waitForPosition(head, POLL_MS).catch(() => undefined);
    if (!(await options.stillSignedIn())) {
      send('signed-out', {});
      close();
      return;
    }
    seenHead = head;
    refreshedAt = Date.now();
    const now = commands.clock();
    deps.metrics?.consoleLiveRenders.inc();
    const overviews = await monitorOverviews(readModels, options.recentRuns, projectId, await listMonitors(readModels, projectId));
    for (const o of overviews) {
      const row = monitorRow(o, now).markup;
      if (sentRows.get(o.monitor.id) === row) continue;
      sentRows.set(o.monitor.id, row);
      send('monitor', { id: o.monitor.id, name: o.monitor.name, status: o.status, status_text: STATUS_TEXT[o.status], row });
    }
    const counts = JSON.stringify(statusCounts(overviews));
    if (counts !== sentCounts) {
      sentCounts = counts;
      stream.write(`event: summary\ndata: ${counts}\n\n`);
    }
  };

  const loop = async () => {
    stream.write(`retry: 3000\n\n`);
    while (open) {
      // A server that is shutting down waits for its open connections: this one ends by itself.
      if (server && !server.listening) break;
      try {
        await poll();
      } catch (error) {
        deps.logger.error({ err: error }, 'live dashboard update failed');
      }
      if (Date.now() - aliveAt >= KEEP_ALIVE_MS) {
        stream.write(': still here\n\n');
        aliveAt = Date.now();
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    close();
  };
  void loop();
}
