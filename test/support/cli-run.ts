import { PassThrough } from 'node:stream';
import { runCli } from '../../src/main/cli.js';

/** `vigil …` run in this process, as the specs drive it: its exit code, its stdout lines and its stderr. */
export async function runCliCaptured(args: string[], env: NodeJS.ProcessEnv = {}, clock?: () => Date) {
  const lines: string[] = [];
  const stderr = new PassThrough();
  const errors: Buffer[] = [];
  stderr.on('data', (chunk: Buffer) => errors.push(chunk));
  const code = await runCli(args, { env, stdout: (text) => lines.push(text), stderr, ...(clock ? { clock } : {}) });
  return { code, stdout: lines, stderr: Buffer.concat(errors).toString('utf8') };
}
