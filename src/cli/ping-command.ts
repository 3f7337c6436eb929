import { DEFAULT_PING_DELIVERY, type PingDelivery, type PingSuffix, sendPing } from './ping-client.js';
import { missingMonitorLines } from './missing-monitor.js';
import { resolvePingTarget } from './ping-target.js';
import { CliUsageError, parseFlags } from './usage.js';
import { jsonLine, visible, visibleLines } from './visible.js';

export interface PingCommandIo {
  env: NodeJS.ProcessEnv;
  stdout: (text: string) => void;
  stderr: NodeJS.WritableStream;
  delivery?: PingDelivery;
}

export const PING_USAGE = `usage:
  vigil ping MONITOR_ID [start|success|fail|log] [--url URL] [--run-id X] [--message M] [--exit-code N]
  vigil ping --slug SLUG [--ping-key KEY] [start|success|fail|log] [...same flags]`;

const KINDS: Record<string, PingSuffix> = { start: 'start', success: 'success', fail: 'fail', failure: 'fail', log: 'log' };

/** `vigil ping`: one ping by hand (or from a script without curl); prints Vigil's answer. */
export async function runPing(args: readonly string[], io: PingCommandIo): Promise<number> {
  let parsed: ReturnType<typeof parsePingArgs>;
  try {
    parsed = parsePingArgs(args, io.env);
  } catch (error) {
    if (!(error instanceof CliUsageError)) throw error;
    io.stderr.write(`vigil: ${visibleLines(error.message)}\n${PING_USAGE}\n`);
    return 2;
  }
  const answer = await sendPing(parsed.target, parsed.request, io.delivery ?? DEFAULT_PING_DELIVERY);
  if (!answer.ok) {
    io.stderr.write(answer.status === 404 ? `${missingMonitorLines('ping', parsed.target, answer.error).join('\n')}\n` : `vigil: ping failed: ${visible(answer.error)}\n`);
    return 1;
  }
  io.stdout(jsonLine(answer.body));
  return 0;
}

function parsePingArgs(args: readonly string[], env: NodeJS.ProcessEnv) {
  const { values, positionals } = parseFlags(
    args,
    {
      url: { type: 'string' },
      slug: { type: 'string' },
      'ping-key': { type: 'string' },
      'run-id': { type: 'string' },
      message: { type: 'string' },
      'exit-code': { type: 'string' },
    },
    true,
  );
  const [monitorId, kindName, ...extra] = values.slug === undefined ? positionals : [undefined, ...positionals];
  if (extra.length > 0) throw new CliUsageError(`unexpected argument ${extra[0]}`);
  const suffix = KINDS[kindName ?? 'success'];
  if (suffix === undefined) throw new CliUsageError(`the ping kind is start, success, fail or log, not ${kindName}`);
  const exitCode = values['exit-code'];
  if (exitCode !== undefined && !(/^\d{1,3}$/.test(exitCode) && Number(exitCode) <= 255)) throw new CliUsageError(`--exit-code must be a whole number from 0 to 255, not ${exitCode}`);
  const target = resolvePingTarget({ monitorId, slug: values.slug, pingKey: values['ping-key'], url: values.url }, env);
  return {
    target,
    request: {
      suffix,
      ...(values['run-id'] === undefined ? {} : { runId: values['run-id'] }),
      ...(values.message === undefined ? {} : { message: values.message }),
      ...(exitCode === undefined ? {} : { exitCode: Number(exitCode) }),
    },
  };
}
