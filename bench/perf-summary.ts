/**
 * Where a server's CPU went, from a Linux perf recording of it (`bench:pings --perf DIR`):
 *   node --import=tsx bench/perf-summary.ts DIR/vigil-1.perf.data [--thread TID] [--top 25]
 *
 * Unlike V8's own profiles (--profile), perf's cpu-clock samples a thread only while it is on a
 * CPU: a thread waiting for a core, for the disk in an fsync, or at the write gate is not counted
 * as working. On a machine whose cores the load generator shares, that is the difference between
 * where the time went and where the CPU went.
 *
 * Each sample is put in the first category below that one of its frames matches (the whole call
 * chain, native, kernel and JavaScript), so "the log's writer" includes the SQLite and kernel work
 * it called; then the threads are listed with their share of the samples and of each category.
 * With --thread, it lists that thread's JavaScript frames by how many of its samples they are in.
 */
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { thread: { type: 'string' }, top: { type: 'string', default: '25' } } });
const file = positionals[0];
if (!file) throw new Error('usage: perf-summary.ts FILE.perf.data [--thread TID] [--top N]');

/**
 * In order: a sample goes to the first whose pattern one of its frames matches. Vigil's modules are
 * named as `.ts` (run through tsx) or `.js` (the build, which the benches run): both match.
 */
const CATEGORIES: readonly { name: string; pattern: RegExp }[] = [
  { name: "log writer: the group's transaction (SQL, hashes, WAL, fsync)", pattern: /sqlite-log-writer\.[jt]s/ },
  { name: 'read models: documents written, the write gate', pattern: /sqlite-document-writer\.[jt]s|sqlite-read-model-store\.[jt]s|write-gate\.[jt]s/ },
  { name: 'event store: events read back, group commit queue', pattern: /sqlite-event-store\.[jt]s/ },
  { name: 'event codecs (decode, upcast)', pattern: /event-codecs|io-ts/ },
  { name: 'projections (apply)', pattern: /\/projections\// },
  { name: 'projector (batches, kept documents)', pattern: /\/src\/projector\// },
  { name: 'domain (decide, evolve)', pattern: /\/src\/domain\// },
  { name: 'application (commands, event ids, state cache)', pattern: /\/src\/app\// },
  { name: 'HTTP: answers written to sockets', pattern: /writev|_writeGeneric|tcp_sendmsg/ },
  { name: 'Ping API (routing, query, answer)', pattern: /ping-api\.[jt]s/ },
  { name: "the peers' doors (Healthchecks, Uptime Kuma, Sentry)", pattern: /\/src\/api\/peers\// },
  { name: 'WAL checkpoints', pattern: /wal-checkpoint/ },
  // Before the floor's pattern: the compactor's transactions are better-sqlite3's too.
  { name: "log compaction (retention's removals, walked and hashed)", pattern: /log-compaction\.[jt]s|log-walk\.[jt]s/ },
  // The floor's group commit is its function `commit`, into which V8 may inline better-sqlite3's transaction.
  { name: "other SQLite transactions (the durable floor's)", pattern: /sqliteTransaction|[*^~]commit file:\S*durable-floor-server\.ts/ },
  { name: 'HTTP: requests read and parsed', pattern: /_http_|llhttp|Parser::|streams\/writable|node:net|tcp_|uv__read/ },
  { name: 'garbage collection', pattern: /Scaveng|GarbageCollect|MarkCompact|Heap::|Sweeper|Marking|Evacuat/ },
  { name: 'promises, timers, event loop', pattern: /RunMicrotasks|Promise|processImmediate|processTimers|uv_run|epoll/ },
];
const OTHER = 'other';

const script = spawnSync('perf', ['script', '-i', file, '-F', 'tid,ip,sym', '--no-inline'], { encoding: 'utf8', maxBuffer: 2 ** 31 - 1 });
if (script.status !== 0) throw new Error(`perf script failed: ${script.stderr}`);

interface Sample {
  tid: string;
  frames: string[];
}

function* samples(text: string): Generator<Sample> {
  let current: Sample | null = null;
  for (const line of text.split('\n')) {
    if (line.trim() === '') {
      if (current) yield current;
      current = null;
    } else if (!line.startsWith('\t')) current = { tid: line.trim().split(/\s+/)[0]!, frames: [] };
    else current?.frames.push(line.trim().replace(/^[0-9a-f]+\s+/, ''));
  }
  if (current) yield current;
}

const byThread = new Map<string, Map<string, number>>();
const framesOfThread = new Map<string, number>();
let total = 0;
for (const sample of samples(script.stdout)) {
  total += 1;
  const stack = sample.frames.join('\n');
  const category = CATEGORIES.find((c) => c.pattern.test(stack))?.name ?? OTHER;
  const counts = byThread.get(sample.tid) ?? new Map<string, number>();
  counts.set(category, (counts.get(category) ?? 0) + 1);
  byThread.set(sample.tid, counts);
  if (sample.tid === values.thread) {
    // Each JavaScript function once per sample, however deep the recursion.
    for (const frame of new Set(sample.frames.filter((f) => f.startsWith('JS:') || f.startsWith('RegExp:')))) framesOfThread.set(frame, (framesOfThread.get(frame) ?? 0) + 1);
  }
}

const percent = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1).padStart(5)}%`;
const sum = (counts: Map<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);
console.log(`${file}: ${total} samples on the CPU`);
for (const [tid, counts] of [...byThread].sort((a, b) => sum(b[1]) - sum(a[1]))) {
  const samplesHere = sum(counts);
  if (samplesHere < total / 100) continue;
  console.log(`\nthread ${tid}: ${percent(samplesHere, total)} of the process's samples`);
  for (const [category, count] of [...counts].sort((a, b) => b[1] - a[1])) {
    if (count >= samplesHere / 200) console.log(`  ${percent(count, samplesHere)}  ${category}`);
  }
}
if (values.thread) {
  const samplesHere = sum(byThread.get(values.thread) ?? new Map());
  console.log(`\nthread ${values.thread}, JavaScript frames by the share of its samples they are in:`);
  for (const [frame, count] of [...framesOfThread].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) console.log(`  ${percent(count, samplesHere)}  ${frame}`);
}
