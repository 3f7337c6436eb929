import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { OutputTail } from './output-tail.js';

export interface JobOptions {
  env: NodeJS.ProcessEnv;
  stdin: 'inherit' | 'ignore';
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  tailBytes: number;
  timeoutMs: number | null;
  /** Between SIGTERM and SIGKILL once the timeout fires. */
  killGraceMs: number;
}

export interface JobOutcome {
  /** What a shell would report: the exit status, 128 + the signal's number, 124 on timeout, 127/126 if it never started. */
  exitCode: number;
  /** Why it failed when the exit code alone does not say. */
  message: string | null;
  timedOut: boolean;
  /** The last bytes of stdout and stderr, interleaved as they arrived. */
  output: string;
}

/** Exit codes as coreutils `timeout` and POSIX shells use them. */
const TIMED_OUT = 124;
const CANNOT_EXECUTE = 126;
const NOT_FOUND = 127;

/**
 * How long to wait for the job's output pipes to close once it has exited: a background process it
 * left behind may hold them open forever, and the job's outcome must not wait for that.
 */
const PIPE_DRAIN_MS = 1000;

/** Signals that would kill this wrapper before it can report; they go to the job instead. */
const FORWARDED_SIGNALS = ['SIGTERM', 'SIGHUP'] as const;

/**
 * Runs the job as a child with stdin, stdout and stderr passed through, keeping the tail of its output.
 * Never rejects: every way the job can end is an outcome to report.
 */
export function runJob(command: string, args: readonly string[], options: JobOptions): Promise<JobOutcome> {
  const tail = new OutputTail(options.tailBytes);
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: options.env, stdio: [options.stdin, 'pipe', 'pipe'] });
    let timedOut = false;
    let settled = false;
    const timers: NodeJS.Timeout[] = [];
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    // Ctrl-C reaches the whole foreground process group, the job included; the wrapper only has to
    // survive it to report how the job ended.
    const ignoreInterrupt = () => {};

    const finish = (outcome: Omit<JobOutcome, 'output' | 'timedOut'>) => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      for (const signal of FORWARDED_SIGNALS) process.off(signal, forward);
      process.off('SIGINT', ignoreInterrupt);
      child.stdout.unpipe(options.stdout);
      child.stderr.unpipe(options.stderr);
      for (const off of outputsGone) off();
      resolve(
        timedOut
          ? { exitCode: TIMED_OUT, message: `timed out after ${formatDuration(options.timeoutMs ?? 0)}`, timedOut, output: tail.text() }
          : { ...outcome, timedOut, output: tail.text() },
      );
    };

    // A reader that went away (`vigil exec … | head`) ends the passing through, not the wrapper:
    // the job runs on, its tail is kept and its exit code reported.
    const outputsGone: (() => void)[] = [];
    for (const [from, to] of [
      [child.stdout, options.stdout],
      [child.stderr, options.stderr],
    ] as const) {
      from.on('data', (chunk: Buffer) => tail.push(chunk));
      from.pipe(to, { end: false });
      const gone = () => from.unpipe(to);
      to.on('error', gone);
      outputsGone.push(() => to.off('error', gone));
    }

    child.once('error', (error: NodeJS.ErrnoException) => {
      if (child.pid !== undefined) return;
      const exitCode = error.code === 'ENOENT' ? NOT_FOUND : CANNOT_EXECUTE;
      finish({ exitCode, message: `could not run ${command}: ${error.code === 'ENOENT' ? 'command not found' : error.message}` });
    });

    let exited: { exitCode: number; message: string | null } | null = null;
    child.once('exit', (code, signal) => {
      const ended = signal
        ? { exitCode: 128 + (constants.signals[signal] ?? 0), message: `killed by ${signal}` }
        : { exitCode: code ?? 0, message: null };
      exited = ended;
      timers.push(
        setTimeout(() => {
          child.stdout.destroy();
          child.stderr.destroy();
          finish(ended);
        }, PIPE_DRAIN_MS),
      );
    });
    child.once('close', () => {
      if (exited) finish(exited);
    });

    if (child.pid === undefined) return;
    for (const signal of FORWARDED_SIGNALS) process.on(signal, forward);
    process.on('SIGINT', ignoreInterrupt);
    if (options.timeoutMs !== null) {
      timers.push(
        setTimeout(() => {
          timedOut = true;
          child.kill('SIGTERM');
          timers.push(setTimeout(() => child.kill('SIGKILL'), options.killGraceMs));
        }, options.timeoutMs),
      );
    }
  });
}

function formatDuration(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  return `${ms / 1000}s`;
}
