/**
 * `npm run bench`: every benchmark in turn, each as its own process (so one's memory does not
 * weigh on the next), then bench/RESULTS.md from all their results. A benchmark that fails does
 * not stop the others; the run exits non-zero if any did.
 *   npm run bench [-- append timer]     (only those, by the name after `bench:`)
 */
import { spawnSync } from 'node:child_process';
import { writeReport } from './results.js';

const BENCHMARKS = ['bench:append', 'bench:replay', 'bench:pings', 'bench:timer', 'bench:notify', 'bench:as-of', 'bench:console', 'bench:read-your-writes'];

const chosen = process.argv.slice(2).map((name) => `bench:${name}`);
const unknown = chosen.filter((script) => !BENCHMARKS.includes(script));
if (unknown.length > 0) throw new Error(`unknown benchmarks: ${unknown.join(', ')}; they are ${BENCHMARKS.join(', ')}`);

const failed: string[] = [];
for (const script of chosen.length > 0 ? chosen : BENCHMARKS) {
  console.log(`\n> npm run ${script}`);
  const started = performance.now();
  const run = spawnSync('npm', ['run', '--silent', script], { stdio: 'inherit' });
  console.log(`(${script} took ${((performance.now() - started) / 1000).toFixed(0)} s)`);
  if (run.status !== 0) failed.push(`${script} (exit ${run.status ?? run.signal})`);
}
writeReport();
console.log(`\nbench/RESULTS.md regenerated${failed.length > 0 ? `; failed: ${failed.join(', ')}` : ''}`);
if (failed.length > 0) process.exitCode = 1;
