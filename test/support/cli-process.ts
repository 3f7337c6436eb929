import { type ChildProcess, spawn } from 'node:child_process';
import { childEnv } from './server-process.js';

export interface CliExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** `vigil …` as its own OS process, as an operator runs it beside a server: so that it can be killed. */
export function spawnCli(args: string[], env: NodeJS.ProcessEnv): { child: ChildProcess; exited: Promise<CliExit> } {
  const child = spawn(process.execPath, ['--import=tsx', 'src/main/cli.ts', ...args], { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<CliExit>((resolve) => child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, exited };
}
