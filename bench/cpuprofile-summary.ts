/**
 * Self time by function from a V8 .cpuprofile (node --cpu-prof, or bench/rebuild.ts --profile):
 * where the time goes without opening DevTools. Native work (SQLite, JSON) shows under the
 * JavaScript function that called it or as the binding's own name (`run`, `get`, `all`).
 * `--inclusive` lists each function's time with everything it called instead, as a share of the
 * thread's busy time (not idle): what a commit, a projector batch or a request costs in all.
 * A thread blocked in a call (an fsync, Atomics.wait) is sampled in it: these are shares of the
 * thread's time, not of CPU.
 *   node --import=tsx bench/cpuprofile-summary.ts <file.cpuprofile> [top=30] [--inclusive]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

const args = process.argv.slice(2);
const inclusive = args.includes('--inclusive');
const [file, top = '30'] = args.filter((arg) => arg !== '--inclusive');
if (!file) {
  console.error('usage: node --import=tsx bench/cpuprofile-summary.ts <file.cpuprofile> [top] [--inclusive]');
  process.exit(2);
}
const profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] } = JSON.parse(readFileSync(file, 'utf8'));
const sampled = new Map<number, number>();
profile.samples.forEach((id, i) => sampled.set(id, (sampled.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parents = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);

function nameOf(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url ? ` ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}` : '';
  return `${functionName || '(anonymous)'}${where}`;
}

const byFunction = new Map<string, number>();
let totalMs = 0;
let idleMs = 0;
for (const node of profile.nodes) {
  const ms = (sampled.get(node.id) ?? 0) / 1000;
  if (ms === 0) continue;
  totalMs += ms;
  if (node.callFrame.functionName === '(idle)') idleMs += ms;
  if (!inclusive) {
    byFunction.set(nameOf(node), (byFunction.get(nameOf(node)) ?? 0) + ms);
    continue;
  }
  if (node.callFrame.functionName === '(idle)') continue;
  // Each function once per sample, however deep it recursed.
  const counted = new Set<string>();
  for (let id: number | undefined = node.id; id !== undefined; id = parents.get(id)) {
    const name = nameOf(nodes.get(id)!);
    if (counted.has(name)) continue;
    counted.add(name);
    byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
  }
}
const base = inclusive ? totalMs - idleMs : totalMs;
console.log(`total ${totalMs.toFixed(0)} ms sampled, ${(totalMs - idleMs).toFixed(0)} ms busy${inclusive ? ' (shares below are of the busy time)' : ''}`);
for (const [name, ms] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) {
  console.log(`${ms.toFixed(0).padStart(8)} ms ${((ms / base) * 100).toFixed(1).padStart(5)}%  ${name}`);
}
