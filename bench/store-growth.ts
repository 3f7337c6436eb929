/**
 * Does the store grow with every ping, whatever the retention? 20 heartbeat monitors kept to their
 * last 10 pings (200 pings kept in all) are pinged 400,000 times by a closed loop over HTTP, the
 * server running as `npm start` runs it (a process of its own, its compactor on its own clock).
 * Prints the file + WAL after each 100,000 pings; then stops the server and verifies the log.
 *   npm run bench:store-growth [-- --pings 400000 --step 100000 --monitors 20 --retention 10 --connections 32]
 * The baseline is the size after the first step: with retention bounding the store it stays flat.
 */
import { statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { verifyLog } from '../src/audit/verify-log.js';
import { openSqliteDatabase } from '../src/eventstore/sqlite-database.js';
import { makeTempDir } from '../test/support/temp-dir.js';
import { ALL_SCOPES, TestClock, TestVigil } from '../test/support/test-vigil.js';
import { recordResult } from './results.js';
import { startServer } from './server-process.js';

const { values } = parseArgs({
  options: {
    pings: { type: 'string', default: '400000' },
    step: { type: 'string', default: '100000' },
    monitors: { type: 'string', default: '20' },
    retention: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
  },
});
const total = Number(values.pings);
const step = Number(values.step);
const dir = makeTempDir('vigil-store-growth');
const seed = await TestVigil.reopen(dir.path, {}, TestClock.atWallTime());
const key = await seed.accountKey(await seed.user('bench@example.com'), ALL_SCOPES);
const projectId = (await seed.request('POST', '/v1/projects', { key, body: { name: 'Growth' } })).body.project.id;
const paths: string[] = [];
for (let m = 0; m < Number(values.monitors); m += 1) {
  const body = { project_id: projectId, name: `m${m}`, type: 'JOB_HEARTBEAT', schedule: '1h', retention_count: Number(values.retention) };
  paths.push(`/v1/ping/${(await seed.request('POST', '/v1/monitors', { key, body })).body.monitor.id}`);
}
await seed.stopKeepingData();

const bytes = (name: string) => statSync(`${dir.path}/${name}`, { throwIfNoEntry: false })?.size ?? 0;
const mib = (n: number) => n / 2 ** 20;
const server = await startServer({ VIGIL_DATA_DIR: dir.path });
const sizes: Array<{ pings: number; file_mib: number; wal_mib: number; rss_mib: number }> = [];
let next = 0;
for (let sent = 0; sent < total; sent += step) {
  const result = await autocannon({ url: server.url, connections: Number(values.connections), amount: step, requests: [{ setupRequest: (r) => ({ ...r, path: paths[next++ % paths.length]! }) }] });
  if (result.non2xx + result.errors + result.timeouts > 0) throw new Error(`${result.non2xx} answers not 2xx, ${result.errors} errors`);
  const row = { pings: sent + step, file_mib: mib(bytes('vigil.db')), wal_mib: mib(bytes('vigil.db-wal')), rss_mib: server.rssMib() };
  sizes.push(row);
  console.log(`${row.pings} pings: vigil.db ${row.file_mib.toFixed(1)} MiB + WAL ${row.wal_mib.toFixed(1)} MiB = ${(row.file_mib + row.wal_mib).toFixed(1)} MiB, RSS ${row.rss_mib} MiB`);
}
await server.stop();
const db = openSqliteDatabase(`${dir.path}/vigil.db`);
const verified = verifyLog(db);
const rows = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM es_events').get()!.n;
const freePages = Number(db.pragma('freelist_count', { simple: true }));
db.close();
console.log(`after stopping: vigil.db ${mib(bytes('vigil.db')).toFixed(1)} MiB, ${rows} log rows, ${freePages} free pages; verify ${verified.ok ? 'ok' : `broken: ${verified.first_break?.reason}`}`);
if (!process.env["KEEP"]) dir.remove(); else console.log(dir.path);

const first = sizes[0]!;
const last = sizes.at(-1)!;
const figure = (s: typeof first) => ({ store_mib: s.file_mib + s.wal_mib, file_mib: s.file_mib, wal_mib: s.wal_mib, rss_mib: s.rss_mib });
recordResult({
  name: 'store-growth',
  date: new Date().toISOString(),
  command: `npm run bench:store-growth -- --pings ${total} --step ${step} --monitors ${values.monitors} --retention ${values.retention} --connections ${values.connections}`,
  figures: figure(last),
  baseline: { name: `after the first ${step.toLocaleString('en')} pings`, figures: figure(first) },
  ratio: (last.file_mib + last.wal_mib) / (first.file_mib + first.wal_mib),
  target: { description: 'file + WAL flat once every monitor is past its retention, and verify passing', met: verified.ok && last.file_mib + last.wal_mib <= (first.file_mib + first.wal_mib) * 1.1 },
  notes: [
    ...sizes.map((s) => `${s.pings.toLocaleString('en')} pings: file ${s.file_mib.toFixed(1)} MiB + WAL ${s.wal_mib.toFixed(1)} MiB, RSS ${s.rss_mib} MiB`),
    `After stopping: ${rows} log rows, ${freePages} free pages; verify ${verified.ok ? 'passes' : 'fails'}.`,
  ],
});
