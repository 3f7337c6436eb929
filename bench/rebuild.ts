/**
 * Rebuilds every read model from a log of project events, as `vigil projections rebuild` does
 * (same stores, same connections), and prints events/s and peak RSS. The baseline is a plain read
 * of the same log, in the same page size, in the same run. Each is repeated and the median kept.
 *   npm run bench:rebuild [-- --events 200000 --repeat 3 --profile rebuild.cpuprofile --trial]
 *   npm run bench:replay                  (1,000,000 events: the target of issue 8)
 * --profile writes a CPU profile of the first rebuild only (not the seeding); summarise it with
 *   node --import=tsx bench/cpuprofile-summary.ts rebuild.cpuprofile
 * --trial prints the figures without recording them in results/ (for comparing changes).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { Session } from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import { allProjections } from '../projections/index.js';
import { loadConfig } from '../src/main/config.js';
import { openStores } from '../src/main/stores.js';
import { Projector } from '../src/projector/projector.js';
import { makeTempDir } from '../test/support/temp-dir.js';
import { median } from './stats.js';
import { recordResult } from './results.js';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '200000' },
    repeat: { type: 'string', default: '3' },
    profile: { type: 'string' },
    trial: { type: 'boolean', default: false },
  },
});
const total = Number(values.events);
const repeat = Number(values.repeat);
const TARGET_EVENTS = 1_000_000;
const TARGET_RATE = 50_000;
/** Of the log's own read rate, in the same run: what the read models may cost on top of reading it. */
const TARGET_SHARE_OF_READ = 0.5;
const PAGE = 10_000;
const projects = 1000;
const dir = makeTempDir('vigil-bench-rebuild');
const stores = await openStores(loadConfig({ VIGIL_DATA_DIR: dir.path }));
const events = stores.events;
const at = '2026-11-21T00:00:00.000Z';

const seedStarted = performance.now();
for (let p = 0; p < projects; p++) {
  const project_id = `00000000-0000-4000-8000-${String(p).padStart(12, '0')}`;
  await events.appendToStream(`project-${project_id}`, [
    { type: 'ProjectCreated', data: { project_id, name: `P${p}`, description: '', owner_id: 'u', ping_key: `k${p}`, created_at: at } },
    { type: 'ProjectMemberAdded', data: { project_id, member_id: `m${p}`, user_id: 'u', role: 'OWNER', joined_at: at } },
  ]);
}
const batch = [];
for (let n = 2 * projects; n < total; n++) {
  const project_id = `00000000-0000-4000-8000-${String(n % projects).padStart(12, '0')}`;
  batch.push(events.appendToStream(`project-${project_id}`, [{ type: 'ProjectUpdated', data: { project_id, name: `P${n}`, description: '', updated_at: at } }]));
  if (batch.length === 1000) await Promise.all(batch.splice(0));
}
await Promise.all(batch);
const seedSeconds = (performance.now() - seedStarted) / 1000;
// The kernel's high-water mark: a sampling timer would miss the peaks, because the rebuild keeps
// the event loop busy with synchronous SQLite work between its awaits.
const peakRssMib = () => Math.round(process.resourceUsage().maxRSS / 1024);
const seedPeakRss = peakRssMib();

async function readRate(): Promise<number> {
  const started = performance.now();
  let read = 0;
  for (let after = 0; ; ) {
    const page = await events.readAll({ after, maxCount: PAGE });
    if (page.length === 0) break;
    read += page.length;
    after = page.at(-1)!.position;
  }
  return read / ((performance.now() - started) / 1000);
}

/**
 * CPU seconds the main thread (the projections') has spent, from Linux's per-thread counters; null
 * elsewhere. It is the rebuild's critical path while the writer thread keeps up, and on a shared
 * machine it moves less than the wall time does.
 */
function mainThreadCpuSeconds(): number | null {
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th, in clock ticks (100 a second).
    const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** Events/s, and the CPU seconds the process spent (its threads together: the writer thread's too) and its main thread. */
async function rebuildRun(profileTo: string | undefined): Promise<{ rate: number; cpuSeconds: number; mainCpuSeconds: number | null }> {
  const session = profileTo ? new Session() : null;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const mainBefore = mainThreadCpuSeconds();
  await new Projector(events, stores.readModels, allProjections()).rebuild();
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const mainAfter = mainThreadCpuSeconds();
  if (session && profileTo) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(profileTo, JSON.stringify(profile));
    session.disconnect();
  }
  return { rate: total / seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, mainCpuSeconds: mainBefore === null || mainAfter === null ? null : mainAfter - mainBefore };
}

const reads: number[] = [];
const rebuilds: number[] = [];
const cpuSeconds: number[] = [];
const mainCpuSeconds: number[] = [];
// Others may be running on the machine: the load average goes with the figures.
const loadAtStart = loadavg()[0]!;
for (let run = 0; run < repeat; run++) {
  reads.push(await readRate());
  const { rate, cpuSeconds: cpu, mainCpuSeconds: mainCpu } = await rebuildRun(run === 0 ? values.profile : undefined);
  rebuilds.push(rate);
  cpuSeconds.push(cpu);
  if (mainCpu !== null) mainCpuSeconds.push(mainCpu);
  console.log(`run ${run + 1}/${repeat}: read ${reads.at(-1)!.toFixed(0)} events/s, rebuild ${rate.toFixed(0)} events/s (${cpu.toFixed(1)} CPU s${mainCpu === null ? '' : `, ${mainCpu.toFixed(1)} on the main thread`}), load ${loadavg()[0]!.toFixed(2)}`);
}
const loadAtEnd = loadavg()[0]!;
const peakRss = peakRssMib();
await stores.close();
dir.remove();

const read = median(reads);
const rebuild = median(rebuilds);
console.log(`log: ${total} events over ${projects} project streams, seeded in ${seedSeconds.toFixed(0)} s; medians of ${repeat} runs`);
console.log(`baseline, reading the log only: ${read.toFixed(0)} events/s`);
console.log(`rebuild of all read models: ${rebuild.toFixed(0)} events/s (${(total / rebuild).toFixed(2)} s), peak RSS ${peakRss} MiB (${seedPeakRss} MiB after seeding)`);
console.log(`ratio: rebuild runs at ${((rebuild / read) * 100).toFixed(0)}% of the raw read rate; ${median(cpuSeconds).toFixed(1)} CPU s per rebuild (all threads)${mainCpuSeconds.length > 0 ? `, ${median(mainCpuSeconds).toFixed(1)} on the main thread` : ''}`);
console.log(`load average (1 min) ${loadAtStart.toFixed(2)} before the runs, ${loadAtEnd.toFixed(2)} after, on ${availableParallelism()} cores`);
if (values.profile) console.log(`CPU profile of the first rebuild: ${values.profile}`);

if (!values.trial) recordResult({
  name: `rebuild-${total >= 1_000_000 && total % 1_000_000 === 0 ? `${total / 1_000_000}m` : `${Math.round(total / 1000)}k`}`,
  date: new Date().toISOString(),
  command: `node --import=tsx bench/rebuild.ts --events ${total} --repeat ${repeat}`,
  figures: {
    events: total,
    events_per_s: Math.round(rebuild),
    seconds: Number((total / rebuild).toFixed(2)),
    peak_rss_mib: peakRss,
    slowest_run_events_per_s: Math.round(Math.min(...rebuilds)),
    fastest_run_events_per_s: Math.round(Math.max(...rebuilds)),
    cpu_seconds: Number(median(cpuSeconds).toFixed(1)),
    ...(mainCpuSeconds.length > 0 ? { main_thread_cpu_seconds: Number(median(mainCpuSeconds).toFixed(1)) } : {}),
  },
  baseline: { name: 'reading the log only', figures: { events: total, events_per_s: Math.round(read), peak_rss_mib: seedPeakRss } },
  ratio: Number((rebuild / read).toFixed(3)),
  ...(total >= TARGET_EVENTS
    ? {
        target: {
          description: `rebuilding ${TARGET_EVENTS.toLocaleString('en-US')} events at least ${TARGET_SHARE_OF_READ}x the speed of reading the log alone in the same run (and at least ${TARGET_RATE.toLocaleString('en-US')} events/s)`,
          met: rebuild >= TARGET_SHARE_OF_READ * read && rebuild >= TARGET_RATE,
        },
      }
    : {}),
  notes: [
    `The log: 1,000 projects (ProjectCreated, ProjectMemberAdded) then ProjectUpdated events round-robin; every event also becomes an audit-history entry. Median of ${repeat} runs; the rebuild drops and refills every read model each run. Peak RSS is the process's high-water mark (the baseline column: after seeding and before any rebuild).`,
    `CPU seconds are the process's (the projections' thread and the bulk writer's together), median per rebuild. Load average (1 min) ${loadAtStart.toFixed(2)} before the runs and ${loadAtEnd.toFixed(2)} after, on ${availableParallelism()} cores.`,
  ],
});
