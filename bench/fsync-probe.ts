import { closeSync, fdatasyncSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { percentiles } from './stats.js';

/**
 * How long this machine's disk takes to make a write durable: `count` fdatasync calls, each after a
 * 16 KB write (about one group commit of pings) into a scratch file in `dir`. A ping is answered
 * only once its group's commit has synced, and one arriving during a commit waits for that commit
 * and then its own, so these figures are the floor under the ping latency bench:pings reports.
 */
export function probeFsync(dir: string, count = 500): { p50: number; p99: number } {
  const path = join(dir, 'fsync-probe');
  const fd = openSync(path, 'w');
  const block = Buffer.alloc(16 * 1024, 7);
  const samples: number[] = [];
  try {
    for (let i = 0; i < count; i++) {
      writeSync(fd, block, 0, block.length, (i % 64) * block.length);
      const started = process.hrtime.bigint();
      fdatasyncSync(fd);
      samples.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
  } finally {
    closeSync(fd);
    rmSync(path, { force: true });
  }
  const { p50, p99 } = percentiles(samples);
  return { p50, p99 };
}
