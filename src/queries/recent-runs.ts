import type { MonitorDocument } from '../../projections/monitors.js';
import { pingStream } from '../domain/monitors/monitor-streams.js';
import type { EventStore, RecordedEvent } from '../eventstore/event-store.js';
import { decodeEvent } from '../event-codecs/decode.js';

/** One finished run (a SUCCESS or FAILURE ping) or one uptime check, as a sparkline draws it. */
export interface Run {
  at: string;
  ok: boolean;
  durationMs: number | null;
}

/** As many runs as the dashboard's sparkline shows. */
export const RUNS_SHOWN = 30;

/** How many monitors' runs a process keeps at most (about 3 KB each). */
const MONITORS_CACHED = 10_000;
/** Events read at a time going back from the newest: a job that pings its start and its end takes two per run. */
const READ_BACK = 2 * RUNS_SHOWN;
/** Beyond this many new events, the runs are read again from the newest rather than followed on. */
const FOLLOW_AT_MOST = 4 * RUNS_SHOWN;
/** Reads in flight at once for one page of rows (a remote log answers each in a round trip). */
const READS_AT_ONCE = 16;

interface NumberedRun {
  run: Run;
  /** Its place in the pings stream (revision + 1), which retention's window is counted in. */
  number: number;
}

interface Known {
  /** The length of the pings stream these runs were read up to. */
  length: number;
  runs: NumberedRun[];
}

function runOf(recorded: RecordedEvent): NumberedRun | null {
  if (recorded.type !== 'PingReceived' && recorded.type !== 'CheckCompleted') return null;
  const event = decodeEvent(recorded);
  const number = recorded.revision + 1;
  if (event.type === 'CheckCompleted') {
    const { checked_at, is_up, response_time_ms } = event.data;
    return { run: { at: checked_at, ok: is_up, durationMs: response_time_ms }, number };
  }
  if (event.type !== 'PingReceived' || (event.data.event !== 'SUCCESS' && event.data.event !== 'FAILURE')) return null;
  return { run: { at: event.data.received_at, ok: event.data.event === 'SUCCESS', durationMs: event.data.duration_ms }, number };
}

/**
 * A monitor's last `limit` runs, oldest first, as its document last took in its pings stream:
 * read back from there until there are enough or retention's window ends. Uncached: for one
 * monitor's page (RecentRuns serves the dashboard's rows).
 */
export async function newestRuns(events: EventStore, monitor: MonitorDocument, limit: number): Promise<Run[]> {
  return (await numberedRuns(events, monitor, limit)).map((r) => r.run);
}

async function numberedRuns(events: EventStore, monitor: MonitorDocument, limit: number): Promise<NumberedRun[]> {
  const runs: NumberedRun[] = [];
  const oldestKept = Math.max(0, monitor.pings_stream_length - monitor.retention_count);
  let next = monitor.pings_stream_length - 1;
  while (runs.length < limit && next >= oldestKept) {
    const read = await events.readStream(pingStream(monitor.id), { direction: 'backwards', fromRevision: next, maxCount: Math.max(READ_BACK, 2 * limit) });
    if (read.length === 0) break;
    for (const event of read) {
      const run = runOf(event);
      if (run && runs.length < limit) runs.push(run);
    }
    next = read.at(-1)!.revision - 1;
  }
  return runs.reverse();
}

/**
 * The dashboard's last runs of each monitor, read from its pings stream in the log, which holds
 * every ping and check result within the monitor's retention window, in order. They are not kept
 * on the monitor's document: each ping would rewrite them there, and at some 3 KB they were most
 * of a document the projector rewrites on every ping (the census in bench/NOTES.md).
 *
 * The monitor's document names how long its pings stream was when the read models last took it
 * in (`pings_stream_length`), so a row shows runs up to that point and no further, as the rest
 * of the row does, and the runs this process has read before are followed on from where they
 * stopped: a dashboard that refreshes reads only what was appended since.
 */
export class RecentRuns {
  private readonly known = new Map<string, Known>();

  constructor(private readonly events: EventStore) {}

  /** Each monitor's last runs, oldest first, by monitor id. */
  async of(monitors: readonly MonitorDocument[]): Promise<Map<string, Run[]>> {
    const runs = new Map<string, Run[]>();
    for (let i = 0; i < monitors.length; i += READS_AT_ONCE) {
      const some = monitors.slice(i, i + READS_AT_ONCE);
      const read = await Promise.all(some.map((monitor) => this.runsOf(monitor)));
      some.forEach((monitor, j) => runs.set(monitor.id, read[j]!));
    }
    return runs;
  }

  private async runsOf(monitor: MonitorDocument): Promise<Run[]> {
    const length = monitor.pings_stream_length;
    if (length === 0) return [];
    const before = this.known.get(monitor.id);
    let numbered: NumberedRun[];
    if (before && before.length === length) numbered = before.runs;
    else if (before && before.length < length && length - before.length <= FOLLOW_AT_MOST) numbered = [...before.runs, ...(await this.following(monitor.id, before.length, length))];
    else numbered = await numberedRuns(this.events, monitor, RUNS_SHOWN);
    // Retention's window, as the log keeps it: the newest retention_count events of the stream.
    const oldestKept = length - monitor.retention_count;
    const kept = numbered.filter((r) => r.number > oldestKept).slice(-RUNS_SHOWN);
    this.remember(monitor.id, { length, runs: kept });
    return kept.map((r) => r.run);
  }

  /** The runs among the events after the first `from`, up to the stream's length `to`. */
  private async following(monitorId: string, from: number, to: number): Promise<NumberedRun[]> {
    const events = await this.events.readStream(pingStream(monitorId), { direction: 'forwards', fromRevision: from, maxCount: to - from });
    return events.flatMap((event) => runOf(event) ?? []);
  }

  private remember(monitorId: string, known: Known): void {
    this.known.delete(monitorId);
    this.known.set(monitorId, known);
    if (this.known.size > MONITORS_CACHED) this.known.delete(this.known.keys().next().value!);
  }
}
