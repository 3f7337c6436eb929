import { SingleBar } from 'cli-progress';
import { RETIRED_PROJECTIONS, allProjections } from '../../../projections/index.js';
import { jsonLine } from '../../cli/visible.js';
import { Projector } from '../../projector/projector.js';
import type { CliIo } from './cli-io.js';
import { withStores } from './with-stores.js';

export async function rebuildProjections(io: CliIo): Promise<number> {
  return withStores(io, 'existing', async ({ stores }) => {
    const projector = new Projector(stores.events, stores.readModels, allProjections(), { retired: RETIRED_PROJECTIONS });
    const bar = new SingleBar({
      stream: io.stderr,
      format: 'rebuilding read models [{bar}] {percentage}% | {value}/{total} log position',
      // Piped or in CI there is no TTY: still print progress, as a line every few seconds.
      noTTYOutput: true,
      notTTYSchedule: 2000,
    });
    const head = await stores.events.headPosition();
    bar.start(Math.max(head, 1), 0);
    await projector.rebuild((position, total) => {
      bar.setTotal(Math.max(total, 1));
      bar.update(position);
    });
    bar.update(Math.max(head, 1));
    bar.stop();
    io.stdout(jsonLine({ rebuilt: allProjections().map((p) => p.name), position: head }));
    return 0;
  });
}
