export type PingKind = 'START' | 'SUCCESS' | 'FAILURE' | 'LOG';
export const PING_KINDS: readonly PingKind[] = ['START', 'SUCCESS', 'FAILURE', 'LOG'];
export type DurationAssertion = 'PASS' | 'TOO_FAST' | 'TOO_SLOW';

/** A START still waiting for its SUCCESS or FAILURE. */
export interface OpenRun {
  ping_id: string;
  run_id: string | null;
  started_at: string;
  /** Already reported as running past max_duration_seconds. */
  overdue: boolean;
  /** Closed as a failure by the JOB_BASIC watchdog: its own FAILURE, if it comes, is not counted again. */
  counted_as_failure: boolean;
}

/** At most this many open runs are remembered; a job that never completes must not grow the state. */
export const OPEN_RUNS_KEPT = 50;

/** SUCCESS with a non-zero exit code is a FAILURE. */
export function effectiveKind(kind: PingKind, exitCode: number | null): PingKind {
  return kind === 'SUCCESS' && exitCode !== null && exitCode !== 0 ? 'FAILURE' : kind;
}

/** The START a completion closes: the one with its run_id, or the latest open one when it has none. */
export function matchingStart(openRuns: readonly OpenRun[], runId: string | null): OpenRun | null {
  const candidates = runId === null ? openRuns : openRuns.filter((run) => run.run_id === runId);
  return candidates.at(-1) ?? null;
}

/** The latest open START of the same run: the same run_id, or also none. */
export function sameRun(openRuns: readonly OpenRun[], runId: string | null): OpenRun | null {
  return openRuns.filter((run) => run.run_id === runId).at(-1) ?? null;
}

export function assessDuration(durationMs: number | null, minSeconds: number | null, maxSeconds: number | null): DurationAssertion | null {
  if (durationMs === null || (minSeconds === null && maxSeconds === null)) return null;
  if (minSeconds !== null && durationMs < minSeconds * 1000) return 'TOO_FAST';
  if (maxSeconds !== null && durationMs > maxSeconds * 1000) return 'TOO_SLOW';
  return 'PASS';
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const seconds = ms / 1000;
  if (seconds < 120) return `${Number(seconds.toFixed(1))} s`;
  const minutes = seconds / 60;
  return minutes < 120 ? `${Number(minutes.toFixed(1))} min` : `${Number((minutes / 60).toFixed(1))} h`;
}

/** What a recorded ping says about the runs under way (the fields of PingReceived this needs). */
export interface RunsPing {
  ping_id: string;
  event: PingKind;
  run_id: string | null;
  received_at: string;
  evaluated: boolean;
  closed_start_ping_id: string | null;
}

/**
 * The runs under way after a ping: the START it ends (completes or replaces) leaves, an evaluated
 * START joins, and only the newest OPEN_RUNS_KEPT stay. The monitor's fold and the deadlines read
 * model keep runs of their own shape, so `opened` makes the new one.
 */
export function openRunsAfterPing<Run extends { ping_id: string }>(runs: readonly Run[], ping: RunsPing, opened: (start: Pick<OpenRun, 'ping_id' | 'run_id' | 'started_at'>) => Run): Run[] {
  const kept = runs.filter((run) => run.ping_id !== ping.closed_start_ping_id);
  if (!ping.evaluated || ping.event !== 'START') return kept;
  return [...kept, opened({ ping_id: ping.ping_id, run_id: ping.run_id, started_at: ping.received_at })].slice(-OPEN_RUNS_KEPT);
}
