/**
 * Rebuilds every read model from a log of project events, as `vigil projections rebuild` does,
 * and prints events/s and peak RSS. The baseline is a plain read of the same log in the same run.
 *   npm run bench:rebuild [-- --events 200000]
 */
import { parseArgs } from 'node:util';
import { allProjections } from '../projections/index.js';
import { openSqliteDatabase } from '../src/eventstore/sqlite-database.js';
import { SqliteEventStore } from '../src/eventstore/sqlite-event-store.js';
import { Projector } from '../src/projector/projector.js';
import { SqliteReadModelStore } from '../src/readstore/sqlite-read-model-store.js';
import { makeTempDir } from '../test/support/temp-dir.js';

const { values } = parseArgs({ options: { events: { type: 'string', default: '200000' } } });
const total = Number(values.events);
const projects = 1000;
const dir = makeTempDir('vigil-bench-rebuild');
const db = openSqliteDatabase(`${dir.path}/vigil.db`);
const events = new SqliteEventStore(db);
const at = '2026-11-21T00:00:00.000Z';

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

let started = performance.now();
let read = 0;
for (let after = 0; ; ) {
  const page = await events.readAll({ after, maxCount: 1000 });
  if (page.length === 0) break;
  read += page.length;
  after = page.at(-1)!.position;
}
const readRate = read / ((performance.now() - started) / 1000);

let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
started = performance.now();
await new Projector(events, new SqliteReadModelStore(db), allProjections()).rebuild();
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);

console.log(`log: ${total} events over ${projects} project streams`);
console.log(`baseline, reading the log only: ${readRate.toFixed(0)} events/s`);
console.log(`rebuild of all read models: ${(total / seconds).toFixed(0)} events/s (${seconds.toFixed(2)} s), peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MiB`);
console.log(`ratio: rebuild runs at ${((total / seconds / readRate) * 100).toFixed(0)}% of the raw read rate`);
await events.close();
db.close();
dir.remove();
