import { type DeadlineObservation, monitorStream, pingStream } from '../domain/monitors/monitor.js';
import { checkHoursStream } from '../domain/monitors/monitor-streams.js';
import { type AppendResult, type EventStore, WrongExpectedRevisionError } from '../eventstore/event-store.js';
import type { Appender } from './appender.js';
import { appendRetrying } from './command-handler.js';
import { DECIDE_AGAIN, type MonitorAppender, type MonitorRecovery, type MonitorWrite } from './monitor-appender.js';

/**
 * EventStoreDB's way (see appender.ts): it has no transaction across streams, so each stream
 * written is its own append, conditional on its own revision; the streams a decision only read
 * cannot be checked (docs/guarantees.md).
 */
export function sequentialAppender(store: EventStore): Appender {
  return {
    async append(writes) {
      let position: number | null = null;
      for (const write of writes) if (write.events.length > 0) position = (await appendRetrying(store, write)).position;
      return position;
    },
    monitor: sequentialMonitorAppender(store),
  };
}

/** The observations were recorded, and a later append of the same decision failed with `lost`. */
class AppendedInPart extends Error {
  constructor(
    readonly lost: unknown,
    /** Of the last event recorded. */
    readonly position: number | null,
  ) {
    super('a monitor decision was recorded in part');
  }
}

/**
 * Every command reads the monitor's streams (there is no fold to start from that the append could
 * check), and the observation goes first, being what a ping request acknowledges and what a timer
 * fire and a check-in racing it contend for: the pings stream's revision decides which one was
 * first, and the other is decided again. Should the second append lose a race to another process,
 * the observation stays recorded; what follows from a timer fire's deadlines is decided again at
 * once (FollowUpDeadlines), and the level-triggered rules make a ping's missed transition on the
 * next ping (or check, whose lost hour summaries are decided again with it).
 */
function sequentialMonitorAppender(store: EventStore): MonitorAppender {
  return {
    checksEveryStream: false,
    async append(write) {
      const { monitorId, loaded, pings, summaries, others, encode } = write;
      const to = (streamName: string, events: MonitorWrite['pings'], expectedRevision: number | 'no_stream') =>
        appendRetrying(store, { streamName, events: encode(streamName, expectedRevision, events), expectedRevision });
      const results: AppendResult[] = [];
      if (pings.length > 0) results.push(await to(pingStream(monitorId), pings, loaded.pingRevision));
      try {
        if (summaries.length > 0) results.push(await to(checkHoursStream(monitorId), summaries, loaded.summaryRevision));
        if (others.length > 0) results.push(await to(monitorStream(monitorId), others, loaded.monitorRevision));
      } catch (error) {
        throw new AppendedInPart(error, results.at(-1)?.position ?? null);
      }
      return results;
    },
    afterFailure(error: unknown, write: MonitorWrite, lastAttempt: boolean): MonitorRecovery {
      // The observation lost: nothing was recorded, and deciding again on the newer state is safe.
      if (!(error instanceof AppendedInPart)) {
        if (error instanceof WrongExpectedRevisionError && !lastAttempt) return DECIDE_AGAIN;
        throw error;
      }
      const lostRace = error.lost instanceof WrongExpectedRevisionError;
      const { command, pings } = write;
      // A timer fire's deadlines are recorded: what follows from them is decided again on the
      // newer state, so that a missed slot still makes the monitor DOWN with its incident.
      if (lostRace && command.type === 'ExpireDeadlines' && !lastAttempt) {
        const observed = pings.filter((e): e is DeadlineObservation => e.type === 'CheckInMissed' || e.type === 'RunOverdue');
        const { incident_ids, repage_after_seconds, now } = command;
        return { kind: 'follow-up', recorded: pings, command: { type: 'FollowUpDeadlines', monitor_id: write.monitorId, observed, incident_ids, repage_after_seconds, now } };
      }
      // With its ping recorded the answer stands; the next ping makes the missed transition.
      if (lostRace && pings.length > 0) return { kind: 'stands', position: error.position };
      // Without one, deciding again on the newer state is safe.
      if (lostRace && !lastAttempt) return DECIDE_AGAIN;
      throw error.lost;
    },
  };
}
