import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface CurlAnswer {
  status: number;
  body: string;
  headers: Record<string, string>;
}

/**
 * Runs the real `curl` with the arguments a peer's documentation shows (its URL pointed at the test
 * server), and reads back the status, headers and body it got. `-f` in those commands makes curl
 * exit non-zero on a 4xx: the answer is still read, from the headers it wrote to a file (-D).
 */
export function curl(args: string[]): Promise<CurlAnswer> {
  return new Promise((resolve, reject) => {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-curl-'));
    const headerFile = join(dir, 'headers');
    const child = spawn('curl', ['-s', '-D', headerFile, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.end();
    const out: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', () => {
      let head = '';
      try {
        head = readFileSync(headerFile, 'latin1');
      } catch {
        // No answer at all: said below.
      }
      rmSync(dir, { recursive: true, force: true });
      // The last response's headers (a 100 Continue may come first).
      const blocks = head.split(/\r\n\r\n/).filter((block) => /^HTTP\//.test(block));
      const last = blocks.at(-1);
      if (!last) {
        reject(new Error(`curl got no answer: ${head}`));
        return;
      }
      const [statusLine, ...lines] = last.split('\r\n');
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine!.split(' ')[1]), body: Buffer.concat(out).toString('utf8'), headers });
    });
  });
}
