/**
 * Self time by function from a V8 .cpuprofile (node --cpu-prof, or bench/rebuild.ts --profile):
 * where the time goes without opening DevTools. Native work (SQLite, JSON) shows under the
 * JavaScript function that called it or as the binding's own name (`run`, `get`, `all`).
 *   node --import=tsx bench/cpuprofile-summary.ts <file.cpuprofile> [top=30]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

const [file, top = '30'] = process.argv.slice(2);
if (!file) {
  console.error('usage: node --import=tsx bench/cpuprofile-summary.ts <file.cpuprofile> [top]');
  process.exit(2);
}
const profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] } = JSON.parse(readFileSync(file, 'utf8'));
const sampled = new Map<number, number>();
profile.samples.forEach((id, i) => sampled.set(id, (sampled.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const byFunction = new Map<string, number>();
let totalMs = 0;
for (const node of profile.nodes) {
  const ms = (sampled.get(node.id) ?? 0) / 1000;
  totalMs += ms;
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url ? ` ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}` : '';
  const key = `${functionName || '(anonymous)'}${where}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + ms);
}
console.log(`total ${totalMs.toFixed(0)} ms sampled`);
for (const [name, ms] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) {
  console.log(`${ms.toFixed(0).padStart(8)} ms ${((ms / totalMs) * 100).toFixed(1).padStart(5)}%  ${name}`);
}
