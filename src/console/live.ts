import type { ServerResponse } from 'node:http';
import type { Server } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Context } from 'koa';
import type { ApiDependencies } from '../web/dependencies.js';
import { listMonitors } from '../queries/monitors.js';
import type { RecentRuns } from '../queries/recent-runs.js';
import { STATUS_TEXT } from './layout.js';
import { monitorOverviews } from './overview.js';
import { monitorRow, statusCounts } from './pages/dashboard.js';

/** How often the streams look for a change in the log. */
const POLL_MS = 1000;
/** Rows are sent again this often (on the injected clock) even when nothing was written: their relative times move on. */
const REFRESH_MS = 30_000;
/** A comment this often keeps proxies from closing a quiet stream. */
const KEEP_ALIVE_MS = 15_000;
/** What an EventSource is told to wait before it reconnects to a stream that ended. */
const RETRY = 'retry: 3000\n\n';

/**
 * A session's open streams: a few tabs of one browser. A browser holds at most six HTTP/1.1
 * connections to a host, so past four its own pages would start to queue behind its streams.
 */
export const LIVE_STREAMS_PER_SESSION = 4;
/** A user's open streams over all of their sessions: two browsers' worth (a desk and a wall screen). */
export const LIVE_STREAMS_PER_USER = 8;

/** Told to a stream closed for a newer one of its session: the page stops rather than reconnect and close another in turn. */
const REPLACED = Buffer.from('event: replaced\ndata: {}\n\n');
const SIGNED_OUT = Buffer.from('event: signed-out\ndata: {}\n\n');
const KEEP_ALIVE = Buffer.from(': still here\n\n');

/** Who a stream is for: the limits count by session and by user, and the session is checked again at every change. */
export interface LiveViewer {
  sessionIdHash: string;
  userId: string;
  stillSignedIn: () => Promise<boolean>;
}

interface Subscriber {
  viewer: LiveViewer;
  response: ServerResponse;
  server: Server | undefined;
  /**
   * Whether the stream has been sent the project's rows. A stream opens from a page rendered just
   * now, and rows rendered before it (before the clock passed a deadline, or before a ping) would
   * take the page back to an older state: a new stream is sent them only by the look that follows
   * its opening, which renders them again unless they are as new as the page.
   */
  opened: boolean;
  /** How many looks had begun when the stream opened: a look that began before it took its `now` too early to open it. */
  arrivedAt: number;
  close(ending?: Buffer): void;
}

interface Row {
  markup: string;
  /** The `monitor` event that carries it, as every stream is sent it. */
  event: string;
}

/** One project's rows as last rendered, and the streams that follow it. */
interface Feed {
  projectId: string;
  subscribers: Set<Subscriber>;
  rows: Map<string, Row>;
  counts: string;
  /** What a stream that opens now is sent first: every row and the counts, built once until they change. */
  opening: Buffer | null;
  seenHead: number;
  refreshedAt: number;
  writtenAt: number;
}

/**
 * The dashboard's live rows, as Server-Sent Events. One loop for the process looks at the log's
 * head once a second; when it moved, it waits for the read models to catch up with it and renders
 * the rows of each project that has streams open, once whatever their number, and writes the rows
 * that changed (as the same HTML the page was rendered with) to every stream of that project as
 * the same bytes. A stream that opens is sent all of the project's rows by the next look (at once),
 * rendered again unless they are from the log's head and the last second, so every stream of a
 * project holds what the next change is measured against and none goes back past its page.
 *
 * Streams are limited per session and per user (LIVE_STREAMS_PER_SESSION, LIVE_STREAMS_PER_USER),
 * so that one browser, or a script holding a session, cannot make the server keep thousands open.
 * A stream ends when its browser leaves, when its session does, when a newer one of its session
 * replaces it, or at once when the server stops (`stopping`).
 */
export class LiveStreams {
  private readonly feeds = new Map<string, Feed>();
  /** Each session's open streams, oldest first. */
  private readonly bySession = new Map<string, Subscriber[]>();
  private readonly byUser = new Map<string, number>();
  private open = 0;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  private ticking = false;
  private tickAgain = false;
  private looks = 0;

  constructor(
    private readonly deps: ApiDependencies,
    private readonly recentRuns: RecentRuns,
  ) {
    deps.stopping?.addEventListener('abort', () => this.stop(), { once: true });
  }

  /** Answers `ctx` with a stream of the project's rows, or a 429 when the user already has as many as they may. */
  stream(ctx: Context, projectId: string, viewer: LiveViewer): void {
    ctx.set('Cache-Control', 'no-store');
    const own = this.bySession.get(viewer.sessionIdHash) ?? [];
    // Past the session's limit, not a refusal: an EventSource that is refused gives up for good,
    // and the refused one would be the tab just opened, the one its user is looking at. The
    // session's oldest stream is told why and closed instead (below, once this one has its place).
    const replaced = own.length >= LIVE_STREAMS_PER_SESSION ? own[0]! : null;
    if (!replaced && (this.byUser.get(viewer.userId) ?? 0) >= LIVE_STREAMS_PER_USER) {
      // Replacing here would close a stream in another browser, in front of someone else.
      ctx.status = 429;
      ctx.body = { error: `this user already has ${LIVE_STREAMS_PER_USER} live streams open; close a dashboard in another browser and reload` };
      return;
    }

    ctx.req.socket.setTimeout(0);
    ctx.req.socket.setNoDelay(true);
    ctx.status = 200;
    ctx.set('X-Accel-Buffering', 'no');
    ctx.type = 'text/event-stream; charset=utf-8';
    // Written straight to the socket's response, not through Koa's body: a stream that ends when the
    // browser leaves is the normal case here, not an error to report.
    ctx.respond = false;
    const response = ctx.res;
    response.flushHeaders();
    if (this.stopped) {
      response.end(RETRY);
      return;
    }

    const feed = this.feedOf(projectId);
    let closed = false;
    const subscriber: Subscriber = {
      viewer,
      response,
      server: (ctx.req.socket as unknown as { server?: Server }).server,
      opened: false,
      arrivedAt: this.looks,
      close: (ending) => {
        if (closed) return;
        closed = true;
        this.forget(subscriber, feed);
        if (!response.writableEnded) response.end(ending);
      },
    };
    response.on('close', () => subscriber.close());
    feed.subscribers.add(subscriber);
    this.bySession.set(viewer.sessionIdHash, [...(this.bySession.get(viewer.sessionIdHash) ?? []), subscriber]);
    this.byUser.set(viewer.userId, (this.byUser.get(viewer.userId) ?? 0) + 1);
    this.counted(1);
    replaced?.close(REPLACED);
    response.write(RETRY);
    this.wake();
  }

  private feedOf(projectId: string): Feed {
    let feed = this.feeds.get(projectId);
    if (!feed) {
      feed = { projectId, subscribers: new Set(), rows: new Map(), counts: '', opening: null, seenHead: -1, refreshedAt: 0, writtenAt: performance.now() };
      this.feeds.set(projectId, feed);
    }
    return feed;
  }

  private openingOf(feed: Feed): Buffer {
    feed.opening ??= Buffer.from([...feed.rows.values()].map((row) => row.event).join('') + (feed.counts ? `event: summary\ndata: ${feed.counts}\n\n` : ''));
    return feed.opening;
  }

  private forget(subscriber: Subscriber, feed: Feed): void {
    feed.subscribers.delete(subscriber);
    if (feed.subscribers.size === 0 && this.feeds.get(feed.projectId) === feed) this.feeds.delete(feed.projectId);
    const { sessionIdHash, userId } = subscriber.viewer;
    const own = (this.bySession.get(sessionIdHash) ?? []).filter((s) => s !== subscriber);
    if (own.length > 0) this.bySession.set(sessionIdHash, own);
    else this.bySession.delete(sessionIdHash);
    const left = (this.byUser.get(userId) ?? 1) - 1;
    if (left > 0) this.byUser.set(userId, left);
    else this.byUser.delete(userId);
    this.counted(-1);
    if (this.feeds.size === 0 && this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
  }

  private counted(change: number): void {
    this.open += change;
    this.deps.metrics?.consoleLiveStreams.set(this.open);
  }

  /** Looks at the log now (a project's first stream should not wait a second for its rows), or right after the look under way. */
  private wake(): void {
    if (this.ticking) {
      this.tickAgain = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    void this.run();
  }

  private async run(): Promise<void> {
    this.ticking = true;
    try {
      await this.tick();
    } catch (error) {
      this.deps.logger.error({ err: error }, 'live dashboard update failed');
    } finally {
      this.ticking = false;
    }
    if (this.stopped || this.feeds.size === 0) return;
    const delay = this.tickAgain ? 0 : POLL_MS;
    this.tickAgain = false;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.run();
    }, delay);
  }

  private async tick(): Promise<void> {
    const { commands, progress } = this.deps;
    const look = ++this.looks;
    for (const feed of this.feeds.values()) {
      for (const subscriber of feed.subscribers) {
        // A server that stopped listening without saying so (no `stopping`) waits for its open connections.
        if (subscriber.server && !subscriber.server.listening) subscriber.close();
      }
    }
    const head = await commands.events.headPosition();
    const now = commands.clock().getTime();
    // A feed with a stream that has not been sent its rows is rendered again unless its rows are from
    // this head and the last second: they may be older than the page the stream opened from.
    const waiting = (feed: Feed) => [...feed.subscribers].some((subscriber) => !subscriber.opened && subscriber.arrivedAt < look);
    const due = [...this.feeds.values()].filter(
      (feed) => feed.seenHead !== head || now - feed.refreshedAt >= REFRESH_MS || (now - feed.refreshedAt >= POLL_MS && waiting(feed)),
    );
    if (due.length > 0) await progress.waitForPosition(head, POLL_MS).catch(() => undefined);
    // A session with streams on several projects is checked once a look.
    const signedIn = new Map<string, Promise<boolean>>();
    for (const feed of due) {
      try {
        await Promise.all(
          [...feed.subscribers].map(async (subscriber) => {
            const { sessionIdHash, stillSignedIn } = subscriber.viewer;
            let check = signedIn.get(sessionIdHash);
            if (!check) signedIn.set(sessionIdHash, (check = stillSignedIn()));
            if (!(await check)) subscriber.close(SIGNED_OUT);
          }),
        );
        if (feed.subscribers.size === 0) continue;
        feed.seenHead = head;
        feed.refreshedAt = now;
        await this.render(feed);
      } catch (error) {
        this.deps.logger.error({ err: error, projectId: feed.projectId }, 'live dashboard update failed');
      }
    }
    for (const feed of this.feeds.values()) {
      if (feed.seenHead === -1) continue;
      for (const subscriber of feed.subscribers) {
        if (subscriber.opened || subscriber.arrivedAt >= look) continue;
        subscriber.opened = true;
        subscriber.response.write(this.openingOf(feed));
      }
    }
    // Real time, not the injected clock: what a proxy times out is a connection's real silence.
    const quietSince = performance.now() - KEEP_ALIVE_MS;
    for (const feed of this.feeds.values()) {
      if (feed.writtenAt <= quietSince) this.fanOut(feed, KEEP_ALIVE);
    }
  }

  private async render(feed: Feed): Promise<void> {
    const { readModels, commands, metrics } = this.deps;
    metrics?.consoleLiveRenders.inc();
    const now = commands.clock();
    const overviews = await monitorOverviews(readModels, this.recentRuns, await listMonitors(readModels, feed.projectId), now);
    const rows = new Map<string, Row>();
    let changed = '';
    for (const o of overviews) {
      const markup = monitorRow(o, now).markup;
      const before = feed.rows.get(o.monitor.id);
      if (before?.markup === markup) {
        rows.set(o.monitor.id, before);
        continue;
      }
      const event = `event: monitor\ndata: ${JSON.stringify({ id: o.monitor.id, name: o.monitor.name, status: o.status, status_text: STATUS_TEXT[o.status], row: markup })}\n\n`;
      rows.set(o.monitor.id, { markup, event });
      changed += event;
    }
    feed.rows = rows;
    feed.opening = null;
    const counts = JSON.stringify(statusCounts(overviews));
    if (counts !== feed.counts) {
      feed.counts = counts;
      changed += `event: summary\ndata: ${counts}\n\n`;
    }
    if (changed !== '') this.fanOut(feed, Buffer.from(changed));
  }

  private fanOut(feed: Feed, bytes: Buffer): void {
    feed.writtenAt = performance.now();
    for (const { response, opened } of feed.subscribers) {
      if (opened && !response.writableEnded) response.write(bytes);
    }
  }

  /** Ends every stream now: each browser reconnects after RETRY, to this server once it is back. */
  private stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const feed of [...this.feeds.values()]) {
      for (const subscriber of [...feed.subscribers]) subscriber.close();
    }
  }
}
