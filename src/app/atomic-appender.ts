import { monitorStream, pingStream } from '../domain/monitors/monitor.js';
import { checkHoursStream } from '../domain/monitors/monitor-streams.js';
import { isUptimeType } from '../domain/monitors/schedule.js';
import { type MultiStreamEventStore, StreamDeletedError, WrongExpectedRevisionError } from '../eventstore/event-store.js';
import type { Appender } from './appender.js';
import { appendToStreamsRetrying } from './command-handler.js';
import { DECIDE_AGAIN, type MonitorAppender, type MonitorRecovery, type MonitorWrite } from './monitor-appender.js';

/**
 * The embedded store's way (see appender.ts): every decision is one append, checking every stream
 * it read, so a decision on a state another writer has changed since is refused whole, nothing of
 * it recorded, and made again.
 */
export function atomicAppender(store: MultiStreamEventStore): Appender {
  return {
    async append(writes, checks) {
      // The streams checked go first: their checks then never need undoing.
      const results = await appendToStreamsRetrying(store, [...checks.map((check) => ({ ...check, events: [] })), ...writes]);
      return Math.max(...results.map((result) => result.position));
    },
    monitor: atomicMonitorAppender(store),
  };
}

/**
 * A monitor's decision in one append: the ping or check result (if any) to its pings stream, an
 * uptime monitor's hourly summaries to its `checkhours-` stream, everything else to the monitor
 * stream, and a check of every stream written nothing, each at the revision the fold read. Both
 * (all three) streams' revisions are checked even when only one is written, so a decision may
 * start from the fold this process kept after its last command instead of reading the streams
 * again: had anyone else written to either since, the append is refused, nothing is recorded, and
 * the command is decided again on what is in the store.
 */
function atomicMonitorAppender(store: MultiStreamEventStore): MonitorAppender {
  return {
    checksEveryStream: true,
    append(write) {
      const { monitorId, loaded, pings, summaries, others, encode } = write;
      const toPings = { streamName: pingStream(monitorId), events: encode(pingStream(monitorId), loaded.pingRevision, pings), expectedRevision: loaded.pingRevision };
      const toMonitor = { streamName: monitorStream(monitorId), events: encode(monitorStream(monitorId), loaded.monitorRevision, others), expectedRevision: loaded.monitorRevision };
      const summaryStream = checkHoursStream(monitorId);
      const toSummaries = { streamName: summaryStream, events: encode(summaryStream, loaded.summaryRevision, summaries), expectedRevision: loaded.summaryRevision };
      // Only an uptime monitor has summaries, and its fold read them.
      const uptime = summaries.length > 0 || (loaded.state.config !== null && isUptimeType(loaded.state.config.type));
      // A stream with nothing to write goes first: its check then never needs undoing.
      const checks = write.read.map((stream) => ({ ...stream, events: [] }));
      const writes = uptime ? [toPings, toSummaries, toMonitor] : [toPings, toMonitor];
      return appendToStreamsRetrying(store, [...checks, ...writes.filter((w) => w.events.length === 0), ...writes.filter((w) => w.events.length > 0)]);
    },
    afterFailure(error: unknown, write: MonitorWrite, lastAttempt: boolean): MonitorRecovery {
      // Nothing was recorded: deciding again on the store's state is safe. A stream deleted
      // since the remembered fold reads as gone, and the command is refused on that.
      // So does another monitor's stream the decision read, deleted since (its monitor with it).
      const stale = error instanceof WrongExpectedRevisionError || (error instanceof StreamDeletedError && (write.remembered || write.read.some((r) => r.streamName === error.streamName)));
      if (stale && !lastAttempt) return DECIDE_AGAIN;
      throw error;
    },
  };
}
