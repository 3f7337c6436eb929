import { Writable } from 'node:stream';
import { pino } from 'pino';
import type { Logger } from '../../src/web/logger.js';

/** A logger at `level` whose JSON lines a spec reads back as objects, in the order written. */
export function capturedLog(level: string): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line)));
      done();
    },
  });
  return { logger: pino({ level }, sink), lines };
}
