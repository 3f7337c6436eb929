import type { LogIntegrityCheck } from '../src/domain/audit/log-integrity.js';
import type { Projection } from '../src/projector/projection.js';

export interface LogIntegrityDocument extends LogIntegrityCheck {
  [key: string]: unknown;
  id: string;
  /** Where the check was recorded in the log. */
  position: number;
}

/** The one document `latest`: the last check of the log's hash chain, from whichever tool ran it. */
export const LATEST_CHECK = 'latest';

export const logIntegrityProjection: Projection<LogIntegrityDocument> = {
  name: 'log_integrity',
  version: 1,
  collection: { name: 'log_integrity', indexes: [] },
  handles: ['LogIntegrityChecked'],
  targets: () => ({ ids: [LATEST_CHECK] }),
  apply(_doc, event) {
    return event.type === 'LogIntegrityChecked' ? { ...event.data, id: LATEST_CHECK, position: event.position } : _doc;
  },
};
