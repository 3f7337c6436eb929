import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { SentryRun, SentryScenario } from './sentry-client.js';

const CLIENT = fileURLToPath(new URL('./sentry-client.ts', import.meta.url));

/** Runs a scenario in a child process with the real @sentry/node (see sentry-client.ts). */
export function runSentryJob(scenario: SentryScenario): Promise<SentryRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import=tsx', CLIENT, JSON.stringify(scenario)], { stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.end();
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const lines = Buffer.concat(out).toString('utf8').trim().split('\n');
      if (code !== 0) reject(new Error(`the Sentry job exited with ${code}: ${Buffer.concat(err).toString('utf8')}`));
      else resolve(JSON.parse(lines.at(-1)!) as SentryRun);
    });
  });
}
