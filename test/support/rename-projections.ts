import type { Projection } from '../../src/projector/projection.js';
import type { EmbeddedStores } from './embedded-stores.js';

/**
 * Small projections over project renames for the projector's specs. This one counts renames per
 * project, `step` at a time: an event applied twice, or to a stale copy, shows as a wrong count.
 */
export function renameCounter(version = 1, step = 1): Projection {
  return {
    name: 'rename_counts',
    version,
    collection: { name: 'rename_counts', indexes: [] },
    handles: ['ProjectUpdated'],
    targets: (event) => ({ ids: event.type === 'ProjectUpdated' ? [event.data.project_id] : [] }),
    apply: (doc, event) => ({ renames: Number(doc?.['renames'] ?? 0) + step, last: event.type === 'ProjectUpdated' ? event.data.name : '' }),
  };
}

/** One entry per rename, the one two renames back dropped: the audit history's shape in small (`fromEventAlone`). */
export const renameLog: Projection = {
  name: 'rename_log',
  version: 1,
  collection: { name: 'rename_log', indexes: [] },
  handles: ['ProjectUpdated'],
  fromEventAlone: true,
  targets: (event) => ({ ids: [`${event.streamName}@${event.revision}`, ...(event.revision >= 2 ? [`${event.streamName}@${event.revision - 2}`] : [])] }),
  apply: (_doc, event, id) => (id === `${event.streamName}@${event.revision}` && event.type === 'ProjectUpdated' ? { name: event.data.name } : null),
};

export async function rename(stores: EmbeddedStores, projectId: string, n: number) {
  return stores.events.appendToStream(`project-${projectId}`, [
    { type: 'ProjectUpdated', data: { project_id: projectId, name: `name ${n}`, description: '', updated_at: '2026-11-21T00:00:00.000Z' } },
  ]);
}

/** How many renames `rename_counts` has counted for the project. */
export async function renameCount(stores: EmbeddedStores, projectId: string): Promise<unknown> {
  return (await stores.readModels.get('rename_counts', projectId))?.doc['renames'];
}
