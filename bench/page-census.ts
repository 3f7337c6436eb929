/**
 * A census of the pages a ping writes, by table and index: Vigil (`npm start`'s server, every role)
 * takes pings as bench:pings drives them at its peak, with its WAL checkpointer held off (see
 * no-wal-checkpoints.ts), so that the WAL keeps every page each commit wrote. Each frame of the WAL
 * written while the load ran is then mapped to the b-tree its page belongs to (SQLite's `dbstat`),
 * and counted per acknowledged ping. This does not depend on the machine's load the way the rate
 * does, though the pages a ping writes do depend on how many pings share a commit (printed too).
 *
 * First the monitors are pinged past their retention window (200 pings each), so that every ping
 * measured also drops the oldest of its monitor's from the log, as in a deployment that has run a
 * while.
 *   node --import=tsx bench/page-census.ts [--connections 64 --seconds 10 --monitors 200 --server-env NAME=value]
 */
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, readSync, readdirSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { freePort } from '../test/support/server-process.js';
import { makeTempDir } from '../test/support/temp-dir.js';
import { TestClock, TestVigil } from '../test/support/test-vigil.js';

const { values } = parseArgs({
  options: {
    connections: { type: 'string', default: '64' },
    seconds: { type: 'string', default: '10' },
    monitors: { type: 'string', default: '200' },
    'server-env': { type: 'string', multiple: true, default: [] },
  },
});
const connections = Number(values.connections);
const seconds = Number(values.seconds);
const monitorCount = Number(values.monitors);
const serverEnv = Object.fromEntries(values['server-env'].map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
const RETENTION = 200;

const dir = makeTempDir('vigil-bench-census');
const seed = await TestVigil.reopen(dir.path, {}, TestClock.atWallTime());
const key = await seed.accountKey(await seed.user('bench@example.com'), ['manage_projects', 'manage_monitors']);
const projectId = (await seed.request('POST', '/v1/projects', { key, body: { name: 'Bench' } })).body.project.id;
const paths: string[] = [];
for (let i = 0; i < monitorCount; i++) {
  const created = await seed.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: `m${i}`, type: 'JOB_HEARTBEAT', schedule: '1h' } });
  paths.push(`/v1/ping/${created.body.monitor.id}`);
}
await seed.stopKeepingData();

const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, ['--import=tsx', `--import=${new URL('./no-wal-checkpoints.ts', import.meta.url).href}`, 'src/main/server.ts'], {
  env: { ...process.env, ...serverEnv, PORT: String(port), HOST: '127.0.0.1', VIGIL_DATA_DIR: dir.path },
  stdio: ['ignore', 'ignore', 'inherit'],
});
process.once('exit', () => server.kill('SIGKILL'));
for (;;) {
  try {
    if ((await fetch(`${url}/healthz`)).ok) break;
  } catch {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function load(options: { seconds?: number; amount?: number }) {
  let next = 0;
  const result = await autocannon({
    url,
    connections,
    ...(options.seconds ? { duration: options.seconds } : { amount: options.amount! }),
    requests: [{ setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length]! }) }],
  });
  return { ok: result['2xx'], errors: result.non2xx + result.errors + result.timeouts };
}

const dbPath = `${dir.path}/vigil.db`;
const walPath = `${dbPath}-wal`;
const settle = () => new Promise((resolve) => setTimeout(resolve, 3000));

/** The WAL's page size and how many frames it holds (see sqlite.org/fileformat.html#walformat). */
function walFrames(): { pageSize: number; frames: number } {
  const header = Buffer.alloc(32);
  const fd = openSync(walPath, 'r');
  readSync(fd, header, 0, 32, 0);
  closeSync(fd);
  const pageSize = header.readUInt32BE(8);
  return { pageSize, frames: Math.floor((statSync(walPath).size - 32) / (pageSize + 24)) };
}

/** The page number of each frame from `from` up to `to`, and how many of them ended a commit. */
function framePages(from: number, to: number, pageSize: number): { pages: number[]; commits: number } {
  const fd = openSync(walPath, 'r');
  const header = Buffer.alloc(24);
  const pages: number[] = [];
  let commits = 0;
  for (let frame = from; frame < to; frame++) {
    readSync(fd, header, 0, 24, 32 + frame * (pageSize + 24));
    pages.push(header.readUInt32BE(0));
    if (header.readUInt32BE(4) !== 0) commits += 1;
  }
  closeSync(fd);
  return { pages, commits };
}

/** utime + stime of the server, fields 14 and 15 of /proc/<pid>/stat, in ticks of 1/100 s. */
const cpuSeconds = () => {
  const stat = readFileSync(`/proc/${server.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

/** The same for each of the server's threads, by thread id, with its name (the main thread's id is the process's). */
const threadCpuSeconds = () => {
  const threads = new Map<number, { name: string; seconds: number }>();
  for (const tid of readdirSync(`/proc/${server.pid}/task`).map(Number)) {
    try {
      const stat = readFileSync(`/proc/${server.pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      threads.set(tid, { name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), seconds: (Number(fields[11]) + Number(fields[12])) / 100 });
    } catch {
      // A thread that ended meanwhile.
    }
  }
  return threads;
};

const loadAtStart = loadavg()[0]!;
// Requests that time out under a loaded machine are not pings: go on until enough were taken.
const warm = { ok: 0, errors: 0 };
while (warm.ok < monitorCount * (RETENTION + 10)) {
  const more = await load({ amount: Math.max(connections, monitorCount * (RETENTION + 10) - warm.ok) });
  warm.ok += more.ok;
  warm.errors += more.errors;
}
await settle();
const before = walFrames();
const cpuBefore = cpuSeconds();
const threadsBefore = threadCpuSeconds();
const measured = await load({ seconds });
await settle();
const cpu = cpuSeconds() - cpuBefore;
const threadsAfter = threadCpuSeconds();
const after = walFrames();

const { pages, commits } = framePages(before.frames, after.frames, before.pageSize);
const reader = new Database(dbPath, { readonly: true });
const owner = new Map<number, string>();
for (const row of reader.prepare<[], { name: string; pageno: number }>('SELECT name, pageno FROM dbstat').all()) owner.set(row.pageno, row.name);
reader.close();
server.kill('SIGKILL');

const byName = new Map<string, number>();
for (const page of pages) {
  const name = owner.get(page) ?? '(free or past the end)';
  byName.set(name, (byName.get(name) ?? 0) + 1);
}
const pings = measured.ok;
console.log(`${connections} connections, ${seconds} s, ${monitorCount} monitors past retention (warm-up ${warm.ok} pings, ${warm.errors} errors); ${pings} pings acknowledged (${(pings / seconds).toFixed(0)}/s), ${measured.errors} errors`);
console.log(`WAL frames written: ${pages.length} (${(pages.length / pings).toFixed(2)} pages, ${((pages.length * (before.pageSize + 24)) / 1024 / pings).toFixed(1)} KB per ping); commits ${commits} (${(pings / commits).toFixed(1)} pings per commit, both writers)`);
console.log(`server CPU ${((cpu * 1e6) / pings).toFixed(0)} µs per ping; load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end`);
// The threads that used a tenth of a millisecond or more per ping (the main thread answers HTTP and commits the log).
const perThread = [...threadsAfter].map(([tid, { name, seconds: spent }]) => ({ tid, name, spent: spent - (threadsBefore.get(tid)?.seconds ?? 0) }));
for (const { tid, name, spent } of perThread.sort((a, b) => b.spent - a.spent).filter((t) => (t.spent * 1e6) / pings >= 0.1)) {
  console.log(`  thread ${tid === server.pid ? 'main' : tid} (${name}): ${((spent * 1e6) / pings).toFixed(0)} µs per ping`);
}
for (const [name, count] of [...byName].sort((a, b) => b[1] - a[1])) {
  console.log(`${(count / pings).toFixed(3).padStart(8)} pages/ping  ${((count / pages.length) * 100).toFixed(1).padStart(5)}%  ${name}`);
}
dir.remove();
process.exit(0);
