import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { freePort } from '../test/support/server-process.js';
import { builtServer } from './built-server.js';

export interface ServerProcess {
  url: string;
  /** The server's resident memory now, in MiB (from /proc). */
  rssMib: () => number;
  stop: () => Promise<void>;
}

/**
 * `npm start` (its build made once, see builtServer), as a process of its own on 127.0.0.1 with `env` (a seeded
 * data dir): answers once /readyz does. VIGIL_BENCH_SERVER_ARGS adds node flags to it
 * (`--cpu-prof` to profile it). Killed if this process exits first.
 */
export async function startServer(env: NodeJS.ProcessEnv): Promise<ServerProcess> {
  const port = await freePort();
  const serverArgs = (process.env['VIGIL_BENCH_SERVER_ARGS'] ?? '').split(' ').filter(Boolean);
  const child: ChildProcess = spawn(process.execPath, [...serverArgs, builtServer()], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 120_000; ; ) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch (error) {
      if (Date.now() > deadline || child.exitCode !== null) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    rssMib: () => {
      const line = readFileSync(`/proc/${child.pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
      return line ? Math.round(Number(line.replace(/\D+/g, '')) / 1024) : NaN;
    },
    stop: async () => {
      process.off('exit', killOnExit);
      child.kill('SIGTERM');
      await exited;
    },
  };
}
