import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { type JobOutcome, runJob } from './job-process.js';
import { DEFAULT_PING_DELIVERY, type PingDelivery, type PingRequest, sendPing } from './ping-client.js';
import { missingMonitorLines } from './missing-monitor.js';
import { type PingTarget, resolvePingTarget } from './ping-target.js';
import { CliUsageError, parseFlags } from './usage.js';
import { visible, visibleLines } from './visible.js';

export interface ExecIo {
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** The job's stdin: the wrapper's own (a terminal, or cron's /dev/null) unless a test says otherwise. */
  stdin?: 'inherit' | 'ignore';
  delivery?: PingDelivery;
  /** Between SIGTERM and SIGKILL once --timeout fires. */
  killGraceMs?: number;
}

export const EXEC_USAGE = `usage:
  vigil exec (--monitor ID | --slug SLUG [--ping-key KEY]) [--url URL] [--timeout 30m] [--tail-kb 10] -- COMMAND [ARGS...]`;

const DEFAULT_TAIL_KB = 10;
const DEFAULT_KILL_GRACE_MS = 5000;

interface ExecInvocation {
  target: PingTarget;
  command: string;
  args: string[];
  timeoutMs: number | null;
  tailBytes: number;
}

/**
 * `vigil exec`: wraps a job in START and SUCCESS/FAILURE pings sharing one run_id, with the tail of its
 * output as the final ping's payload. Reporting is best effort: whatever happens to Vigil, the job runs
 * and the wrapper exits with the job's own exit code.
 */
export async function runExec(args: readonly string[], io: ExecIo): Promise<number> {
  let invocation: ExecInvocation;
  try {
    invocation = parseExecArgs(args, io.env);
  } catch (error) {
    if (!(error instanceof CliUsageError)) throw error;
    io.stderr.write(`vigil: ${visibleLines(error.message)}\n${EXEC_USAGE}\n`);
    return 2;
  }
  const delivery = io.delivery ?? DEFAULT_PING_DELIVERY;
  const runId = randomUUID();
  // A 404 is said once, loudly, after the job: a mistyped --monitor loses every run until it is fixed.
  const refused: { name: string; error: string }[] = [];
  const report = async (request: PingRequest, name: string) => {
    const answer = await sendPing(invocation.target, { ...request, runId }, delivery);
    if (answer.ok) return;
    if (answer.status === 404) refused.push({ name, error: answer.error });
    else io.stderr.write(`vigil: could not send ${name} ping: ${visible(answer.error)}\n`);
  };

  await report({ suffix: 'start' }, 'start');
  const startedAt = performance.now();
  const outcome = await runJob(invocation.command, invocation.args, {
    // The job may send its own LOG pings into the same run.
    env: { ...io.env, VIGIL_RUN_ID: runId },
    stdin: io.stdin ?? 'inherit',
    stdout: io.stdout,
    stderr: io.stderr,
    tailBytes: invocation.tailBytes,
    timeoutMs: invocation.timeoutMs,
    killGraceMs: io.killGraceMs ?? DEFAULT_KILL_GRACE_MS,
  });
  const durationMs = Math.round(performance.now() - startedAt);
  const succeeded = outcome.exitCode === 0 && !outcome.timedOut;
  await report(finalPing(outcome, durationMs, succeeded), succeeded ? 'success' : 'failure');
  if (refused.length > 0) {
    const lines = missingMonitorLines('exec', invocation.target, refused[0]!.error);
    const pings = refused.map((r) => r.name).join(' and ');
    lines.push(`vigil exec: the job ran anyway and exited ${outcome.exitCode}; Vigil recorded nothing of its ${pings} ping${refused.length > 1 ? 's' : ''}.`);
    io.stderr.write(`${lines.join('\n')}\n`);
  }
  return outcome.exitCode;
}

function finalPing(outcome: JobOutcome, durationMs: number, succeeded: boolean): PingRequest {
  return {
    suffix: succeeded ? 'success' : 'fail',
    exitCode: outcome.exitCode,
    durationMs,
    ...(outcome.message === null ? {} : { message: outcome.message }),
    ...(outcome.output === '' ? {} : { payload: outcome.output }),
  };
}

function parseExecArgs(args: readonly string[], env: NodeJS.ProcessEnv): ExecInvocation {
  const separator = args.indexOf('--');
  if (separator === -1) throw new CliUsageError('exec needs -- before the command to run');
  const [command, ...commandArgs] = args.slice(separator + 1);
  if (command === undefined || command === '') throw new CliUsageError('exec needs a command after --');
  const { values } = parseFlags(args.slice(0, separator), {
    monitor: { type: 'string' },
    slug: { type: 'string' },
    'ping-key': { type: 'string' },
    url: { type: 'string' },
    timeout: { type: 'string' },
    'tail-kb': { type: 'string' },
  });
  const target = resolvePingTarget({ monitorId: values.monitor, slug: values.slug, pingKey: values['ping-key'], url: values.url }, env);
  return {
    target,
    command,
    args: commandArgs,
    timeoutMs: values.timeout === undefined ? null : parseTimeout(values.timeout),
    tailBytes: parseTailKb(values['tail-kb']) * 1024,
  };
}

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000 };
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** `90s`, `30m`, `1.5h`, as `timeout(1)` takes them (but the unit is required). */
export function parseTimeout(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(s|m|h)$/.exec(text);
  const unitMs = match ? UNIT_MS[match[2]!] : undefined;
  const ms = match && unitMs ? Math.round(Number(match[1]) * unitMs) : 0;
  if (!(ms > 0)) throw new CliUsageError(`--timeout must be a duration like 90s, 30m or 2h, not ${text}`);
  // Node's timers hold at most 2^31 - 1 ms; a longer one fires at once.
  if (ms > MAX_TIMEOUT_MS) throw new CliUsageError(`--timeout must be at most 596h, not ${text}`);
  return ms;
}

/** Vigil keeps the first VIGIL_PING_PAYLOAD_LIMIT bytes of a payload (100 KB by default), so a tail past that would lose its end. */
function parseTailKb(text: string | undefined): number {
  if (text === undefined) return DEFAULT_TAIL_KB;
  if (!/^\d{1,4}$/.test(text) || Number(text) > 1024) throw new CliUsageError(`--tail-kb must be a whole number of KB from 0 to 1024, not ${text}`);
  return Number(text);
}
