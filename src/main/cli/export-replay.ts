import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SingleBar } from 'cli-progress';
import { RETIRED_PROJECTIONS, allProjections } from '../../../projections/index.js';
import type { IncidentDocument } from '../../../projections/incidents.js';
import { type ExportedEvent, projectEvents } from '../../audit/export.js';
import { jsonLine, visible } from '../../cli/visible.js';
import type { JsonObject } from '../../eventstore/event-store.js';
import { Projector } from '../../projector/projector.js';
import { loadConfig } from '../config.js';
import { openStores } from '../stores.js';
import { type CliIo, CliFailure, UsageError } from './cli-io.js';
import { options, required } from './flags.js';
import { withStores } from './with-stores.js';

function progressBar(io: CliIo, label: string): SingleBar {
  return new SingleBar({ stream: io.stderr, format: `${label} [{bar}] {percentage}% | {value}/{total}`, noTTYOutput: true, notTTYSchedule: 2000 });
}

export async function exportEvents(args: readonly string[], io: CliIo): Promise<number> {
  const values = options(args, { project: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' } });
  const projectId = required(values.project, 'project');
  for (const flag of ['from', 'to'] as const) {
    if (values[flag] !== undefined && Number.isNaN(Date.parse(values[flag]))) throw new UsageError(`--${flag} must be an ISO 8601 time`);
  }
  const range = {
    ...(values.from ? { from: new Date(values.from).toISOString() } : {}),
    ...(values.to ? { to: new Date(values.to).toISOString() } : {}),
  };
  return withStores(io, 'existing', async ({ stores, name }) => {
    const bar = progressBar(io, 'exporting');
    bar.start(Math.max(1, await stores.events.headPosition()), 0);
    let count = 0;
    for await (const event of projectEvents(stores.events, projectId, range, (position) => bar.update(position))) {
      io.stdout(jsonLine(event));
      count += 1;
    }
    bar.stop();
    io.stderr.write(`exported ${count} events of project ${visible(projectId)} from ${visible(name)}\n`);
    return 0;
  });
}

function parsedLine(line: string, index: number, file: string): ExportedEvent {
  try {
    return JSON.parse(line) as ExportedEvent;
  } catch {
    throw new CliFailure(`line ${index + 1} of ${file} is not JSON: is it a file that vigil events export wrote?`);
  }
}

/** Rebuilds a fresh store from an export and reports the incidents it finds. */
export async function replay(file: string | undefined, io: CliIo): Promise<number> {
  if (!file) throw new UsageError('replay needs the file an export wrote');
  const lines = readFileSync(file, 'utf8').split('\n').filter((line) => line.trim() !== '');
  // All of it read before anything is written: a file that is no export is refused whole.
  const exported = lines.map((line, index) => parsedLine(line, index, file));
  const scratch = mkdtempSync(join(tmpdir(), 'vigil-replay-'));
  const stores = await openStores(loadConfig({ ...io.env, VIGIL_DATA_DIR: scratch, VIGIL_EVENTSTORE_URL: '', VIGIL_MONGODB_URL: '' }));
  const bar = progressBar(io, 'replaying');
  try {
    bar.start(exported.length, 0);
    for (const [index, event] of exported.entries()) {
      await stores.events.appendToStream(event.stream, [{ id: event.id, type: event.type, data: event.data as JsonObject, metadata: event.metadata as JsonObject }]);
      if (index % 500 === 0) bar.update(index);
    }
    bar.update(exported.length);
    // Stopped here as well as on a failure: a running bar's timer would keep the process alive.
    bar.stop();
    await new Projector(stores.events, stores.readModels, allProjections(), { retired: RETIRED_PROJECTIONS }).catchUp();
    const incidents = (await stores.readModels.find<IncidentDocument>('incidents', {}, { sort: [['started_at', 1]] })).map((s) => s.doc);
    const byStatus = (status: string) => incidents.filter((i) => i.status === status).length;
    io.stdout(
      jsonLine({
        events: exported.length,
        incidents: incidents.map((i) => ({ id: i.id, monitor_id: i.monitor_id, event: i.event, status: i.status, started_at: i.started_at, acknowledged_at: i.acknowledged_at, resolved_at: i.resolved_at })),
        summary: { open: byStatus('OPEN'), acknowledged: byStatus('ACKNOWLEDGED'), resolved: byStatus('RESOLVED') },
      }),
    );
    return 0;
  } finally {
    bar.stop();
    await stores.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}
