import type { EventStore, RecordedEvent } from '../eventstore/event-store.js';
import { withoutSecrets } from './secret-fields.js';

/**
 * One exported event per line. The format is stable: these keys, in this order; `data` and
 * `metadata` as recorded; times in ISO-8601 UTC.
 */
export interface ExportedEvent {
  position: number;
  stream: string;
  revision: number;
  id: string;
  type: string;
  created: string;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

/** As recorded, but for the hashes of passwords and tokens (SECRET_FIELDS): an export never carries a credential. */
export function toExported(event: RecordedEvent): ExportedEvent {
  return { position: event.position, stream: event.streamName, revision: event.revision, id: event.id, type: event.type, created: event.created, data: withoutSecrets(event.data), metadata: event.metadata };
}

/** Every event of a project (those whose data names it), in log order, within an optional time range. */
export async function* projectEvents(
  events: EventStore,
  projectId: string,
  range: { from?: string; to?: string } = {},
  onProgress?: (position: number, head: number) => void,
): AsyncGenerator<ExportedEvent> {
  const head = await events.headPosition();
  for (let after = 0; after < head; ) {
    const page = await events.readAll({ after, maxCount: 2000 });
    if (page.length === 0) break;
    for (const event of page) {
      if (event.data['project_id'] !== projectId) continue;
      if (range.from && event.created < range.from) continue;
      if (range.to && event.created > range.to) continue;
      yield toExported(event);
    }
    after = page.at(-1)!.position;
    onProgress?.(after, head);
  }
}
